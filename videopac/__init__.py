"""The application: the `videopac` command and its subcommands, in rooms.

The commands are the modules at the top (cli.py dispatches to run, play, debug, balance, roms,
ledger, joystick); what they use lives in the rooms below, one job each (each room's
``__init__`` says which). A room imports only the rooms before it in ``ROOMS``, never a command
(tests/test_skeleton.py); docs/architecture.md is the map.
"""
import sys

from cartridge import __version__

# the version is the one `videopac -V` prints
__all__ = ["__version__", "ROOMS", "BAD_INPUT", "TROUBLE", "UsageError", "fail"]

# the rooms, lowest first: each may import the ones before it, none after it
ROOMS = ("battle", "sticks", "books", "console", "table")


# how every command ends when it cannot do what it was asked (docs/architecture.md)
BAD_INPUT = 2      # a bad option or input file: the user fixes what was given
TROUBLE = 1        # the disk, a lock, a port or the network got in the way


class UsageError(Exception):
    """Something the user must fix (a bad option or input file); the message is one sentence,
    the command says it after its name and ends with BAD_INPUT. The errors of the rooms that
    are always the user's input (a --computer or --joystick value, a keymap, a symbol file)
    are kinds of it."""


def fail(prog: str, message: str, status: int = BAD_INPUT) -> int:
    """Say what went wrong in one line on stderr after the command's name (``prog``); the
    exit status to end with."""
    print(f"{prog}: {message}", file=sys.stderr)
    return status
