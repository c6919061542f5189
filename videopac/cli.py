"""The `videopac` command: a thin dispatcher to one module per subcommand.

Each subcommand module provides ``add_arguments(parser)`` and ``main(args) -> int``, so a new
subcommand is one new module and one line in ``SUBCOMMANDS``.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType
from typing import NoReturn

import i18n
from i18n import N_, _, os_reason
from safefiles import STDOUT, standard_streams
from videopac import BAD_INPUT, TROUBLE, __version__

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("videopac.run", N_("run the emulator headless (scripts, tests, dumps)")),
    "play": ("videopac.play", N_("play in a window with sound, keyboard and gamepads")),
    "balance": ("videopac.balance", N_("measure the computer opponent in all nine weapon pairings")),
    "roms": ("videopac.roms", N_("list or export the built-in ROM images")),
    "generals": ("videopac.generals", N_("play whole games between computer generals and measure them")),
    "ledger": ("videopac.ledger", N_("keep the books of a Conquest of the World board game")),
    "joystick": ("videopac.joystick", N_("check real joysticks on a serial adapter")),
    "debug": ("videopac.debug", N_("debug a program: breakpoints, watchpoints, steps, views")),
}


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one sentence (no usage dump), status 2;
    the subcommands' own subparsers inherit it."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(_("{prog}: {message}; see '{prog} --help'").format(
            prog=self.prog, message=message) + "\n")
        raise SystemExit(BAD_INPUT)


def _usage() -> str:
    lines = [_("usage: videopac [--lang LANG] COMMAND [options]"), "       videopac --version",
             "", _("commands:")]
    lines += [f"  {name:<10} {_(help_)}" for name, (_module, help_) in SUBCOMMANDS.items()]
    lines.append("\n" + _("'videopac COMMAND --help' describes a command."))
    lines.append(_("--lang {languages} chooses the language (default: the system locale).")
                 .format(languages="|".join(i18n.LANGUAGES)))
    return "\n".join(lines)


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` / ``--lang=X`` taken out of ``argv`` wherever it stands (before ``--``).

    Every command accepts it, so it is read before any parser is built: the help texts of the
    parsers are then already in that language.
    """
    code, rest = None, []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--lang":
            if i + 1 >= len(argv):
                raise ValueError("")
            code, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            code, i = arg.split("=", 1)[1], i + 1
            continue
        rest.append(arg)
        i += 1
    if code is not None and code not in i18n.LANGUAGES:
        raise ValueError(code)
    return code, rest


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """Show ``--lang`` in a command's help (the dispatcher has already read it)."""
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help=_(
        "language of everything the program says (default: the system locale)"))


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `videopac` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        code, argv = take_language(argv)
    except ValueError as exc:
        i18n.set_language(None)
        print(_("videopac: unknown language '{code}'; choose one of: {languages}.").format(
            code=exc.args[0], languages=", ".join(i18n.LANGUAGES)), file=sys.stderr)
        return BAD_INPUT
    i18n.set_language(code)
    i18n.translate_argparse()
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())                 # bare `videopac` asks for help, too
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"videopac {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(_("videopac: unknown command '{name}'; try 'videopac --help'.").format(name=name),
              file=sys.stderr)
        return BAD_INPUT
    module_name, help_ = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    parser = OneLineParser(prog=f"videopac {name}", description=_(help_))
    add_language_argument(parser)
    module.add_arguments(parser)
    with standard_streams():      # a closed stdin reads as empty; stdout fails naming itself
        args = parser.parse_args(rest)
        return _run(module, args, name)


def _run(module: ModuleType, args: argparse.Namespace, name: str) -> int:
    """The subcommand's exit status; an interrupt, a reader that left and a file or the standard
    output that cannot be used end it in one sentence (TROUBLE: the disk's or the system's)."""
    try:
        status = int(module.main(args) or 0)
        sys.stdout.flush()    # what is still buffered fails here, in words, not at exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # the reader went away (e.g. `| head`): nothing left to say
        sys.stderr.close()
        return 0
    except OSError as exc:
        if exc.filename == STDOUT:
            print(_("{prog}: cannot write the standard output: {reason}").format(
                prog=f"videopac {name}", reason=os_reason(exc)), file=sys.stderr)
            return TROUBLE
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(_("videopac {name}: cannot use{where}: {reason}.").format(
            name=name, where=where, reason=os_reason(exc)), file=sys.stderr)
        return TROUBLE
