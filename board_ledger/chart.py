"""The Power Base Record of every player over the game, as an SVG drawn by hand (no plotting library)."""
from __future__ import annotations

from xml.sax.saxutils import escape

from i18n import _

from board_ledger.state import State

# one colour per marker set (six players at most, rule 1): the Okabe–Ito colours, which stay
# apart for colour-blind players (docs/table.md: checked in a deuteranopia simulation)
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
WIDTH, HEIGHT = 720, 420
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 40, 48


def pbr_series(states: list[State]) -> dict[str, list[float]]:
    """Each player's PBR after every action (None-free: a player appears once named)."""
    names = states[-1].names
    series: dict[str, list[float]] = {n: [] for n in names}
    for s in states:
        known = {p.name: p.halves / 2 for p in s.players}
        for n in names:
            series[n].append(known.get(n, 0.0))
    return series


GRID_LINES = 10                    # at most this many steps up the PBR axis, however high the PBR


def grid_step(top: float) -> int:
    """The step between the PBR axis's grid lines: 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500 ...
    (each decade's 10, 20, 25, 50), the smallest that reaches ``top`` in at most GRID_LINES steps.
    Its size follows the PBR's number of digits, so the axis has a handful of lines for any PBR."""
    for step in (1, 2, 5):
        if top <= step * GRID_LINES:
            return step
    decade = 10
    while True:
        for step in (decade, 2 * decade, decade * 5 // 2, 5 * decade):   # whole numbers: 2.5 as
            if top <= step * GRID_LINES:                                # a float is inexact at
                return step                                             # 10**23 and beyond
        decade *= 10


def pbr_svg(states: list[State], title: str | None = None) -> str:
    """The chart as SVG text: x = actions so far, y = PBR, one polyline per player."""
    series = pbr_series(states)
    count = max(len(states) - 1, 1)
    top = max([10.0] + [v for values in series.values() for v in values])
    step = grid_step(top)
    top = (int(top) // step + 1) * step          # the axis ends one step above: at most 12 lines
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + plot_w * i / count

    def y(v: float) -> float:
        return TOP + plot_h * (1 - v / top)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="16">{escape(title or _("Power Base Record"))}</text>']
    for v in range(0, int(top) + 1, step):
        out.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{LEFT + plot_w}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="black"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="black"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 12}" text-anchor="middle">{escape(_("actions"))}</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + plot_h / 2})">PBR</text>')
    for k, (name, values) in enumerate(series.items()):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}">'
                   f'<title>{escape(name)}</title></polyline>')
        ly = TOP + 16 + 20 * k
        out.append(f'<line x1="{WIDTH - RIGHT + 16}" y1="{ly}" x2="{WIDTH - RIGHT + 40}" y2="{ly}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 46}" y="{ly + 4}">{escape(name)} {values[-1]:g}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
