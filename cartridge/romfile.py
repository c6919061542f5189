"""Checking ROM files that users bring (docs/hardware.md §4.2): a BIOS is the 1 KB internal ROM of
the 8048; a cartridge is a standard board of 2, 4 or 8 KB (one, two or four 2 KB banks chosen by
P10/P11) or a board with 3 KB banks of 3, 6 or 12 KB (one, two or four banks, e.g. KTAA). Anything
else is refused with one sentence that says what is wrong. (The emulator chooses the board by the
same sizes: o2em_core.bus.BOARDS.)"""
from __future__ import annotations

import pathlib

from i18n import _, os_reason

from safefiles import TooLarge, read_at_most

BIOS_SIZE = 1024
CART_SIZES = (2048, 3072, 4096, 6144, 8192, 12288)   # 2 KB and 3 KB banks


class RomFileError(ValueError):
    """A ROM file that cannot be used, with a message fit to show to the user as is."""


def _read(path: str | pathlib.Path, limit: int) -> tuple[bytes, int | None]:
    """The file's bytes and its size, reading at most ``limit`` + 1 bytes: a larger file gives
    no bytes and its size, a device such as /dev/zero (perhaps endless) no bytes and None."""
    p = pathlib.Path(path)
    try:
        data = read_at_most(p, limit, "ROM images")
        return data, len(data)
    except TooLarge as exc:
        return b"", exc.size
    except IsADirectoryError:
        raise RomFileError(_("{name} is a folder, not a ROM image").format(name=p.name)) from None
    except OSError as exc:
        raise RomFileError(_("cannot read {path}: {reason}").format(path=p, reason=os_reason(exc))) from None


def load_bios(path: str | pathlib.Path) -> bytes:
    """The bytes of a BIOS image file (exactly 1024 bytes)."""
    data, size = _read(path, BIOS_SIZE)
    if size is None:
        raise RomFileError(_("{path} is larger than {limit} bytes; a BIOS image must be 1 KB "
                             "(1024 bytes)").format(path=path, limit=BIOS_SIZE))
    if size != BIOS_SIZE:
        raise RomFileError(_("{name} is {size} bytes; a BIOS image must be 1 KB (1024 bytes)").format(
            name=pathlib.Path(path).name, size=size))
    return data


def load_cart(path: str | pathlib.Path) -> bytes:
    """The bytes of a cartridge image file (2, 3, 4, 6, 8 or 12 KB)."""
    data, size = _read(path, max(CART_SIZES))
    if size is None:
        raise RomFileError(_("{path} is larger than {limit} bytes; a cartridge image must be 2, 3, "
                             "4, 6, 8 or 12 KB").format(path=path, limit=max(CART_SIZES)))
    if size not in CART_SIZES:
        raise RomFileError(_("{name} is {size} bytes; a cartridge image must be 2, 3, 4, 6, 8 or 12 "
                             "KB").format(name=pathlib.Path(path).name, size=size))
    return data
