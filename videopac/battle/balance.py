"""The computer opponent measured: headless battles in all nine weapon pairings (the
`videopac balance` command is videopac/balance.py; docs/conquest.md, *The balance, measured*).

Every battle is played from power-on through the keyboard and the joysticks alone, in worker
processes, and reported per pairing: who won, the length and the energy each side spent. The
tables: the standard computer against an idle side and against itself (the default),
one level against another (``levels``), whole wars by rule 12 (``wars``) and the end game's
confrontations by rule 21 (``endgame``), and the simple scripted players of
videopac/battle/scripted.py against the standard computer (``simple``).
"""
from __future__ import annotations

import hashlib
import multiprocessing
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from board_ledger.rules import decided_role
from board_ledger.state import War
from cartridge.images import builtin_image, builtin_symbols
from i18n import N_, _
from videopac.battle import computer, pilot
from videopac.battle.published import bcd, codes, symbol_value
from videopac.battle.scripted import SCRIPTS, Player, script

# o2em_core (numba) is imported where a battle is played, not here: `videopac balance --help` and
# a refused command line never need it.

Progress = Callable[[int, int, str], None]     # (battles done, of all, what is being played)

PAIRINGS = tuple(r + b for r in "PST" for b in "PST")
MATCHES = (("computer", "idle"), ("idle", "computer"), ("computer", "computer"))
MATCH_NAMES = ("computer-idle", "idle-computer", "computer-computer")   # also the JSON keys
N_("computer-idle"), N_("idle-computer"), N_("computer-computer")    # ... and shown translated
MAP_TRIES = 16                                    # frames a bench waits more for the map it wants
ENERGY = 1000                                     # play()'s default (the tests' battles)
WAR_ENERGY = 2500                                 # rule 11: each side types 2500 units
# the winners of battle_result's codes, which the symbol file publishes (never restated here)
RESULTS = {"red": "RES_RED_WON", "blue": "RES_BLUE_WON", "draw": "RES_BOTH"}
SIDES = ("red", "blue")
LEVEL = "standard"
LEVELS = tuple(pilot.LEVELS)
N_("easy"), N_("standard"), N_("hard")            # the levels, shown translated
# the match numbers in the battles' seeds: 0-2 the default table's MATCHES, then these
LEVELS_MATCH, WARS_MATCH, SIMPLE_MATCH = 3, 4, 5
ENDGAME_MATCH = SIMPLE_MATCH + len(SCRIPTS)
# how a war was decided (rule 12 A, G, C), the JSON keys, shown translated
DECIDED = {"two wins": N_("two wins"), "energy gone": N_("energy gone"),
           "more energy": N_("more energy"), "undecided": N_("undecided")}


@dataclass(frozen=True)
class Fought:
    """One battle: the winner (red, blue or draw), its length in seconds of console time, the
    energy each side had at ENTER and at the end, and a hash of the last frame."""
    winner: str
    seconds: float
    before: tuple[int, int]
    after: tuple[int, int]
    frame_hash: str = ""

    @property
    def spent(self) -> tuple[int, int]:
        return self.before[0] - self.after[0], self.before[1] - self.after[1]


@dataclass
class Tally:
    """The battles of one kind of match in one pairing, seen from its two parties: red and blue,
    or two levels, or the computer and a script (``add`` is told which side each played)."""
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    seconds: list[float] = field(default_factory=list)
    spent: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))

    def add(self, fought: Fought, first_side: int = 0) -> None:
        """Count ``fought``, in which the first party played side ``first_side`` (0 red, 1 blue)."""
        order = (first_side, 1 - first_side)
        if fought.winner == "draw":
            self.draws += 1
        else:
            self.wins[order.index(SIDES.index(fought.winner))] += 1
        self.seconds.append(fought.seconds)
        for party, side in enumerate(order):
            self.spent[party].append(fought.spent[side])

    @property
    def battles(self) -> int:
        return len(self.seconds)

    @property
    def mean(self) -> float:
        return sum(self.seconds) / len(self.seconds) if self.seconds else 0.0

    def share(self, party: int) -> float:
        """The share of the battles the party won (0 to 1)."""
        return self.wins[party] / self.battles if self.battles else 0.0

    def medians(self) -> tuple[float, float, float]:
        """(median seconds, median energy spent by the first party, by the second)."""
        return (median(self.seconds), median(self.spent[0]), median(self.spent[1]))

    def merged(self, other: Tally) -> Tally:
        return Tally([a + b for a, b in zip(self.wins, other.wins)], self.draws + other.draws,
                     self.seconds + other.seconds,
                     (self.spent[0] + other.spent[0], self.spent[1] + other.spent[1]))

    def as_dict(self, names: tuple[str, str] = SIDES) -> dict[str, int | float]:
        """The JSON of the tally, its parties called ``names`` (red_wins, blue_wins ...)."""
        seconds, first, second = self.medians()
        return {f"{names[0]}_wins": self.wins[0], f"{names[1]}_wins": self.wins[1],
                "draws": self.draws, "mean_seconds": round(self.mean, 1),
                "median_seconds": round(seconds, 1),
                f"median_spent_{names[0]}": first, f"median_spent_{names[1]}": second}


def median(values: Sequence[float]) -> float:
    """The median, 0 for none."""
    return float(statistics.median(values)) if values else 0.0


def battle_seed(seed: int, pairing: str, match: int, number: int) -> int:
    """The seed of one battle: different for every battle of a run, the same in every run."""
    return (seed * 1000003 + PAIRINGS.index(pairing) * 7919 + match * 104729 + number) & 0x7FFFFFFF


class BattleBench:
    """The open BIOS and the battle program, with the computer on the sides it plays."""

    def __init__(self, region: str = "pal") -> None:
        from o2em_core import Machine        # lazy: see the imports

        self.machine = Machine(builtin_image("bios"), builtin_image("conquest"), region=region)
        self.symbols = builtin_symbols("conquest")
        results, running = codes(self.symbols, RESULTS), symbol_value(self.symbols, "RES_RUNNING")
        if results is None or running is None:
            raise RuntimeError("the battle program publishes no RES_* codes")  # i18n: untranslated (a bug)
        self.results, self.running = results, running
        self.run(5)

    def run(self, frames: int, players: Sequence[Player] = ()) -> None:
        """``frames`` frames, the players moving their sticks before each."""
        for _frame in range(frames):
            for player in players:
                player.step(self.machine)
            self.machine.run_frame()

    def byte(self, name: str) -> int:
        return int(self.machine.iram[self.symbols[name]])

    def energies(self) -> tuple[int, int]:
        """Red's and blue's energy as the screen shows it (BCD, high byte first)."""
        iram, s = self.machine.iram, self.symbols
        red, blue = (bcd(int(iram[s[n]]), int(iram[s[n] + 1])) for n in ("energy_red", "energy_blue"))
        return red, blue

    def start(self, pairing: str, energy: int, wait: int = 0) -> None:
        """From SELECT GAME to a running battle: SPACE, both programs typed, ENTER (the keys
        of docs/conquest.md); ``wait`` frames at program entry vary the cartridge's random
        choices (its random register steps every frame there, and ENTER picks the map)."""
        from o2em_core.keyboard import tap        # lazy: see the imports

        tap(self.machine, "SPACE")
        self.run(3 + wait)
        for side, weapon in zip("RB", pairing):
            tap(self.machine, side, weapon, *str(energy))
        self.enter()

    def next_battle(self, pairing: str, wait: int = 0) -> None:
        """From a battle's result to the next battle of the war (rule 12E): SPACE, which keeps
        each side's remaining energy in its field, new weapons, ENTER."""
        from o2em_core.keyboard import tap        # lazy: see the imports

        tap(self.machine, "SPACE")
        self.run(3 + wait)
        for side, weapon in zip("RB", pairing):
            tap(self.machine, side, weapon)
        self.enter()

    def on_map(self, begin: Callable[[int], None], wait: int, want: int) -> None:
        """``begin(wait)`` (``start`` or ``next_battle``) so that ENTER picks map ``want`` (0 or
        1) of the pairing's two: a frame more at program entry until it does (at most
        MAP_TRIES). The wait alone is a poor coin: ENTER's random register took one coast map
        in 19 of 20 S–T battles of a run (docs/conquest.md, *The balance, measured*)."""
        before = self.machine.save_state()
        for extra in range(MAP_TRIES):
            if extra:
                self.machine.load_state(before)
            begin(wait + extra)
            if self.byte("mapid") & 1 == want:
                return

    def enter(self) -> None:
        from o2em_core.keyboard import tap        # lazy: see the imports

        self.typed = self.energies()
        tap(self.machine, "ENTER")
        self.run(3)
        if self.byte("phase") != self.symbols["PH_BATTLE"]:
            raise RuntimeError("the battle program did not start the battle")  # i18n: untranslated (a bug)

    def fight(self, players: Sequence[Player], limit: int) -> tuple[str, float]:
        """Run until the battle ends: (winner red/blue/draw, length in seconds)."""
        frames = 0
        while self.byte("battle_result") == self.running and frames < limit:
            self.run(1, players)
            frames += 1
        return self.results.get(self.byte("battle_result"), "draw"), frames / self.machine.fps

    def fought(self, players: Sequence[Player]) -> Fought:
        """The battle that ``enter`` started, fought to its end."""
        winner, seconds = self.fight(players, limit=int(max(self.typed) / 5 * self.machine.fps) + 1)
        return Fought(winner, seconds, self.typed, self.energies(),
                      hashlib.sha256(self.machine.frame.tobytes()).hexdigest())


def player(spec: str, side: int, symbols: dict[str, int], seed: int) -> Player:
    """The player of one side: a computer level (easy, standard, hard), ``computer`` (the
    standard one) or a script of SCRIPTS (``idle`` among them)."""
    if spec in SCRIPTS:
        return script(spec, side, symbols)
    return computer.Computer(side, LEVEL if spec == "computer" else spec, symbols, seed=seed)


def battle(pairing: str, sides: tuple[str, str], region: str, seed: int,
           energy: int = ENERGY) -> Fought:
    """One battle from power-on between the players ``sides`` (red's first)."""
    console = BattleBench(region)
    rng = random.Random(seed)
    wait, want = rng.randrange(60), rng.randrange(2)
    console.on_map(lambda w: console.start(pairing, energy, wait=w), wait, want)
    players = [player(spec, side, console.symbols, seed) for side, spec in enumerate(sides)]
    return console.fought(players)


def play(pairing: str, sides: tuple[str, str], region: str, seed: int,
         energy: int = ENERGY, level: str = LEVEL) -> tuple[str, float, str]:
    """One battle from power-on, ``computer`` playing at ``level``: (winner, seconds, SHA-256 of
    the last frame)."""
    red, blue = (level if s == "computer" else s for s in sides)
    fought = battle(pairing, (red, blue), region, seed, energy)
    return fought.winner, fought.seconds, fought.frame_hash


# ---- wars (rule 12) ---------------------------------------------------------------------------
@dataclass(frozen=True)
class WarRecord:
    """One war by rule 12: its battles, the winner (red, blue or '' undecided), how it was
    decided (a DECIDED key) and the energy each side had left."""
    battles: tuple[tuple[str, Fought], ...]       # (pairing, battle)
    winner: str
    decided: str
    left: tuple[int, int]

    @property
    def loser_left(self) -> int | None:
        return self.left[1 - SIDES.index(self.winner)] if self.winner else None


ROLES = ("attacker", "defender")                  # the ledger's names for red and blue
END_BATTLES = 100                                 # an end game stops here, whatever is left


class Campaign:
    """Battles one after the other on one console between two computers (red at ``levels[0]``),
    as a war or the end game has them: after each, SPACE leads back to program entry, which
    keeps the remaining energies (rule 12E), and both sides choose new weapons."""

    def __init__(self, levels: tuple[str, str], region: str, seed: int, energy: int) -> None:
        self.console = BattleBench(region)
        self.random = random.Random(seed)
        self.players = [player(level, side, self.console.symbols, seed)
                        for side, level in enumerate(levels)]
        self.energy = energy
        self.fought: list[tuple[str, Fought]] = []

    def choose(self, banned: tuple[Iterable[str], Iterable[str]]) -> str:
        """The pairing: each side a weapon at random, none of those ``banned`` for it."""
        return "".join(self.random.choice([w for w in "PST" if w not in out]) for out in banned)

    def battle(self, pairing: str) -> Fought:
        """The next battle, fought to its end."""
        wait, want = self.random.randrange(60), self.random.randrange(2)
        if self.fought:
            # the players look at the result screen, as at a console: a computer ends its
            # battle there and reads the next battle's map when it starts (bench.run skips
            # them while keys are typed)
            for seat in self.players:
                seat.step(self.console.machine)
            self.console.on_map(lambda w: self.console.next_battle(pairing, wait=w), wait, want)
        else:
            self.console.on_map(lambda w: self.console.start(pairing, self.energy, wait=w),
                                wait, want)
        one = self.console.fought(self.players)
        self.fought.append((pairing, one))
        return one


def lost(pairing: str, winner: str) -> tuple[set[str], set[str]]:
    """The weapons destroyed in a battle, red's and blue's: the loser's, both in a draw."""
    red, blue = ({weapon} if winner != side else set() for weapon, side in zip(pairing, SIDES))
    return red, blue


def war(levels: tuple[str, str], region: str, seed: int, energy: int = WAR_ENERGY) -> WarRecord:
    """A whole war between two computers (red at ``levels[0]``) as rule 12 has it: battles until
    one side has won two, or a side's energy is gone, or three battles are over (then the
    higher energy wins); each side picks at random among its weapons not destroyed in this war.
    The war is judged by the ledger's own rule (board_ledger.rules.decided_role)."""
    campaign = Campaign(levels, region, seed, energy)
    state = War(("red",), ("blue",), "", "balance", left={"attacker": energy, "defender": energy})
    while True:
        pairing = campaign.choose((state.destroyed["attacker"], state.destroyed["defender"]))
        one = campaign.battle(pairing)
        state.battles += 1
        for role, weapons, side in zip(ROLES, lost(pairing, one.winner), SIDES):  # rule 12 B, F
            state.destroyed[role] |= weapons
            state.wins[role] += one.winner == side
        state.left = dict(zip(ROLES, one.after))
        role = decided_role(state)
        if role or state.battles >= 3 or 0 in one.after:
            break
    winner = SIDES[ROLES.index(role)] if role else ""
    return WarRecord(tuple(campaign.fought), winner, how_decided(state, role), one.after)


@dataclass(frozen=True)
class EndRecord:
    """One confrontation of the end game (rule 21): its battles and the energy each side had
    left; the survivor is the side with energy when the other's is gone ('' if neither)."""
    battles: tuple[tuple[str, Fought], ...]
    left: tuple[int, int]

    @property
    def survivor(self) -> str:
        alive = [side for side, energy in zip(SIDES, self.left) if energy > 0]
        return alive[0] if len(alive) == 1 else ""


def endgame(levels: tuple[str, str], region: str, seed: int, energy: int) -> EndRecord:
    """A confrontation of the end game between two computers, ``energy`` each (PBR × 100): battles
    until one side's energy is gone (rule 21G), a weapon lost in a battle not used in the next
    one (both after a draw); at most END_BATTLES."""
    campaign = Campaign(levels, region, seed, energy)
    banned: tuple[set[str], set[str]] = (set(), set())
    left = (energy, energy)
    while 0 not in left and len(campaign.fought) < END_BATTLES:
        pairing = campaign.choose(banned)
        one = campaign.battle(pairing)
        banned, left = lost(pairing, one.winner), one.after
    return EndRecord(tuple(campaign.fought), left)


def how_decided(state: War, role: str) -> str:
    """Which of rule 12's ways decided the war (a DECIDED key)."""
    if not role:
        return "undecided"
    if 0 in state.left.values():
        return "energy gone"
    return "two wins" if max(state.wins.values()) >= 2 else "more energy"


# ---- running many, in worker processes ---------------------------------------------------------
Task = tuple[str, tuple[Any, ...]]         # ("battle", "war" or "endgame", its arguments)
Result = Fought | WarRecord | EndRecord


def perform(task: Task) -> Result:
    """Play one task (in a worker process)."""
    kind, args = task
    if kind == "battle":
        return battle(*args)
    return war(*args) if kind == "war" else endgame(*args)


def run_all(tasks: Sequence[Task], jobs: int, progress: Progress | None = None,
            labels: Sequence[str] = ()) -> list[Result]:
    """Every task played, ``jobs`` at a time in worker processes (1: in this one), the results
    in the tasks' order, so the tables do not depend on ``jobs``."""
    results: list[Result] = []

    def done(result: Result) -> None:
        results.append(result)
        if progress:
            progress(len(results), len(tasks), labels[len(results) - 1] if labels else "")

    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            done(perform(task))
        return results
    # fork: the workers start with this process's modules (the core is not loaded here yet)
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(min(jobs, len(tasks))) as pool:
        for result in pool.imap(perform, tasks):
            done(result)
    return results


# ---- the four tables ---------------------------------------------------------------------------
@dataclass
class Plan:
    """What one run plays: the tasks, a label for each (for the bar), and how to read each
    result into the tables."""
    tasks: list[Task] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    sinks: list[Callable[[Result], None]] = field(default_factory=list)

    def add(self, task: Task, label: str, sink: Callable[[Result], None]) -> None:
        self.tasks.append(task)
        self.labels.append(label)
        self.sinks.append(sink)

    def run(self, jobs: int, progress: Progress | None = None) -> None:
        for sink, result in zip(self.sinks, run_all(self.tasks, jobs, progress, self.labels)):
            sink(result)


def shown(pairing: str) -> str:
    return f"{pairing[0]}–{pairing[1]}"


def counting(tally: Tally, first_side: int = 0) -> Callable[[Result], None]:
    def sink(result: Result) -> None:
        assert isinstance(result, Fought)
        tally.add(result, first_side)
    return sink


def plan_matches(plan: Plan, battles: int, region: str, seed: int, energy: int,
                 pairings: Iterable[str]) -> dict[str, list[Tally]]:
    """The default table: for each pairing the standard computer against an idle side, the other
    way round, and against itself."""
    table = {p: [Tally() for _ in MATCHES] for p in pairings}
    for pairing, tallies in table.items():
        for m, sides in enumerate(MATCHES):
            for n in range(battles):
                task = ("battle", (pairing, sides, region, battle_seed(seed, pairing, m, n), energy))
                plan.add(task, shown(pairing), counting(tallies[m]))
    return table


def plan_levels(plan: Plan, levels: tuple[str, str], battles: int, region: str, seed: int,
                energy: int, pairings: Iterable[str]) -> dict[str, Tally]:
    """``levels[0]`` against ``levels[1]``: per pairing ``battles`` battles, the first level red
    in the even ones and blue in the odd ones; the tallies are the first level's view."""
    table = {p: Tally() for p in pairings}
    for pairing, tally in table.items():
        for n in range(battles):
            first_side = n % 2
            sides = levels if first_side == 0 else (levels[1], levels[0])
            task = ("battle", (pairing, sides, region, battle_seed(seed, pairing, LEVELS_MATCH, n), energy))
            plan.add(task, shown(pairing), counting(tally, first_side))
    return table


def plan_simple(plan: Plan, scripts: Sequence[str], battles: int, region: str, seed: int,
                energy: int, pairings: Iterable[str]) -> dict[str, dict[str, Tally]]:
    """Each scripted player against the standard computer: per pairing and script ``battles``
    battles, the computer red in the even ones; the tallies are the computer's view."""
    table = {p: {s: Tally() for s in scripts} for p in pairings}
    for pairing, row in table.items():
        for name in scripts:
            for n in range(battles):
                sides, number = simple_battle(pairing, name, seed, n)
                task = ("battle", (pairing, sides, region, number, energy))
                plan.add(task, f"{shown(pairing)} {name}", counting(row[name], n % 2))
    return table


def simple_battle(pairing: str, name: str, seed: int, n: int) -> tuple[tuple[str, str], int]:
    """The ``n``-th battle of script ``name`` against the standard computer in ``pairing`` of
    the run ``seed``: (red's and blue's player, the battle's seed); the computer is red in the
    even ones, blue in the odd ones."""
    sides = (LEVEL, name) if n % 2 == 0 else (name, LEVEL)
    return sides, battle_seed(seed, pairing, SIMPLE_MATCH + list(SCRIPTS).index(name), n)


def plan_series(plan: Plan, kind: str, levels: tuple[str, str], count: int, region: str,
                seed: int, energy: int) -> list[WarRecord | EndRecord]:
    """``count`` wars (``kind`` "war") or end-game confrontations ("endgame"), red at
    ``levels[0]`` and blue at ``levels[1]``."""
    records: list[WarRecord | EndRecord] = []

    def sink(result: Result) -> None:
        assert isinstance(result, (WarRecord, EndRecord))
        records.append(result)
    match, label = (WARS_MATCH, _("war")) if kind == "war" else (ENDGAME_MATCH, _("end game"))
    for n in range(count):
        plan.add((kind, (levels, region, battle_seed(seed, "PP", match, n), energy)), label, sink)
    return records


def series_summary(records: Sequence[WarRecord | EndRecord]) -> dict[str, object]:
    """What wars and confrontations have in common: how many battles each took, the length and
    energy spent of their battles (medians), and every battle."""
    battles = Tally()
    for record in records:
        for _pairing, fought in record.battles:
            battles.add(fought)
    seconds, red, blue = battles.medians()
    return {
        "median_battles": median([len(r.battles) for r in records]),
        "most_battles": max((len(r.battles) for r in records), default=0),
        "battle_median_seconds": round(seconds, 1),
        "battle_median_spent_red": red, "battle_median_spent_blue": blue,
        "records": [{"winner": r.winner if isinstance(r, WarRecord) else r.survivor,
                     **({"decided": r.decided} if isinstance(r, WarRecord) else {}),
                     "left": list(r.left),
                     "battles": [{"pairing": p, "winner": f.winner, "seconds": round(f.seconds, 2),
                                  "spent": list(f.spent)} for p, f in r.battles]}
                    for r in records],
    }


def wars_summary(records: Sequence[WarRecord]) -> dict[str, object]:
    """The wars in figures: wins, how they were decided, the loser's remaining energy, and what
    series_summary says of their battles."""
    left = [r.loser_left for r in records if r.loser_left is not None]
    return {
        "wars": len(records),
        "red_wins": sum(r.winner == "red" for r in records),
        "blue_wins": sum(r.winner == "blue" for r in records),
        "decided": {key: sum(r.decided == key for r in records) for key in DECIDED},
        "median_loser_left": median(left),
        "loser_left": sorted(left),
        **series_summary(records),
    }


def endgame_summary(records: Sequence[EndRecord]) -> dict[str, object]:
    """The confrontations in figures: who survived with how much, and how many battles it took."""
    left = [max(r.left) for r in records if r.survivor]
    return {
        "confrontations": len(records),
        "red_survived": sum(r.survivor == "red" for r in records),
        "blue_survived": sum(r.survivor == "blue" for r in records),
        "unfinished": sum(not r.survivor for r in records),
        "median_survivor_left": median(left),
        **series_summary(records),
    }


# ---- as text ----------------------------------------------------------------------------------
def bar(done: int, total: int, label: str, width: int = 30) -> str:
    """The progress bar line: ``width`` cells, ``done`` of ``total`` filled, and ``label``."""
    filled = width * done // total
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label}"


def markdown(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An aligned Markdown table."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|",
                      *(line(r) for r in rows)])


def text_table(table: dict[str, list[Tally]], battles: int) -> str:
    """The default table as aligned text (Markdown), one row per pairing: wins and mean length of
    each kind of match, then the medians of the battles between two computers."""
    head = [_("pairing")] + [_("{match} (red/blue/draw, s)").format(match=_(name))
                             for name in MATCH_NAMES] + [
        _("computer-computer: median s"), _("spent red"), _("spent blue")]
    rows = []
    for pairing, tallies in table.items():
        cells = [f"{t.wins[0]}/{t.wins[1]}/{t.draws}, {t.mean:.1f}" for t in tallies]
        seconds, red, blue = tallies[-1].medians()
        rows.append([shown(pairing), *cells, f"{seconds:.1f}", f"{red:.0f}", f"{blue:.0f}"])
    return markdown(head, rows)


def percent(share: float) -> str:
    return f"{100 * share:.0f} %"


def levels_table(table: dict[str, Tally], levels: tuple[str, str]) -> str:
    """One level against another: per pairing and over all, each level's wins and share, the
    draws, and the medians of length and energy spent by each level."""
    a, b = (_(level) for level in levels)
    if a == b:                           # hard against hard: the first and the second
        a, b = f"{a} A", f"{b} B"
    head = [_("pairing"), _("{level} wins").format(level=a), _("{level} wins").format(level=b),
            _("draws"), _("{level} share").format(level=a), _("{level} share").format(level=b),
            _("median s"), _("spent {level}").format(level=a), _("spent {level}").format(level=b)]
    rows = []
    for label, t in [*((shown(p), t) for p, t in table.items()), (_("all"), total(table.values()))]:
        seconds, first, second = t.medians()
        rows.append([label, str(t.wins[0]), str(t.wins[1]), str(t.draws), percent(t.share(0)),
                     percent(t.share(1)), f"{seconds:.1f}", f"{first:.0f}", f"{second:.0f}"])
    return markdown(head, rows)


def total(tallies: Iterable[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out = out.merged(t)
    return out


def simple_table(table: dict[str, dict[str, Tally]], scripts: Sequence[str]) -> str:
    """The simple-player check: per pairing the standard computer's share of wins against each
    script, and over all pairings."""
    head = [_("pairing")] + list(scripts) + [_("all")]
    rows = []
    by_script = {s: total(row[s] for row in table.values()) for s in scripts}
    for label, row in [*((shown(p), r) for p, r in table.items()), (_("all"), by_script)]:
        rows.append([label] + [percent(row[s].share(0)) for s in scripts]
                    + [percent(total(row.values()).share(0))])
    legend = [f"- {name}: {_(SCRIPTS[name])}" for name in scripts]
    return "\n".join([markdown(head, rows), "", *legend])


def series_rows(summary: dict[str, object]) -> list[list[str]]:
    """The rows wars and confrontations share: battles each, their length and energy spent."""
    return [[_("battles each, median (most)"),
             f"{summary['median_battles']:.1f} ({summary['most_battles']})"],
            [_("battle length, median s"), f"{summary['battle_median_seconds']:.1f}"],
            [_("energy spent per battle, median red / blue"),
             f"{summary['battle_median_spent_red']:.0f} / {summary['battle_median_spent_blue']:.0f}"]]


def wars_table(summary: dict[str, object]) -> str:
    """The wars in one table of figures."""
    decided = summary["decided"]
    left = summary["loser_left"]
    assert isinstance(decided, dict) and isinstance(left, list)
    rows = [[_("wars"), str(summary["wars"])],
            [_("red won / blue won"), f"{summary['red_wins']} / {summary['blue_wins']}"],
            *([_(DECIDED[key]), str(count)] for key, count in decided.items()),
            [_("loser's remaining energy, median"), f"{summary['median_loser_left']:.0f}"],
            [_("loser's remaining energy, each war"), " ".join(map(str, left))],
            *series_rows(summary)]
    return markdown([_("wars by rule 12"), ""], rows)


def endgame_table(summary: dict[str, object]) -> str:
    """The end game's confrontations in one table of figures."""
    rows = [[_("confrontations"), str(summary["confrontations"])],
            [_("red survived / blue survived"),
             f"{summary['red_survived']} / {summary['blue_survived']}"],
            [_("unfinished after {most} battles").format(most=END_BATTLES), str(summary["unfinished"])],
            [_("survivor's remaining energy, median"), f"{summary['median_survivor_left']:.0f}"],
            *series_rows(summary)]
    return markdown([_("end game by rule 21"), ""], rows)
