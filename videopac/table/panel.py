"""The ledger panel: the board game's books drawn with pyglet beside the battle screen (F4), or
filling the ledger-only window.

It shows the 11 zones with every country's owner in the players' colours, each player's chips and
PBR, the war chest, whose turn it is and what is legal now (the ledger's own words), the pending
war or end-game confrontation with the keys to type on the console, the bridge's proposal, the
last actions and a PBR chart. Everything is laid out top-down into a rectangle; a paragraph that
does not fit is left out rather than drawn over another (``labels`` and ``tiles`` keep the boxes,
so the tests can check that nothing overlaps).
"""
from __future__ import annotations

import math
from typing import Any

import pyglet

from i18n import _, pgettext

from board_ledger import effects, notation, report
from board_ledger import seats as seats_mod
from board_ledger.board import Country, shown
from board_ledger.chart import COLOURS, pbr_series
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.general import seat_label
from board_ledger.rules import pbr, round_five_hundred
from board_ledger.state import ALLIED, State
from videopac.console import keymap as keymap_mod
from videopac.console.controls import CONTROLS
from videopac.table.bridge import Bridge, Contest, colour_name, contest_of

BACKGROUND = (22, 24, 32, 255)
TILE = (52, 56, 70, 255)
TEXT = (235, 235, 235, 255)
DIM = (165, 168, 180, 255)
ACCENT = (255, 240, 150, 255)
WARNING = (255, 150, 120, 255)
GAP = 4
MIN_PLAY = (440, 486)          # the panel beside the picture at --scale 2 (486 lines high)
MIN_WINDOW = (960, 600)        # the ledger-only window
PBR_CHART_ACTIONS = 60         # the chart shows the last so many actions
CARTRIDGE_MOST = 9999        # four BCD digits on the battle program's entry screen

Colour = tuple[int, int, int, int]
Line = tuple[str, Colour]      # a paragraph of the text column and its colour
Paragraph = tuple[str, Colour, float, bool]    # ... with its font size and whether it is bold


def colour_of(index: int, alpha: int = 255) -> tuple[int, int, int, int]:
    """The player's colour (the chart's colours, one per marker set) as RGBA."""
    h = COLOURS[index % len(COLOURS)].lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), alpha


ALLIED_SHARE = 0.5            # an allied tile: the player's colour half mixed into the empty tile's
DARK_INK = (20, 20, 24, 255)  # tile text on light colours (orange, sky blue), else TEXT


def tile_fill(colour: tuple[int, ...], kind: str) -> tuple[int, int, int, int]:
    """A tile's colour: the player's colour for a homeland or a conquered country, paler (mixed
    with the empty tile) for an allied one."""
    if kind != ALLIED:
        return colour[0], colour[1], colour[2], 255
    mix = [round(ALLIED_SHARE * c + (1 - ALLIED_SHARE) * b) for c, b in zip(colour[:3], TILE[:3])]
    return mix[0], mix[1], mix[2], 255


def ink_on(fill: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Readable text on ``fill``: dark on light colours, light on dark ones."""
    luminance = (0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]) / 255
    return DARK_INK if luminance > 0.5 else TEXT


def _energy_squares(energy: int) -> float:
    """Rule 21G: a survivor's energy as PBR squares (nearest 500, one square per 1000)."""
    return round_five_hundred(energy) / 1000


def shown_line(line: str) -> str:
    """A notation line as the user reads it (German verbs and names in German mode)."""
    try:
        event = notation.parse_line(line)
    except LedgerError:
        return line
    return notation.display_event(event) if event is not None else line


# --- what the panel says: text builders, independent of drawing -------------------------------------
def ledger_keys(keymap: keymap_mod.Keymap) -> str:
    """The ledger's controls with the PC keys ``keymap`` binds them to and what each does
    (videopac/console/controls.py): 'F9 book it · PgDn other choice · …'; one bound to no key is left out."""
    shown = [(c.panel, keymap.shown_keys("control", c.name)) for c in CONTROLS if c.panel is not None]
    return " · ".join(f"{'/'.join(keys)} {_(panel)}" for panel, keys in shown if keys)


def contest_lines(s: State, bridge: Bridge | None = None, keys: str = "") -> list[Line]:
    """The end game's order, then the pending war or confrontation, the keys for the console and
    the bridge's proposal, or the next challenge (``keys``: the ledger's own keys, ledger_keys)."""
    contest = bridge.contest if bridge is not None else contest_of(s)
    if contest is None:
        return _pbr_order(s) + challenge_lines(s) + _reading(s, bridge)
    notes = [(note, WARNING) for note in bridge.notes] if bridge is not None else []
    return (_pbr_order(s) + [_headline(s, contest, bridge)] + _proposal(bridge, keys) + notes
            + _energies(contest) + _console(bridge, keys))


def _pbr_order(s: State) -> list[Line]:
    """The end game's PBR order, lowest first, and who has fought (rule 21B)."""
    if s.phase != "endgame":
        return []
    order = sorted(s.live(), key=lambda n: (s.player(n).halves, s.names.index(n)))
    text = _("PBR order (rule 21B, lowest first): {order}").format(
        order=", ".join(f"{n} {pbr(s.player(n).halves)}" for n in order))
    if s.fought:
        text += "; " + _("fought: {names}").format(names=", ".join(sorted(s.fought)))
    return [(text, DIM)]


def challenge_lines(s: State) -> list[Line]:
    """The next confrontation of the end game and the energies to type, in the war view's words
    (board_ledger/report.py, what the terminal and the phones say); none before or after it."""
    if s.phase != "endgame" or not s.expected or s.confrontation is not None:
        return []
    return list(zip(report.war_lines(s), (ACCENT, TEXT)))


def _reading(s: State, bridge: Bridge | None) -> list[Line]:
    """The number the cartridge showed in computer mode, while the players set up (rule 2)."""
    if bridge is None or bridge.reading is None or s.phase != "setup":
        return []
    return [(_("Cartridge reading (rule 2): {reading}").format(reading=f"{bridge.reading:04d}"), ACCENT)]


def _headline(s: State, contest: Contest, bridge: Bridge | None) -> Line:
    """Who fights whom, with the controller each holds, and the score of a war."""
    a, d = contest.attacker, contest.defender
    colours = bridge.colour if bridge is not None else {}
    side = {n: f" ({colour_name(colours[n])})" if n in colours else "" for n in (a, d)}
    if contest.kind == "war":
        assert contest.target is not None          # a war is fought for a country
        return (_("War for {country}: {a} attacks, {d} defends — {wins_a}–{wins_d} after {n} of 3 "
                  "battles").format(country=shown(contest.target), a=a + side[a], d=d + side[d],
                                    wins_a=contest.wins[0], wins_d=contest.wins[1], n=contest.battles),
                ACCENT)
    c = s.confrontation
    assert c is not None                           # a contest that is no war is a confrontation
    return (_("Confrontation (rule 21): {challenger} – {opponent}; {a} attacks this battle; "
              "winner +1 square, loser −1").format(challenger=c.challenger, opponent=c.opponent,
                                                   a=a + side[a]), ACCENT)


def _proposal(bridge: Bridge | None, keys: str) -> list[Line]:
    """What the bridge proposes to book (which of several) and the keys that book it."""
    if bridge is None or not bridge.proposal:
        return []
    lines = " | ".join(shown_line(line) for line in bridge.proposal)
    text = (_("To book (choice {k} of {n}): {lines}").format(k=bridge.choice + 1, n=len(bridge.choices),
                                                             lines=lines)
            if len(bridge.choices) > 1 else _("To book: {lines}").format(lines=lines))
    return [(text, ACCENT)] + ([(keys, DIM)] if keys else [])


def _energies(contest: Contest) -> list[Line]:
    """The energies on screen, more than the cartridge takes, what a confrontation's survivor
    would gain (rule 21G) and the weapons a side may not use."""
    a, d = contest.attacker, contest.defender
    out = [(_("Energy: {energies}").format(energies=", ".join(f"{n} {contest.energy[n]}" for n in (a, d))), TEXT)]
    if max(contest.energy.values()) > CARTRIDGE_MOST:
        out.append((_("The cartridge takes at most {most}: type that, and book the battles by hand "
                      "with the energies the rules give").format(most=CARTRIDGE_MOST), WARNING))
    if contest.kind == "confrontation":
        out.append((_("If the other's energy is gone: {outcomes} (rule 21G)").format(outcomes=", ".join(
            _("{name} keeps {energy} → +{squares}").format(
                name=n, energy=contest.energy[n], squares=f"{_energy_squares(contest.energy[n]):g}")
            for n in (a, d))), DIM))
    banned = [_("{name} not {weapons}").format(name=n, weapons="/".join(sorted(ws)))
              for n, ws in contest.banned.items() if ws]
    if banned:
        out.append((_("Weapons lost: {list}").format(list=", ".join(banned)), DIM))
    return out


def _console(bridge: Bridge | None, keys: str) -> list[Line]:
    """Without a proposal, the keys to type on the console for the next battle; the battles the
    cartridge showed, counted or not; then the ledger's keys (with a proposal they are above)."""
    if bridge is None:
        return []
    out: list[Line] = [] if bridge.proposal else [
        (_("Console keys: {keys}").format(keys=" · ".join(bridge.keys())), TEXT)]
    for seen in bridge.seen:
        line = shown_line(seen.line) + (f" — {seen.why}" if seen.why else "")
        out.append(((_("seen: {line}") if seen.counted else _("not counted: {line}")).format(line=line),
                    TEXT if seen.counted else WARNING))
    if not bridge.proposal and keys:
        out.append((keys, DIM))
    return out


def winner_text(s: State) -> str | None:
    """The winner screen's headline (rule 22), or None while the game goes on."""
    if s.phase != "over":
        return None
    if s.winner is None:
        return _("The game is over: a draw")
    return _("{name} wins with PBR {pbr} (rule 22)").format(name=s.winner, pbr=pbr(s.player(s.winner).halves))


def last_effects(game: Game) -> str:
    """What the latest action did (board_ledger/effects.py), one paragraph: "Done: war Carla
    1355 — Carla won the war for India. …" ('' before the first action)."""
    if not game.events:
        return ""
    latest = game.events[-1]
    said = effects.effects(game.before, game.state, latest, game.cancelled)
    lines = effects.effects_lines(said)
    if not lines:
        return ""
    return _("Done: {action} — {effects}").format(action=notation.display_event(latest),
                                                  effects=" ".join(lines))


def last_actions(game: Game, count: int) -> list[str]:
    return [notation.display_event(e) for e in game.events[-count:]]


def abbreviation(name: str) -> str:
    """A country in three or four letters, for the small board: USSR, US, WG, Can."""
    name = name.replace(".", "")
    words = name.replace("-", " ").split()
    return "".join(w[0] for w in words).upper() if len(words) > 1 else name[:4] if name.isupper() else name[:3]


def board_grid(zones: int, rows_in_box: int, w: float, h: float, chars: int) -> tuple[float, int, int, float]:
    """The board's grid: the font size (5 to 12), columns, rows and line height that let the
    biggest font show ``chars`` characters per line with ``rows_in_box`` lines per zone box."""
    best: tuple[float, int, int, float] | None = None
    for cols in range(1, zones + 1):
        rows = math.ceil(zones / cols)
        line = (h / rows - GAP) / rows_in_box
        font = min(line * 0.5, (w / cols - GAP) / (chars * 0.8))
        if best is None or font > best[0]:
            best = (font, cols, rows, line)
    assert best is not None                    # the board has zones
    font, cols, rows, line = best
    return max(5.0, min(12.0, font)), cols, rows, line


def tile_texts(name: str, value: int, marks: str, homeland: bool, large: bool) -> tuple[str, tuple[str, ...]]:
    """A tile's text and its shorter forms, longest first: on the large board the name, value,
    holders' letters and the homeland mark; on the small one the abbreviation with the letters
    and "*" for a homeland, cut shorter as needed."""
    home = pgettext("the mark of a homeland on the board", "H") if homeland else ""
    text = " ".join(x for x in (name, str(value), marks, home) if x) if large else ""
    short, star = abbreviation(name), "*" if homeland else ""
    forms = ((f"{short} {marks}{star}", f"{short}{marks}{star}", f"{short}{marks}", f"{short[:2]}{marks}")
             if marks else (short, short[:3]))
    return text, forms


def player_lines(s: State) -> list[tuple[int, str]]:
    """Each player's seat index and line: his letter, homeland, chips, PBR, whose turn, out."""
    letter = report.player_letters(s.names)
    attacker = report.turn(s)["attacker"]
    return [(i, letter[p.name] + "  " + _("{name}: {homeland}, chips {chips}, PBR {pbr}").format(
                name=p.name, homeland=shown(p.homeland) if p.homeland else "-", chips=p.chips,
                pbr=pbr(p.halves)) + (" ◀" if attacker == p.name else "") + (" " + _("OUT") if p.eliminated else "")
             + (" · " + seat_label(p.general) if p.general else ""))
            for i, p in enumerate(s.players)]


def general_lines(game: Game, seats: seats_mod.Seats | None) -> list[Line]:
    """The computer seats' news: whose move is being thought about, why the latest move of a
    computer seat was made, and a general's weapon at program entry (docs/generals.md)."""
    if seats is None:
        return []
    lines: list[Line] = []
    thinking = seats.thinking()
    latest = seats_mod.latest_why(game)
    if latest is not None:
        lines.append((latest[1].say(), TEXT))
    if seats.note is not None and (game.state.war or game.state.confrontation):
        lines.append((seats.note.say(), TEXT))
    if thinking:
        lines.append((_("{name} (computer) is thinking ...").format(name=thinking), ACCENT))
    return lines


def situation_text(s: State) -> str | None:
    """The war view without its headline (the contest lines above carry it), else what is legal
    now; None when a challenge is pending (its war view is above) or the game is over."""
    view = report.war_lines(s)
    if s.war or s.confrontation:
        return "\n".join(view[1:])
    if view or s.phase == "over":
        return None
    return _("Now: {text}").format(text=report.now_text(s))


class LedgerPanel:
    """The ledger drawn into a rectangle of a pyglet window."""

    def __init__(self, game: Game, bridge: Bridge | None = None, large: bool = False,
                 title: str | None = None, keymap: keymap_mod.Keymap | None = None) -> None:
        self.game, self.bridge, self.large, self.title = game, bridge, large, title
        self.keymap = keymap       # whose keys the key line names (the table gives the session's)
        self.visible = True
        self.rect = (0, 0, MIN_PLAY[0], MIN_PLAY[1])
        self.batch: pyglet.graphics.Batch | None = None       # made when first drawn (needs a display)
        self.labels: list[pyglet.text.Label] = []
        self.shapes: list[Any] = []                             # pyglet shapes
        self.tiles: dict[str, tuple[int, int, int, int]] = {}   # country -> x, y, w, h
        self.selected: str | None = None
        self._key: tuple[object, ...] | None = None
        self.seats: seats_mod.Seats | None = None    # the computer seats, when a front end drives them

    # -- layout -----------------------------------------------------------------------------
    def layout(self, x: int, y: int, width: int, height: int) -> None:
        self.rect = (x, y, width, height)
        self._key = None

    def _state_key(self) -> tuple[object, ...]:
        b = self.bridge
        bridge = (len(b.seen), tuple(b.notes), tuple(b.proposal), tuple(sorted(b.colour.items())),
                  b.reading) if b is not None else ()
        generals = (self.seats.thinking(), self.seats.note) if self.seats is not None else ()
        return (self.rect, len(self.game.events), bridge, self.selected, generals)

    def refresh(self) -> None:
        """Lay everything out again if anything it shows has changed."""
        if self.bridge is not None:
            self.bridge.sync()
        key = self._state_key()
        if key == self._key:
            return
        self._key = key
        for item in self.labels + self.shapes:
            item.delete()
        self.labels, self.shapes, self.tiles = [], [], {}
        self.batch = pyglet.graphics.Batch()
        self._back, self._front = pyglet.graphics.Group(0), pyglet.graphics.Group(1)
        x, y, w, h = self.rect
        self._rect(x, y, w, h, BACKGROUND)
        s = self.game.state
        size = 13 if self.large else 9
        if self.large:
            board_w = int(w * 0.58)
            self._board(x + GAP, y + GAP, board_w - 2 * GAP, h - 2 * GAP, s)
            self._text(x + board_w + GAP, y + h - GAP, w - board_w - 2 * GAP, y + GAP, s, size)
        else:
            board_h = int(h * 0.4)
            self._board(x + GAP, y + h - board_h, w - 2 * GAP, board_h - GAP, s)
            self._text(x + GAP, y + h - board_h - GAP, w - 2 * GAP, y + GAP, s, size)

    def _rect(self, x: float, y: float, w: float, h: float, colour: Colour) -> None:
        self.shapes.append(pyglet.shapes.Rectangle(x, y, w, h, color=colour, batch=self.batch,
                                                   group=self._back))

    def _label(self, text: str, x: float, y: float, size: float, colour: Colour = TEXT,
               width: float | None = None, bold: bool = False, anchor_y: str = "top") -> pyglet.text.Label:
        label = pyglet.text.Label(text, x=int(x), y=int(y), font_size=size, color=colour, weight="bold" if bold else "normal",
                                  width=width, multiline=width is not None, anchor_y=anchor_y,
                                  batch=self.batch, group=self._front)
        self.labels.append(label)
        return label

    def _drop(self, label: pyglet.text.Label) -> None:
        self.labels.remove(label)
        label.delete()

    # -- the board --------------------------------------------------------------------------
    def _board(self, x: int, y: int, w: int, h: int, s: State) -> None:
        """The zones in a grid of boxes, each a header and one tile per country."""
        zones = list(s.board.zones.items())
        font, cols, rows, line = board_grid(len(zones), max(len(c) for _, c in zones) + 1, w, h,
                                            16 if self.large else 5)    # full names, or abbreviations
        box_w, box_h = w / cols, h / rows
        colour = {n: colour_of(i) for i, n in enumerate(s.names)}
        letter = report.player_letters(s.names)
        for k, (zone, countries) in enumerate(zones):
            bx, top = x + (k % cols) * box_w, y + h - (k // cols) * box_h
            self._fit(_("Zone {zone}").format(zone=zone) if self.large else f"{zone}", bx + 2, top,
                      box_w - GAP - 2, line, font, DIM)
            for i, c in enumerate(countries):
                box = (int(bx), int(box_w - GAP), max(1, int(line) - 1))
                self._country(s, c, box, top - (i + 1) * line, line, font, colour, letter)

    def _country(self, s: State, c: Country, box: tuple[int, int, int], ty: float, line: float,
                 font: float, colour: dict[str, Colour], letter: dict[str, str]) -> None:
        """One country's tile (``box`` is its x, width and height, ``ty`` its top): framed when
        selected, in its first holder's colour, with its name, value and the holders' letters."""
        tx, tw, th = box
        holders = sorted(s.holders_of(c.name), key=s.names.index)
        owner = s.homeland_owner(c.name)
        ty0 = int(ty - line) + 1
        if c.name == self.selected:
            self._rect(tx - 1, ty0 - 1, tw + 2, th + 2, ACCENT)
        if holders:
            first = owner or holders[0]
            kind = "homeland" if owner else s.holders.get(c.name, {}).get(first, "conquered")
            fill = self._tile(tx, ty0, tw, th, colour[first], kind)
        else:
            fill = TILE
            self._rect(tx, ty0, tw, th, fill)
        self.tiles[c.name] = (tx, ty0, tw, th)
        text, forms = tile_texts(shown(c.name), c.value, "".join(letter[n] for n in holders),
                                 owner is not None, self.large)
        self._fit(text, tx + 2, ty, tw - 4, th, font, ink_on(fill), short=forms)

    def _tile(self, x: int, y: int, w: int, h: int, colour: Colour, kind: str) -> Colour:
        """One tile in a player's colour: a homeland framed in white, a conquered country in full
        colour, an allied one pale with a bar of the full colour on its left (the legend shows
        the three). Returns the fill the text stands on."""
        fill = tile_fill(colour, kind)
        if kind == "homeland":
            self._rect(x, y, w, h, TEXT[:3] + (255,))
            self._rect(x + 2, y + 2, w - 4, h - 4, fill)
        else:
            self._rect(x, y, w, h, fill)
            if kind == ALLIED:
                self._rect(x, y, 2, h, tile_fill(colour, "conquered"))
        return fill

    def _legend(self, x: float, y: float, w: float, size: float, s: State) -> float:
        """Three sample tiles with their meaning, in the first player's colour; returns the y
        below them (nothing is drawn when they do not fit the width)."""
        if not s.players:
            return y
        colour = colour_of(0)
        items = [("homeland", _("homeland (framed, H)")), ("conquered", _("conquered")),
                 (ALLIED, _("allied (pale)"))]
        cx, height = x, 0.0
        placed = []
        for kind, text in items:
            label = self._label(text, cx + 22, y, size * 0.9, DIM)
            placed.append((kind, cx, label))
            cx += 22 + label.content_width + 12
            height = max(height, label.content_height)
        if cx - 12 > x + w:
            for _kind, _cx, label in placed:
                self._drop(label)
            return y
        for kind, cx, label in placed:
            self._tile(int(cx), int(y - height + 2), 18, int(height) - 3, colour, kind)
        return y - height - 2

    def _fit(self, text: str, x: float, top: float, width: float, height: float, size: float,
             colour: Colour, short: tuple[str, ...] = ()) -> pyglet.text.Label | None:
        """A one-line label that fits the box: the text, else a shorter form, else nothing."""
        for candidate in (text, *short):
            if not candidate:
                continue
            label = self._label(candidate, x, top, size, colour)
            if label.content_width <= width and label.content_height <= height:
                return label
            self._drop(label)
        return None

    # -- the text column --------------------------------------------------------------------
    def _text(self, x: int, top: int, w: int, bottom: int, s: State, size: float) -> None:
        """The text column top-down: the headline, the players, the legend, what is going on now
        and the last actions; the PBR chart at the bottom."""
        chart_h = max(60, int((top - bottom) * (0.28 if self.large else 0.22)))
        floor = bottom + chart_h                      # nothing of the text goes below the chart's top
        y = self._para_block(self._title(s, size), x, top, w, floor)
        y = self._players(player_lines(s), x, y, w, size, floor)
        y = self._legend(x, y - 1, w, size, s)
        self._para_block(self._news(s, size), x, y - GAP, w, floor)
        self._chart(x, bottom, w, chart_h - GAP, s, size)

    def _title(self, s: State, size: float) -> list[Paragraph]:
        """The winner, if there is one, and the title line with the phase and the war chest."""
        headline = winner_text(s)
        paragraphs: list[Paragraph] = [(headline, ACCENT, size * 1.6, True)] if headline else []
        paragraphs.append((_("{title} — {phase}, war chest {amount}").format(
            title=self.title or _("Ledger"), phase=report.phase_text(s.phase), amount=f"{s.war_chest:+d}"),
            TEXT, size + 1, True))
        return paragraphs

    def _players(self, players: list[tuple[int, str]], x: float, y: float, w: float, size: float,
                 bottom: float) -> float:
        """One line per player behind a square of his colour, while they fit above ``bottom``;
        returns the y below them."""
        for i, text in players:
            label = self._label(text, x + 14, y, size, TEXT, width=w - 14)
            if y - label.content_height < bottom:
                self._drop(label)
                break
            self.shapes.append(pyglet.shapes.Rectangle(x, y - label.content_height + 3, 10, 10,
                                                       color=colour_of(i), batch=self.batch,
                                                       group=self._front))
            y -= label.content_height + 1
        return y

    def _news(self, s: State, size: float) -> list[Paragraph]:
        """What is going on: the contest at the console with its keys, what the last action did,
        the war view or what is legal now, and the last actions."""
        if self.bridge is not None and self.keymap is None:
            self.keymap = keymap_mod.load()          # the default keys
        keys = ledger_keys(self.keymap) if self.keymap is not None else ""
        lines = list(contest_lines(s, self.bridge, keys))
        lines += general_lines(self.game, self.seats)
        said = last_effects(self.game)
        if said:
            lines.append((said, TEXT))
        now = situation_text(s)
        if now is not None:
            lines.append((now, DIM))
        recent = last_actions(self.game, 6 if self.large else 4)
        if recent:
            lines.append((_("Last: {actions}").format(actions=" · ".join(recent)), DIM))
        return [(text, colour, size, False) for text, colour in lines]

    def _para_block(self, paragraphs: list[Paragraph], x: float, y: float, w: float, bottom: float) -> float:
        """Paragraphs top-down from ``y``; the first that does not fit is cut short to fit, with
        "…", and the rest are left out."""
        for text, colour, size, bold in paragraphs:
            label = self._label(text, x, y, size, colour, width=w, bold=bold)
            while y - label.content_height < bottom and len(label.text) > 24:
                room = (y - bottom) / label.content_height
                keep = int(len(label.text) * room) - 4
                if keep <= 0:       # not room for a few words: the paragraph is left out below
                    break
                # keep <= len - 5 (room < 1), so every pass shortens the text: the loop ends
                label.text = label.text[:keep].rstrip() + " …"
            if y - label.content_height < bottom:
                self._drop(label)
                return bottom
            y -= float(label.content_height) + 2
        return y

    def _chart(self, x: int, y: int, w: int, h: int, s: State, size: float) -> None:
        """Every player's PBR over the last actions: one line each (board_ledger.chart data)."""
        states = self.game.states[-PBR_CHART_ACTIONS:]
        series = pbr_series(states) if s.players else {}
        self._rect(x, y, w, h, (34, 36, 46, 255))
        title = self._label("PBR", x + 3, y + h - 2, size * 0.8, DIM)
        top = max([10.0] + [v for values in series.values() for v in values])
        left = x + title.content_width + 8
        n = max(len(states) - 1, 1)
        for k, values in enumerate(series.values()):
            points = [(left + (w - (left - x) - 4) * i / n, y + 3 + (h - 8) * v / top)
                      for i, v in enumerate(values)]
            for (x0, y0), (x1, y1) in zip(points, points[1:]):
                self.shapes.append(pyglet.shapes.Line(x0, y0, x1, y1, thickness=2, color=colour_of(k),
                                                      batch=self.batch, group=self._front))
        self._label(f"{top:g}", x + 3, y + h - 2 - title.content_height, size * 0.7, DIM)

    # -- drawing and pointing ---------------------------------------------------------------
    def draw(self) -> None:
        if self.visible:
            self.refresh()
            assert self.batch is not None              # refresh made it
            self.batch.draw()

    def country_at(self, px: float, py: float) -> str | None:
        for name, (x, y, w, h) in self.tiles.items():
            if x <= px < x + w and y <= py < y + h:
                return name
        return None
