"""The `videopac` command: a thin dispatcher to one module per subcommand.

Each subcommand module provides ``add_arguments(parser)`` and ``main(args) -> int``, so a new
subcommand is one new module and one line in ``SUBCOMMANDS``.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# subcommand -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("videopac.run", "run the emulator headless (scripts, tests, dumps)"),
    "play": ("videopac.play", "play in a window with sound, keyboard and gamepads"),
    "roms": ("videopac.roms", "list or export the built-in ROM images"),
    "ledger": ("videopac.ledger_cli", "keep the books of a Conquest of the World board game"),
    "joystick": ("videopac.joystick_cli", "check real joysticks on a serial adapter"),
}


def _usage() -> str:
    lines = ["usage: videopac COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in SUBCOMMANDS.items()]
    lines.append("\n'videopac COMMAND --help' describes a command.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `videopac` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(f"videopac: unknown command '{name}'; try 'videopac --help'.", file=sys.stderr)
        return 2
    module_name, help_ = SUBCOMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(f"videopac {name}: this command is not built yet ({help_}).", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"videopac {name}", description=help_)
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    try:
        return int(module.main(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # the reader went away (e.g. `| head`): nothing left to say
        sys.stderr.close()
        return 0
    except OSError as exc:
        where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        print(f"videopac {name}: cannot use{where}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
