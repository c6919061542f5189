"""The BIOS test carts in MAME (the reference emulator, with our BIOS installed as o2bios.rom)
leave the same RAM as in o2em_core.  This checks the emulator against MAME with a BIOS that
exercises every routine; the programs finish their work and idle, so frame boundaries do not
matter."""
from __future__ import annotations

import pytest

from cartridge.images import builtin_image
from tools import mame_oracle

from .carts import cart, machine

pytestmark = pytest.mark.mame

CASES = [  # program, frames, internal RAM range compared, whether the external RAM is readable
    ("routines", 40, slice(0x20, 0x40), True),
    ("clobbers", 10, slice(0x20, 0x3D), True),
    ("palntsc", 8, slice(0x20, 0x23), True),
    ("hooks", 40, slice(0x30, 0x34), True),
    ("tunes", 250, slice(0x20, 0x30), True),
    ("hello", 20, slice(0x20, 0x3D), False),       # waits on SELECT GAME, VDC selected
]


@pytest.fixture(scope="module", autouse=True)
def _mame():
    if not mame_oracle.available():
        pytest.skip("MAME is not installed (make test installs it)")


@pytest.mark.parametrize("region", ["pal", "ntsc"])
@pytest.mark.parametrize("name, frames, iram, xram_valid", CASES, ids=[c[0] for c in CASES])
def test_same_ram_as_mame(name, frames, iram, xram_valid, region):
    ref = mame_oracle.run(builtin_image("bios"), cart(name), region=region, frames=frames)
    ours = machine(name, region, frames)
    assert bytes(ours.iram[iram]) == ref.iram[iram]
    if xram_valid:
        assert bytes(ours.xram) == ref.xram
