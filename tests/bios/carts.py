"""Shared helpers of the BIOS tests: assemble a test cartridge, run it on our BIOS, read glyphs."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cartridge.asm48 import assemble
from cartridge.images import builtin_image
from o2em_core import Machine

PROGRAMS = Path(__file__).resolve().parents[2] / "roms_test" / "bios"


@lru_cache(maxsize=None)
def cart(name: str) -> bytes:
    """The 2 KB cartridge image of roms_test/bios/<name>.a48 (0x400-0xBFF)."""
    path = PROGRAMS / f"{name}.a48"
    result = assemble(path.read_text(), filename=str(path), include_dirs=[str(PROGRAMS)])
    return result.image(0x400, 0xBFF)


def machine(name: str, region: str = "pal", frames: int = 0) -> Machine:
    """A console with our BIOS and test cartridge `name`, run for `frames` frames."""
    m = Machine(builtin_image("bios"), cart(name), region=region)
    run(m, frames)
    return m


def run(m: Machine, frames: int) -> None:
    for _ in range(frames):
        m.run_frame()


def glyph(y: int, pointer_low: int, attribute: int) -> int:
    """The glyph a character shows: its 9-bit pointer is 8*glyph - y/2 (bios.md 1.4)."""
    pointer = ((attribute & 1) << 8) | pointer_low
    return ((pointer + y // 2) & 0x1FF) // 8


def chars(vdc) -> list[int | None]:
    """Glyphs of the 12 single characters (None for one parked at Y = X = F8)."""
    out: list[int | None] = []
    for reg in range(0x10, 0x40, 4):
        y, x, ptr, attr = (int(v) for v in vdc[reg:reg + 4])
        out.append(None if (y, x) == (0xF8, 0xF8) else glyph(y, ptr, attr))
    return out
