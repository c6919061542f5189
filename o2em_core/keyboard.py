"""The console keyboard: 46 keys in a 6 × 8 matrix read through a 74156 decoder (row select
P20–P22, enabled by P12 = 0) and a 74148 priority encoder on P24–P27 (docs/hardware.md §5), and the
two joysticks read over the data bus (docs/hardware.md §6)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from i18n import _

if TYPE_CHECKING:
    from .machine import Machine

# Rows of the matrix in column order 0..7; None marks the two unused positions (row 1, col 2/3).
# The BIOS key number row × 8 + column equals the character code of most legends.
MATRIX_ROWS: tuple[tuple[str | None, ...], ...] = (
    ("0", "1", "2", "3", "4", "5", "6", "7"),
    ("8", "9", None, None, "SPACE", "?", "L", "P"),
    ("+", "W", "E", "R", "T", "U", "I", "O"),
    ("Q", "S", "D", "F", "G", "H", "J", "K"),
    ("A", "Z", "X", "C", "V", "B", "M", "."),
    ("-", "*", "/", "=", "Y", "N", "CLEAR", "ENTER"),
)

# Videopac key name -> (row, column); YES and NO are the Y and N keys.
KEYS: dict[str, tuple[int, int]] = {
    name: (row, col)
    for row, names in enumerate(MATRIX_ROWS)
    for col, name in enumerate(names)
    if name is not None
}
KEYS["YES"] = KEYS["Y"]
KEYS["NO"] = KEYS["N"]

# Joystick data-bus bits, active low on the bus (stored active high in the machine state).
JOY_BITS: dict[str, int] = {"up": 0x01, "right": 0x02, "down": 0x04, "left": 0x08, "fire": 0x10}


def key_position(name: str) -> tuple[int, int]:
    """Row and column of a Videopac key name (case-insensitive for letters)."""
    # ASCII only: 'ı'.upper() is 'I', 'ſ'.upper() is 'S'; those are not the console's keys
    key = name.upper() if name.isascii() and (len(name) == 1 or name.upper() in KEYS) else name
    try:
        return KEYS[key]
    except KeyError:
        raise ValueError(_("unknown key {name}; keys are 0-9, A-Z, SPACE, ENTER, CLEAR, ?, ., +, "
                           "-, *, /, =, YES, NO").format(name=repr(name))) from None


# How long ``tap`` holds a key down and then leaves the keyboard idle, in frames: the BIOS scans
# the keyboard once a frame, so two frames down and two up let it see each press and release.
TAP_FRAMES = 2


def tap(machine: Machine, *names: str, frames: int = TAP_FRAMES,
        run_frame: Callable[[], None] | None = None) -> None:
    """Type the keys ``names`` one after the other on the console's keyboard, each held
    ``frames`` frames (default TAP_FRAMES) and followed by as many frames with no key, as a
    person types. ``run_frame`` runs one frame (default ``machine.run_frame``; a caller that
    does more each frame passes its own)."""
    step = machine.run_frame if run_frame is None else run_frame
    for name in names:
        machine.press(name)
        for _frame in range(frames):
            step()
        machine.release(name)
        for _frame in range(frames):
            step()
