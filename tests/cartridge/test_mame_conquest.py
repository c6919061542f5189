"""The battle cartridge on our BIOS in MAME (the reference emulator, docs/mame-oracle.md) leaves
the same internal RAM and shows the same picture as in o2em_core, on the program entry screen
and in a battle, PAL and NTSC: the bank switching (P10/P11, memory.toml's four banks), the
object shadow copied in VBLANK, the map and the units are the same pixel for pixel.

The keys are typed through MAME's natural keyboard, which delivers a key some frames after it is
posted (and ENTER, queued behind the others, later still); our side presses each key at the
frames MAME delivered it, found by trying the few frames around them: the RAM must then agree
byte for byte (frame counter, random register, energies, map), which happens for one timing
only."""
from __future__ import annotations

import itertools

import pytest

from cartridge.images import builtin_image, builtin_symbols
from o2em_core import Machine, palette
from tests.vdc.test_palette_png import decode_png
from tools import mame_oracle

pytestmark = [pytest.mark.mame, pytest.mark.slow]

TYPED = [(40, " ")] + [(60 + 10 * i, k) for i, k in enumerate("RT2500BT2500")]
ENTER = 200
NAMES = {" ": "SPACE", "\r": "ENTER"}
CART_RAM = slice(0x20, 0x3D)          # the cartridge's internal RAM (memory.toml)
HOLD = 3                              # frames our keys are held


@pytest.fixture(scope="module", autouse=True)
def _mame():
    if not mame_oracle.available():
        pytest.skip("MAME is not installed (make test installs it)")


def ours(region: str, frames: int, late: int, enter_late: int | None) -> Machine:
    """Our console with the keys pressed `late` frames after MAME was given them (ENTER
    `enter_late`, None: no ENTER)."""
    keys = [(f + late, k) for f, k in TYPED]
    if enter_late is not None:
        keys.append((ENTER + enter_late, "\r"))
    events: dict[int, list[tuple[str, str]]] = {}
    for frame, key in keys:
        events.setdefault(frame, []).append(("press", NAMES.get(key, key)))
        events.setdefault(frame + HOLD, []).append(("release", NAMES.get(key, key)))
    m = Machine(builtin_image("bios"), builtin_image("conquest"), region=region)
    for n in range(1, frames + 1):
        m.run_frame()
        for action, key in events.get(n, []):
            getattr(m, action)(key)
    return m


def _same(ref: mame_oracle.MameResult, m: Machine) -> bool:
    return bytes(m.iram[CART_RAM]) == ref.iram[CART_RAM]


@pytest.mark.parametrize("region", ["pal", "ntsc"])
@pytest.mark.parametrize("screen, frames", [("entry", 190), ("battle", 260)])
def test_entry_and_battle_screens_as_in_mame(region, screen, frames):
    typed = TYPED + ([(ENTER, "\r")] if screen == "battle" else [])
    ref = mame_oracle.run(builtin_image("bios"), builtin_image("conquest"), region=region,
                          frames=frames, typed=typed, timeout=300)
    enters = range(6, 15) if screen == "battle" else [None]
    found = [m for late, enter in itertools.product(range(1, 6), enters)
             if _same(ref, m := ours(region, frames, late, enter))]
    assert found, f"no key timing gives MAME's RAM {ref.iram[CART_RAM].hex(' ')}"
    m = found[0]
    symbols = builtin_symbols("conquest")
    assert m.iram[symbols["phase"]] == symbols["PH_BATTLE" if screen == "battle" else "PH_ENTRY"]
    assert ref.snapshot is not None
    different = (decode_png(ref.snapshot) != palette.to_rgb(m.frame)).any(axis=2)
    assert not different.any(), f"{different.sum()} pixels differ"
    if screen == "battle":                                       # P1 = AF: RAM and bank 3
        assert bytes(m.xram) == ref.xram                         # units, map, object shadow
