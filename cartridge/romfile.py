"""Checking ROM files that users bring (hardware.md §4.2): a BIOS is the 1 KB internal ROM of
the 8048; a cartridge is a standard board of 2, 4 or 8 KB (one, two or four 2 KB banks chosen by
P10/P11) or a board with 3 KB banks of 3, 6 or 12 KB (one, two or four banks, e.g. KTAA). Anything
else is refused with one sentence that says what is wrong. (The emulator chooses the board by the
same sizes: o2em_core.bus.BOARDS.)"""
from __future__ import annotations

import pathlib

from i18n import _

BIOS_SIZE = 1024
CART_SIZES = (2048, 3072, 4096, 6144, 8192, 12288)   # 2 KB and 3 KB banks


class RomFileError(ValueError):
    """A ROM file that cannot be used, with a message fit to show to the user as is."""


def _read(path: str | pathlib.Path) -> bytes:
    p = pathlib.Path(path)
    try:
        return p.read_bytes()
    except IsADirectoryError:
        raise RomFileError(_("{name} is a folder, not a ROM image").format(name=p.name)) from None
    except OSError as exc:
        raise RomFileError(_("cannot read {path}: {reason}").format(path=p, reason=exc.strerror or exc)) from None


def load_bios(path: str | pathlib.Path) -> bytes:
    """The bytes of a BIOS image file (exactly 1024 bytes)."""
    data = _read(path)
    if len(data) != BIOS_SIZE:
        raise RomFileError(_("{name} is {size} bytes; a BIOS image must be 1 KB (1024 bytes)").format(
            name=pathlib.Path(path).name, size=len(data)))
    return data


def load_cart(path: str | pathlib.Path) -> bytes:
    """The bytes of a cartridge image file (2, 3, 4, 6, 8 or 12 KB)."""
    data = _read(path)
    if len(data) not in CART_SIZES:
        raise RomFileError(_("{name} is {size} bytes; a cartridge image must be 2, 3, 4, 6, 8 or 12 "
                             "KB").format(name=pathlib.Path(path).name, size=len(data)))
    return data
