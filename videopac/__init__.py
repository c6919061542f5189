"""The application: the `videopac` command and its subcommands, in rooms.

The commands are the modules at the top (cli.py dispatches to run, play, debug, balance, roms,
ledger, joystick); what they use lives in the rooms below, one job each (each room's
``__init__`` says which). A room imports only the rooms before it in ``ROOMS``, never a command
(tests/test_skeleton.py); docs/architecture.md is the map.
"""
from cartridge import __version__

__all__ = ["__version__", "ROOMS", "UsageError"]   # the version is the one `videopac -V` prints

# the rooms, lowest first: each may import the ones before it, none after it
ROOMS = ("battle", "sticks", "books", "console", "table")


class UsageError(Exception):
    """Something the user must fix (a bad option or input file); the message is one sentence,
    the command says it after its name and ends with status 2."""
