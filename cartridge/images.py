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
