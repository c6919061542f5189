"""`videopac generals`: whole games between computer generals, headless, battles included.

Every seat is a computer general (board_ledger/general.py); every battle is fought by the battle
program itself, headless, with the computer battle opponent on both sides at the generals'
levels (videopac/battle/headless.py): the generals type weapon and energy at program entry, the
cartridge decides, the result is booked as the bridge would propose it. Games run on worker
processes; the table gives winner shares by seat and by level, game length in turns and how each
game ended, and every game is replayed from its notation to the same state (docs/generals.md).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from typing import Any

from board_ledger import general, notation
from board_ledger.computer_game import GameRun, play_game
from board_ledger.errors import LedgerError, StoreError
from board_ledger.store import Store
from i18n import N_, _
from videopac import UsageError
from videopac.battle import headless
from videopac.battle.balance import bar

PROG = "videopac generals"
ENDINGS = {"rule 22": N_("end game (rule 22)"), "rule 19": N_("last player left (rule 19)"),
           "variant 2": N_("target reached (variant 2)"), "cut off": N_("cut off")}


# --- many games -----------------------------------------------------------------------------------
def seats_of(levels: Sequence[str], game: int) -> list[str]:
    """The seats of game number ``game``: the levels turned one seat further each game, so that
    no level keeps the seat that starts."""
    k = game % len(levels)
    return list(levels[k:]) + list(levels[:k])


def _one(job: tuple[int, list[str]]) -> GameRun:
    seed, seats = job
    return play_game(seed, seats, headless.fight)


def run(games: int, levels: Sequence[str], seed: int, workers: int,
        progress: Callable[[GameRun, int, int], None] | None = None,
        play: Callable[[tuple[int, list[str]]], GameRun] = _one) -> list[GameRun]:
    """Play ``games`` games on ``workers`` processes; ``progress`` hears of each game as it ends;
    the runs in game order."""
    jobs = [(seed * 1000 + g, seats_of(levels, g)) for g in range(games)]
    done: list[GameRun] = []
    with contextlib.ExitStack() as stack:
        if workers <= 1:
            results: Iterable[GameRun] = map(play, jobs)
        else:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(workers))
            results = pool.imap_unordered(play, jobs)
        for result in results:
            done.append(result)
            if progress:
                progress(result, len(done), games)
    return sorted(done, key=lambda r: r.seed)


def keep(store: Store, game: GameRun) -> int:
    """Store a finished game in the game file as a new game (`videopac ledger export --game N`
    shows it); its number."""
    events = [e for e in (notation.parse_line(line) for line in game.text.splitlines()) if e is not None]
    return store.add_game(events)


def summary(runs: list[GameRun], levels: Sequence[str]) -> dict[str, Any]:
    """The strength table as data: winner shares by seat and by level, lengths, endings."""
    n = len(runs)
    by_seat = Counter(r.winner for r in runs if r.winner is not None)
    by_level = Counter(r.seats[r.winner] for r in runs if r.winner is not None)
    turns = sorted(r.turns for r in runs)
    return {
        "games": n,
        "levels": list(levels),
        "wins_by_seat": {str(i + 1): by_seat.get(i, 0) for i in range(len(levels))},
        "wins_by_level": {lv: by_level.get(lv, 0) for lv in dict.fromkeys(levels)},
        "seats_by_level": dict(Counter(levels)),
        "draws": sum(1 for r in runs if r.winner is None),
        "turns": {"min": turns[0], "median": turns[n // 2], "max": turns[-1]} if runs else {},
        "battles_per_game": round(sum(r.battles for r in runs) / n, 1) if n else 0,
        "endings": dict(Counter(r.ending for r in runs)),
        "replayed": sum(r.replayed for r in runs),
        "cpu_seconds_per_game": round(sum(r.cpu_seconds for r in runs) / n, 1) if n else 0,
        "slowest_decision": round(max((r.slowest_decision for r in runs), default=0.0), 3),
    }


def command_line(games: int, players: int, levels: Sequence[str], seed: int) -> str:
    """The command that makes a table, printed above it (a command line, the same in every language)."""
    return " ".join([PROG, "--games", str(games), "--players", str(players), "--levels", ",".join(levels),
                     "--seed", str(seed)])


def text_table(table: dict[str, Any]) -> str:
    """The summary as the text docs/generals.md shows."""
    n = table["games"] or 1
    out = [_("{games} games, seats {levels} (turned one seat further each game)").format(
        games=table["games"], levels=", ".join(table["levels"]))]
    out.append("| " + _("level") + " | " + _("seats") + " | " + _("wins") + " | " + _("share") + " |")
    out.append("|---|---|---|---|")
    for level, wins in table["wins_by_level"].items():
        seats = table["seats_by_level"][level]
        out.append(f"| {level} | {seats} | {wins} | {100 * wins / n:.0f} % |")
    out.append("")
    out.append("| " + _("seat") + " | " + _("wins") + " | " + _("share") + " |")
    out.append("|---|---|---|")
    for seat, wins in table["wins_by_seat"].items():
        out.append(f"| {seat} | {wins} | {100 * wins / n:.0f} % |")
    out.append("")
    t = table["turns"]
    out.append(_("turns per game: {min} to {max}, median {median}; battles per game: {battles}").format(
        battles=table["battles_per_game"], **t))
    out.append(_("how the games ended: {endings}").format(endings=", ".join(
        f"{_(ENDINGS.get(k, k))} {v}" for k, v in sorted(table["endings"].items()))))
    out.append(_("replayed to the same state: {replayed} of {games}; CPU per game {cpu} s, slowest "
                 "decision {slowest} s").format(replayed=table["replayed"], games=table["games"],
                                                cpu=table["cpu_seconds_per_game"],
                                                slowest=table["slowest_decision"]))
    return "\n".join(out)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `videopac generals`."""
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help=_("how many games (default 20)"))
    parser.add_argument("--players", type=int, default=4, metavar="N",
                        help=_("players per game, 2 to 6 (default 4)"))
    parser.add_argument("--levels", metavar="L,L,...", default="",
                        help=_("the seats' levels (easy, standard, hard, random); default: one "
                               "hard general against easy ones"))
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=_("seed of the run (the same seed plays the same games)"))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help=_("worker processes (default: one per core)"))
    parser.add_argument("--json", action="store_true", help=_("write the table as JSON"))
    parser.add_argument("--db", metavar=_("FILE"), help=_("also keep every game in this ledger file, "
                        "one game each as it ends (videopac ledger export --db FILE --game N)"))


def parse_levels(text: str, players: int) -> list[str]:
    """``hard,easy`` -> one level per seat (the last one repeated); UsageError names a bad one."""
    if not 2 <= players <= 6:
        raise UsageError(_("--players must be a whole number from 2 to 6"))
    chosen = [t.strip().lower() for t in text.split(",") if t.strip()] or ["hard", "easy"]
    for level in chosen:
        if level not in general.LEVELS:
            raise UsageError(_("--levels: '{level}' is not a level; use easy, standard, hard or "
                               "random").format(level=level))
    if len(chosen) > players:
        raise UsageError(_("--levels names more seats than --players"))
    return chosen + [chosen[-1]] * (players - len(chosen))


def main(args: argparse.Namespace) -> int:
    """Play the games, print the table; 2 with one sentence for a bad option."""
    try:
        if not 1 <= args.games <= 100000:
            raise UsageError(_("--games must be a whole number from 1 to 100000"))
        if not 1 <= args.workers <= 64:
            raise UsageError(_("--workers must be a whole number from 1 to 64"))
        levels = parse_levels(args.levels, args.players)
    except UsageError as exc:
        print(f"{PROG}: {exc}.", file=sys.stderr)
        return 2

    try:
        store = Store(args.db) if args.db else None
    except LedgerError as exc:
        print(f"{PROG}: {str(exc).rstrip('.')}.", file=sys.stderr)
        return exc.code if isinstance(exc, StoreError) else 2

    def progress(game: GameRun, done: int, total: int) -> None:
        if store is not None:
            keep(store, game)
        print(bar(done, total, _("games")), end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    try:
        runs = run(args.games, levels, args.seed, min(args.workers, args.games), progress)
    except LedgerError as exc:
        print(f"\n{PROG}: {str(exc).rstrip('.')}.", file=sys.stderr)
        return 1
    finally:
        if store is not None:
            store.close()
    table = summary(runs, levels)
    if args.json:
        table["runs"] = [{k: v for k, v in asdict(r).items() if k != "text"} for r in runs]
        print(json.dumps(table, indent=1, ensure_ascii=False))
    else:
        print(command_line(args.games, args.players, levels, args.seed))
        print(text_table(table))
    return 0 if table["replayed"] == len(runs) else 1
