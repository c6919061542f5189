"""Building and running the CPU test programs of roms_test/cpu (assembled by asm48)."""
from __future__ import annotations

import functools
import pathlib

from cartridge.asm48 import assemble
from o2em_core import Machine

ROOT = pathlib.Path(__file__).resolve().parents[2]
CPU_PROGRAMS = ROOT / "roms_test" / "cpu"


@functools.lru_cache(maxsize=None)
def assembled(name: str):
    path = CPU_PROGRAMS / f"{name}.a48"
    return assemble(path.read_text(), filename=str(path))


def images(name: str) -> tuple[bytes, bytes | None]:
    """(BIOS image, cartridge image or None) of a test program. ``banks`` has a 4 KB
    cartridge: bank 0 from banks0.a48, bank 1 (the reset bank) from banks.a48. ``banks3k`` has
    a 12 KB cartridge of four 3 KB banks (CPU 400h-0FFFh each) from banks3k_b0..b3.a48."""
    bios = bytes(assembled(name).image(0, 0x3FF))
    if name == "banks":
        cart = bytes(assembled("banks0").image(0x400, 0xBFF)) + \
            bytes(assembled("banks").image(0x400, 0xBFF))
        return bios, cart
    if name == "banks3k":
        return bios, banks3k_cart()
    return bios, None


def banks3k_cart() -> bytes:
    """The 12 KB cartridge of banks3k.a48: bank N (file N * 0C00h) shows at CPU 400h-0FFFh."""
    return b"".join(bytes(assembled(f"banks3k_b{n}").image(0x400, 0xFFF)) for n in range(4))


def run(name: str, region: str, frames: int) -> Machine:
    bios, cart = images(name)
    m = Machine(bios, cart, region)
    for _ in range(frames):
        m.run_frame()
    return m
