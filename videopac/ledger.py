"""`videopac ledger`: keep the books of a Conquest of the World board game.

Without a subcommand it starts the interactive ledger (videopac/books/terminal.py); the subcommands
replay a notation file, show, export or chart a stored game. Options before the subcommand belong
to the interactive ledger (``--db``, and ``--window`` for the ledger in a window).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
from typing import Any

from i18n import _, os_reason
from safefiles import STDOUT

from board_ledger import effects, notation, report
from board_ledger.chart import pbr_svg
from board_ledger.errors import LedgerError, StoreError
from board_ledger.game import Game
from board_ledger.seats import PAUSE
from board_ledger.store import Store
from videopac import BAD_INPUT, TROUBLE, fail
from videopac.console.paths import write_atomically

PROG = "videopac ledger"
DEFAULT_WEB_DB = "ledger.sqlite"   # --serve without --db: a file in the current folder, named when it starts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar=_("FILE"), help=_("game file of the interactive ledger "
                        "(created if missing; the latest game in it is resumed)"))
    parser.add_argument("--boards", metavar=_("DIR"), help=_("folder of the board files a 'board' "
                        "line names (default: the working folder)"))
    parser.add_argument("--window", action="store_true", help=_("the ledger in a window: a large "
                        "board, click a country for its legal actions (no emulator)"))
    parser.add_argument("--serve", action="store_true", help=_("serve the game as a web page for the "
                        "phones at the table (docs/web.md)"))
    parser.add_argument("--host", default="127.0.0.1", metavar="ADDR", help=_("with --serve: the "
                        "address to listen on (default 127.0.0.1, this computer only; 0.0.0.0 lets "
                        "phones join)"))
    parser.add_argument("--port", type=int, default=8048, metavar="N", help=_("with --serve: the port "
                        "(default 8048; 0 picks a free one)"))
    parser.add_argument("--anyone", action="store_true", help=_("with --serve: anyone with the join "
                        "code may book any move (default: the player whose move it is and the "
                        "war-chest keeper)"))
    parser.add_argument("--code", metavar="CODE", help=_("with --serve: the table's join code "
                        "(default: six random digits, printed)"))
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help=_("with --serve: also answer phones that open the server by this name, "
                               "such as mypc.local (it answers at the address it shows and at "
                               "localhost; may be given more than once)"))
    parser.add_argument("--pause", type=float, default=PAUSE, metavar=_("SECONDS"),
                        help=_("how long a computer general waits before its move shows, so that "
                               "the table can follow it (default {pause}; docs/generals.md)").format(
                                   pause=PAUSE))
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    p = sub.add_parser("replay", help=_("apply a notation file and print the state"))
    p.add_argument("file", help=_("notation file, one action per line"))
    p.add_argument("--json", action="store_true", help=_("print the status JSON"))
    p.add_argument("--effects", action="store_true", help=_("with --json: add each accepted line "
                                                           "and what it did (docs/ledger.md, Effects)"))
    p.add_argument("--db", default=argparse.SUPPRESS, metavar=_("FILE"),
                   help=_("also store the replayed game as a new game in FILE (only if it all replays)"))
    p.add_argument("--boards", metavar=_("DIR"), default=argparse.SUPPRESS,
                   help=_("folder of the board files the notation names (default: the notation file's)"))
    for name, help_ in (("status", _("print the state of a stored game")),
                        ("export", _("write the notation of a stored game")),
                        ("chart", _("draw every player's PBR over a stored game as SVG"))):
        p = sub.add_parser(name, help=help_)
        p.add_argument("--db", required=True, metavar=_("FILE"), help=_("the game file"))
        p.add_argument("--game", type=int, metavar="N", help=_("game number in the file (default: latest)"))
        if name == "status":
            p.add_argument("--json", action="store_true", help=_("print the status JSON"))
        else:
            p.add_argument("-o", "--output", metavar=_("FILE"), required=name == "chart",
                           help=_("output file, - for standard output (the default)")
                           if name == "export" else _("output file, - for standard output"))


def _one_line(text: str) -> str:
    """``text`` with every unprintable character escaped: a name from a file that holds a line
    break or an escape sequence keeps the sentence on one line and cannot steer the terminal."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def _fail(message: str, code: int = BAD_INPUT) -> int:
    """``message`` as one sentence on one line after the command's name; the exit status."""
    return fail(PROG, f"{_one_line(message).rstrip('.')}.", code)


def _print_state(game: Game, as_json: bool, lines: list[dict[str, Any]] | None = None) -> None:
    if as_json:
        data = report.status(game.state)
        if lines is not None:
            data["lines"] = lines
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(report.players_text(game.state))
        print(report.now_text(game.state))


MAX_NOTATION_BYTES = 16 * 1024 * 1024     # a long game is some ten thousand lines, under 1 MiB


def replay(args: argparse.Namespace) -> int:
    if args.effects and not args.json:
        return _fail(_("--effects adds to the JSON output: give --json too"))
    path = pathlib.Path(args.file)
    text = notation.read_bounded(path, MAX_NOTATION_BYTES,
                                 _("a game in the ledger notation (UTF-8 text)"))
    boards = pathlib.Path(args.boards) if args.boards else path.parent
    said: list[dict[str, Any]] | None = [] if args.effects else None
    game = Game()
    for lineno, line in enumerate(text.splitlines(), start=1):
        try:
            event = notation.parse_line(line)
            if event is not None:
                accepted, done = effects.play(game, notation.attach_board(event, boards))
                if said is not None:
                    said.append({"line": lineno, "action": notation.format_event(accepted), "effects": done})
        except LedgerError as exc:
            print(_one_line(f"{path}:{lineno}: {exc}"), file=sys.stderr)
            return BAD_INPUT
    if getattr(args, "db", None):        # only a game that replayed to the end is stored
        store = Store(args.db)
        try:
            store.add_game(game.events)
        finally:
            store.close()
    _print_state(game, args.json, said)
    return 0


def _stored(args: argparse.Namespace) -> Game:
    store = Store(args.db, create=False, write=False)
    try:
        return store.load(args.game, create=False)[1]
    finally:
        store.close()


def status(args: argparse.Namespace) -> int:
    _print_state(_stored(args), args.json)
    return 0


def _write(text: str, output: str | None) -> None:
    if output and output != "-":
        write_atomically(output, text.encode("utf-8"), parents=False)   # errors name `output`
    else:
        sys.stdout.write(text)


def export(args: argparse.Namespace) -> int:
    game = _stored(args)
    lines = ["# " + _("videopac ledger export of {db}").format(db=args.db)]
    for event in game.events:
        lines.append(notation.format_event(event))
    _write("\n".join(lines) + "\n", args.output)
    return 0


def chart(args: argparse.Namespace) -> int:
    game = _stored(args)
    _write(pbr_svg(game.states), args.output)
    return 0


def main(args: argparse.Namespace) -> int:
    command = getattr(args, "command", None)
    if not 0 <= args.pause <= 60:
        return _fail(_("--pause takes 0 to 60 seconds"), 2)
    try:
        if command is None and args.serve:
            if args.window:
                return _fail(_("--serve and --window are two ways to show the ledger; choose one"))
            if not 0 <= args.port <= 65535:
                return _fail(_("--port {port} is not a port number (0 to 65535)").format(port=args.port))
            if args.code is not None and not (args.code.isascii() and args.code.isalnum()
                                               and 4 <= len(args.code) <= 32):
                return _fail(_("--code takes 4 to 32 letters or digits, easy to type on a phone"))
            # each way of keeping the ledger imports its own front end where it is chosen:
            # starlette and uvicorn, pyglet, readline cost start-up the others need not pay
            from videopac.books.web import CannotListen, serve, usable_host
            if not usable_host(args.host):
                return _fail(_("--host {host} is not an address to listen on; give one such as "
                               "127.0.0.1 (this computer) or 0.0.0.0 (every interface)").format(
                                   host=repr(args.host) if not args.host.strip() else args.host))
            for name in args.allow_host:
                if not usable_host(name):
                    return _fail(_("--allow-host {name} is not a host name or address; give a name such "
                                   "as mypc.local or an address such as 192.168.1.20, without http:// "
                                   "or a port").format(name=name))
            try:
                return serve(args.db or DEFAULT_WEB_DB, args.host, args.port, args.anyone,
                             args.code, args.allow_host, args.pause)
            except CannotListen as exc:
                return _fail(str(exc), TROUBLE)
        if command is None and args.window:
            from videopac.console.display import display_found
            if not display_found():
                return _fail(_("no display was found; use the terminal ledger: videopac ledger --db FILE"))
            from videopac.table.ledger_window import run_window
            return run_window(args.db, args.boards, args.pause)
        if command is None:
            from videopac.books.terminal import run_repl
            return run_repl(args.db, args.boards, args.pause)
        return {"replay": replay, "status": status, "export": export, "chart": chart}[command](args)
    except LedgerError as exc:
        return _fail(str(exc), exc.code if isinstance(exc, StoreError) else BAD_INPUT)
    except BrokenPipeError:  # the reader of the output left (| head): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return TROUBLE
    except OSError as exc:  # the output, the export or the chart file could not be written
        if exc.filename == STDOUT:
            return _fail(_("cannot write the standard output: {reason}").format(
                reason=os_reason(exc)), TROUBLE)
        return _fail(_("cannot write {path}: {reason}; choose another file or free some space").format(
            path=exc.filename or "-", reason=os_reason(exc)), TROUBLE)
