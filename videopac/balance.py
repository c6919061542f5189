"""`videopac balance`: the computer opponent's battles in all nine weapon pairings, as tables or
JSON (docs/conquest.md, *The balance, measured*, shows them with their commands); the battles
themselves are played by videopac/battle/balance.py, in worker processes."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from i18n import _, ngettext
from videopac import UsageError, fail
from videopac.battle.balance import (
    LEVEL, LEVELS, MATCH_NAMES, PAIRINGS, WAR_ENERGY, EndRecord, Plan, WarRecord, bar,
    endgame_summary, endgame_table, levels_table, plan_levels, plan_matches, plan_series,
    plan_simple, simple_table, text_table, total, wars_summary, wars_table)
from videopac.battle.scripted import SCRIPTS

PROG = "videopac balance"
MAX_JOBS = 64


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `videopac balance`."""
    parser.add_argument("--battles", type=int, default=10, metavar="N",
                        help=_("battles of each kind in each pairing, or wars with --wars "
                               "(default 10)"))
    parser.add_argument("--region", choices=("pal", "ntsc"), default="pal",
                        help=_("pal = Videopac G7000 (default), ntsc = Odyssey²"))
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=_("seed of the run (the same seed gives the same table)"))
    parser.add_argument("--json", action="store_true", help=_("write the table as JSON"))
    parser.add_argument("--pairings", metavar="PS,TT", default=",".join(PAIRINGS),
                        help=_("only these pairings, red's weapon first (default: all nine)"))
    parser.add_argument("--energy", type=int, default=WAR_ENERGY, metavar="E",
                        help=_("energy each side types at program entry (default 2500, rule 11)"))
    parser.add_argument("--levels", metavar="A,B",
                        help=_("level against level (easy, standard, hard), e.g. hard,standard: "
                               "the share of battles each wins, per pairing and over all"))
    parser.add_argument("--wars", action="store_true",
                        help=_("whole wars by rule 12 between two computers (the levels of "
                               "--levels, else standard): the loser's remaining energy"))
    parser.add_argument("--endgame", action="store_true",
                        help=_("confrontations of the end game by rule 21 between two computers "
                               "(the levels of --levels, else standard), battles until a side's "
                               "energy is gone: how many battles it takes (use --energy 5500 for "
                               "PBR 55)"))
    parser.add_argument("--simple", nargs="?", const=",".join(SCRIPTS), metavar="NAMES",
                        help=_("the simple scripted players ({names}) against the standard "
                               "computer: the computer's share of wins").format(
                                   names=", ".join(SCRIPTS)))
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), metavar="J",
                        help=_("worker processes (default: 2, or 1 on one core)"))


def parse_pairings(text: str) -> tuple[str, ...]:
    """``PS,TT`` -> ("PS", "TT"); UsageError names a pairing that is not one of the nine."""
    chosen = tuple(p.strip().upper() for p in text.split(",") if p.strip())
    for pairing in chosen:
        if pairing not in PAIRINGS:
            raise UsageError(_("--pairings: '{pairing}' is not a pairing; give two of P, S, T "
                               "(red's weapon first), separated by commas, e.g. PS,TT")
                             .format(pairing=pairing))
    if not chosen:
        raise UsageError(_("--pairings names no pairing; give e.g. PS,TT"))
    return tuple(dict.fromkeys(chosen))


def parse_levels(text: str | None) -> tuple[str, str] | None:
    """``hard,standard`` -> ("hard", "standard"); UsageError unless two known levels."""
    if text is None:
        return None
    chosen = [p.strip().lower() for p in text.split(",")]
    if len(chosen) != 2 or any(level not in LEVELS for level in chosen):
        raise UsageError(_("--levels '{value}': give two levels of easy, standard and hard, "
                           "separated by a comma, e.g. hard,standard").format(value=text))
    return chosen[0], chosen[1]


def parse_scripts(text: str | None) -> tuple[str, ...]:
    """``fire,hide`` -> ("fire", "hide"); UsageError names one that is not a script."""
    if text is None:
        return ()
    chosen = tuple(dict.fromkeys(p.strip().lower() for p in text.split(",") if p.strip()))
    for name in chosen:
        if name not in SCRIPTS:
            raise UsageError(_("--simple: '{name}' is not a simple player; choose from {names}")
                             .format(name=name, names=", ".join(SCRIPTS)))
    if not chosen:
        raise UsageError(_("--simple names no player; choose from {names}").format(
            names=", ".join(SCRIPTS)))
    return chosen


def check_ranges(args: argparse.Namespace) -> None:
    """UsageError for a count outside what the command plays."""
    if not 1 <= args.battles <= 10000:
        raise UsageError(_("--battles must be a whole number from 1 to 10000"))
    if not 1 <= args.energy <= 9999:
        raise UsageError(_("--energy must be a whole number from 1 to 9999 (the entry's four "
                           "digits)"))
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(_("--jobs must be a whole number from 1 to {most}").format(most=MAX_JOBS))


def command_line(args: argparse.Namespace, pairings: tuple[str, ...]) -> str:
    """The command that makes the same tables (--jobs changes none of them)."""
    words = [PROG, "--battles", str(args.battles), "--region", args.region, "--seed",
             str(args.seed), "--energy", str(args.energy)]
    if pairings != PAIRINGS:
        words += ["--pairings", ",".join(pairings)]
    if args.levels:
        words += ["--levels", args.levels]
    if args.wars:
        words.append("--wars")
    if args.endgame:
        words.append("--endgame")
    if args.simple:
        words += ["--simple", args.simple]
    return " ".join(words)


def main(args: argparse.Namespace) -> int:
    """Play the battles, print the tables; 2 with one sentence for a bad option."""
    try:
        check_ranges(args)
        pairings = parse_pairings(args.pairings)
        levels = parse_levels(args.levels)
        scripts = parse_scripts(args.simple)
    except UsageError as exc:
        return fail(PROG, f"{exc}.")

    def progress(done: int, total: int, label: str) -> None:
        print(bar(done, total, label), end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    common = (args.region, args.seed, args.energy)
    plan = Plan()
    default = not (levels or args.wars or args.endgame or scripts)
    fighters = levels or (LEVEL, LEVEL)
    matches = plan_matches(plan, args.battles, *common, pairings) if default else None
    against = plan_levels(plan, levels, args.battles, *common, pairings) if levels else None
    simple = plan_simple(plan, scripts, args.battles, *common, pairings) if scripts else None
    wars = plan_series(plan, "war", fighters, args.battles, *common) if args.wars else None
    ends = plan_series(plan, "endgame", fighters, args.battles, *common) if args.endgame else None
    plan.run(args.jobs, progress)

    document: dict[str, Any] = {"battles": args.battles, "region": args.region, "seed": args.seed,
                                "energy": args.energy, "level": LEVEL,
                                "command": command_line(args, pairings)}
    if matches is not None:
        document["pairings"] = {p: dict(zip(MATCH_NAMES, (t.as_dict() for t in ts)))
                                for p, ts in matches.items()}
    if against is not None and levels:
        names = ("first", "second")
        document["levels"] = {"levels": list(levels),
                              "pairings": {p: t.as_dict(names) for p, t in against.items()},
                              "all": total(against.values()).as_dict(names)}
    if simple is not None:
        names = ("computer", "script")
        document["simple"] = {
            "scripts": list(scripts),
            "pairings": {p: {s: t.as_dict(names) for s, t in row.items()} for p, row in simple.items()},
            "all": {s: total(row[s] for row in simple.values()).as_dict(names) for s in scripts}}
    summary = wars_summary([r for r in wars if isinstance(r, WarRecord)]) if wars is not None else None
    if summary is not None:
        document["wars"] = {"levels": list(fighters), **summary}
    end = endgame_summary([r for r in ends if isinstance(r, EndRecord)]) if ends is not None else None
    if end is not None:
        document["endgame"] = {"levels": list(fighters), **end}
    if args.json:
        print(json.dumps(document, indent=1, ensure_ascii=False))
        return 0
    if matches is not None:
        print(_("{command}  (energy {energy} each, standard computer)").format(
            command=document["command"], energy=args.energy))
        print(text_table(matches, args.battles))
        return 0
    print(document["command"])
    if against is not None and levels:
        print("\n" + ngettext("{a} against {b}, {n} battle a pairing",
                               "{a} against {b}, {n} battles a pairing (each level red in half "
                               "of them)", args.battles)
              .format(a=_(levels[0]), b=_(levels[1]), n=args.battles))
        print(levels_table(against, levels))
    if simple is not None:
        print("\n" + ngettext("the standard computer's share of wins against each simple "
                               "player, {n} battle a pairing each",
                               "the standard computer's share of wins against each simple "
                               "player, {n} battles a pairing each", args.battles)
              .format(n=args.battles))
        print(simple_table(simple, scripts))
    if summary is not None:
        print("\n" + ngettext("{n} war, red {a} against blue {b}, {energy} units each",
                               "{n} wars, red {a} against blue {b}, {energy} units each",
                               args.battles).format(n=args.battles, a=_(fighters[0]),
                                                    b=_(fighters[1]), energy=args.energy))
        print(wars_table(summary))
    if end is not None:
        print("\n" + ngettext("{n} confrontation of the end game, red {a} against blue {b}, "
                               "{energy} units each",
                               "{n} confrontations of the end game, red {a} against blue {b}, "
                               "{energy} units each", args.battles)
              .format(n=args.battles, a=_(fighters[0]), b=_(fighters[1]), energy=args.energy))
        print(endgame_table(end))
    return 0
