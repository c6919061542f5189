"""`videopac balance`: the computer opponent's battles in all nine weapon pairings, as a
table or JSON (docs/conquest.md shows the table); the battles themselves are played by
videopac/battle/balance.py."""
from __future__ import annotations

import argparse
import json
import sys

from i18n import _
from videopac import UsageError, fail
from videopac.battle.balance import ENERGY, LEVEL, MATCH_NAMES, PAIRINGS, bar, measure, text_table

PROG = "videopac balance"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `videopac balance`."""
    parser.add_argument("--battles", type=int, default=10, metavar="N",
                        help=_("battles of each kind in each pairing (default 10)"))
    parser.add_argument("--region", choices=("pal", "ntsc"), default="pal",
                        help=_("pal = Videopac G7000 (default), ntsc = Odyssey²"))
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=_("seed of the run (the same seed gives the same table)"))
    parser.add_argument("--json", action="store_true", help=_("write the table as JSON"))
    parser.add_argument("--pairings", metavar="PS,TT", default=",".join(PAIRINGS),
                        help=_("only these pairings, red's weapon first (default: all nine)"))


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


def main(args: argparse.Namespace) -> int:
    """Play the battles, print the table; 2 with one sentence for a bad option."""
    try:
        if args.battles < 1 or args.battles > 10000:
            raise UsageError(_("--battles must be a whole number from 1 to 10000"))
        pairings = parse_pairings(args.pairings)
    except UsageError as exc:
        return fail(PROG, f"{exc}.")

    def progress(done: int, total: int, pairing: str) -> None:
        print(bar(done, total, f"{pairing[0]}–{pairing[1]}"), end="", file=sys.stderr, flush=True)
        if done == total:
            print(file=sys.stderr)

    table = measure(args.battles, args.region, args.seed, progress, pairings)
    if args.json:
        document = {"battles": args.battles, "region": args.region, "seed": args.seed,
                    "energy": ENERGY, "level": LEVEL,
                    "pairings": {p: dict(zip(MATCH_NAMES, (t.as_dict() for t in ts)))
                                 for p, ts in table.items()}}
        print(json.dumps(document, indent=1, ensure_ascii=False))
    else:
        print(_("{command}  (energy {energy} each, standard computer)").format(
            command=f"videopac balance --battles {args.battles} --region {args.region} "
                    f"--seed {args.seed}", energy=ENERGY))
        print(text_table(table, args.battles))
    return 0
