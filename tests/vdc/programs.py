"""The video/sound test programs of roms_test/vdc, built by asm48 into 1 KB BIOS-socket images."""
from __future__ import annotations

import functools
import pathlib

from cartridge.asm48 import assemble

DIR = pathlib.Path(__file__).resolve().parents[2] / "roms_test" / "vdc"


@functools.lru_cache(maxsize=None)
def image(name: str) -> bytes:
    source = DIR / f"{name}.a48"
    return assemble(source.read_text(encoding="utf-8"), str(source),
                    include_dirs=[DIR]).image(0, 0x3FF, 0x00)
