"""The CPU programs run in MAME (the reference, docs/mame-oracle.md) and in
o2em_core, PAL and NTSC: both must leave identical internal and external RAM. Each program
finishes its work in the first frames and then idles, so the frame boundaries of the two
emulators need not coincide."""
from __future__ import annotations

import pytest

from tools import mame_oracle

from .programs import images, run

# program -> frames to run in both (the program has finished well before)
PROGRAMS = {"alu": 2, "flow": 2, "timer": 2, "vdc": 2, "banks": 3, "banks3k": 3, "irq": 6, "counter": 6,
            "palntsc": 3, "jni": 8, "beam": 3, "drift": 22}

pytestmark = [
    pytest.mark.mame,
    pytest.mark.skipif(not mame_oracle.available(), reason="MAME is not installed"),
]


@pytest.mark.parametrize("region", ["pal", "ntsc"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_ram_as_mame(name: str, region: str) -> None:
    frames = PROGRAMS[name]
    bios, cart = images(name)
    mame = mame_oracle.run(bios, cart, region, frames)
    ours = run(name, region, frames)
    assert ours.iram.tobytes().hex(" ") == mame.iram.hex(" ")
    assert ours.xram.tobytes().hex(" ") == mame.xram.hex(" ")
    assert ours.cpu.pc == mame.regs["PC"]
