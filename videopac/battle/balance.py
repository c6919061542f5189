"""The computer opponent measured: headless battles in all nine weapon pairings (the
`videopac balance` command is videopac/balance.py).

For each pairing it plays the standard computer against an idle side, an idle side against the
standard computer, and two standard computers against each other, and prints one row: red wins,
blue wins, draws and the mean length in seconds of each. docs/conquest.md shows the table.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cartridge.images import builtin_image, builtin_symbols
from i18n import N_, _

# o2em_core (numba) and videopac.battle.computer (numpy) are imported where a battle is played, not
# here: `videopac balance --help` and a refused command line never need them.
if TYPE_CHECKING:
    from videopac.battle.computer import Computer

Progress = Callable[[int, int, str], None]     # (battles done, of all, pairing)

PAIRINGS = tuple(r + b for r in "PST" for b in "PST")
MATCHES = (("computer", "idle"), ("idle", "computer"), ("computer", "computer"))
MATCH_NAMES = ("computer-idle", "idle-computer", "computer-computer")   # also the JSON keys
N_("computer-idle"), N_("idle-computer"), N_("computer-computer")    # ... and shown translated
ENERGY = 1000
RESULTS = {1: "red", 2: "blue", 3: "draw"}
LEVEL = "standard"


@dataclass
class Tally:
    """The results of one kind of match in one pairing."""
    red: int = 0
    blue: int = 0
    draw: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, winner: str, seconds: float) -> None:
        setattr(self, winner, getattr(self, winner) + 1)
        self.seconds.append(seconds)

    @property
    def mean(self) -> float:
        return sum(self.seconds) / len(self.seconds) if self.seconds else 0.0

    def as_dict(self) -> dict[str, int | float]:
        return {"red_wins": self.red, "blue_wins": self.blue, "draws": self.draw,
                "mean_seconds": round(self.mean, 1)}


def battle_seed(seed: int, pairing: str, match: int, number: int) -> int:
    """The seed of one battle: different for every battle of a run, the same in every run."""
    return (seed * 1000003 + PAIRINGS.index(pairing) * 7919 + match * 104729 + number) & 0x7FFFFFFF


class BattleBench:
    """The open BIOS and the battle program, with the computer on the sides it plays."""

    def __init__(self, region: str = "pal") -> None:
        from o2em_core import Machine        # lazy: see the imports

        self.machine = Machine(builtin_image("bios"), builtin_image("conquest"), region=region)
        self.symbols = builtin_symbols("conquest")
        self.run(5)

    def run(self, frames: int, players: Sequence[Computer] = ()) -> None:
        """``frames`` frames, the computer players moving their sticks before each."""
        for _frame in range(frames):
            for player in players:
                player.step(self.machine)
            self.machine.run_frame()

    def byte(self, name: str) -> int:
        return int(self.machine.iram[self.symbols[name]])

    def start(self, pairing: str, energy: int, wait: int = 0) -> None:
        """From SELECT GAME to a running battle: SPACE, both programs typed, ENTER (the keys
        of docs/conquest.md); ``wait`` frames at program entry vary the cartridge's random
        choices (its random register steps every frame there, and ENTER picks the map)."""
        from o2em_core.keyboard import tap        # lazy: see the imports

        tap(self.machine, "SPACE")
        self.run(3 + wait)
        for side, weapon in zip("RB", pairing):
            tap(self.machine, side, weapon, *str(energy))
        tap(self.machine, "ENTER")
        self.run(3)
        if self.byte("phase") != self.symbols["PH_BATTLE"]:
            raise RuntimeError("the battle program did not start the battle")  # i18n: untranslated (a bug)

    def fight(self, players: Sequence[Computer], limit: int) -> tuple[str, float]:
        """Run until the battle ends: (winner red/blue/draw, length in seconds)."""
        frames = 0
        while self.byte("battle_result") == 0 and frames < limit:
            self.run(1, players)
            frames += 1
        return RESULTS.get(self.byte("battle_result"), "draw"), frames / self.machine.fps


def play(pairing: str, sides: tuple[str, str], region: str, seed: int,
         energy: int = ENERGY, level: str = LEVEL) -> tuple[str, float, str]:
    """One battle from power-on: (winner, seconds, SHA-256 of the last frame)."""
    from videopac.battle.computer import Computer    # lazy: see the imports

    console = BattleBench(region)
    rng = random.Random(seed)
    console.start(pairing, energy, wait=rng.randrange(60))
    players = [Computer(side, level, console.symbols, seed=seed)
               for side, who in enumerate(sides) if who == "computer"]
    winner, seconds = console.fight(players, limit=int(energy / 5 * console.machine.fps))
    return winner, seconds, hashlib.sha256(console.machine.frame.tobytes()).hexdigest()


def measure(battles: int, region: str, seed: int, progress: Progress | None = None,
            pairings: tuple[str, ...] = PAIRINGS) -> dict[str, list[Tally]]:
    """The table: for each pairing the tallies of the three kinds of match."""
    table = {p: [Tally() for _ in MATCHES] for p in pairings}
    total, done = len(pairings) * len(MATCHES) * battles, 0
    for pairing in pairings:
        for m, sides in enumerate(MATCHES):
            for n in range(battles):
                winner, seconds, _frame_hash = play(pairing, sides, region, battle_seed(seed, pairing, m, n))
                table[pairing][m].add(winner, seconds)
                done += 1
                if progress:
                    progress(done, total, pairing)
    return table


def bar(done: int, total: int, label: str, width: int = 30) -> str:
    """The progress bar line: ``width`` cells, ``done`` of ``total`` filled, and ``label``."""
    filled = width * done // total
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label}"


def text_table(table: dict[str, list[Tally]], battles: int) -> str:
    """The table as aligned text (Markdown), one row per pairing."""
    head = [_("pairing")] + [_("{match} (red/blue/draw, s)").format(match=_(name))
                             for name in MATCH_NAMES]
    rows = []
    for pairing, tallies in table.items():
        cells = [f"{t.red}/{t.blue}/{t.draw}, {t.mean:.1f}" for t in tallies]
        rows.append([f"{pairing[0]}–{pairing[1]}"] + cells)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    return "\n".join(out + [line(r) for r in rows])
