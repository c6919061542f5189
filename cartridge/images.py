"""The built-in ROM images (our open BIOS and our battle program), built from the sources in this
package into ``cartridge/roms/<name>.bin``."""
from __future__ import annotations

import pathlib

ROMS = pathlib.Path(__file__).resolve().parent / "roms"


def builtin_image(name: str) -> bytes | None:
    """The bytes of the built-in image ``name`` ("bios" or "conquest"), or None if not built."""
    try:
        return (ROMS / f"{name}.bin").read_bytes()
    except FileNotFoundError:
        return None


def builtin_symbols(name: str) -> dict[str, int] | None:
    """The symbol table written next to the built-in image ``name``, or None if not built."""
    from .symbols import load_symbols

    try:
        return load_symbols(ROMS / f"{name}.json")
    except FileNotFoundError:
        return None
