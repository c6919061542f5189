"""The emulator's speed on our battle program in battle, as a multiple of real time (PAL 49.7
frames/s, NTSC 59.8): two planes in the air, both firing, the energies counting down, the
engine hum playing, every frame's object shadow copied in VBLANK by the cartridge.

Run with ``make bench`` (pytest --benchmark-enable); the figure is printed and stored in the
benchmark's extra_info as ``x_real_time``.
"""
from __future__ import annotations

import pytest

from tests.bench.conftest import measure
from tests.cartridge.conftest import Game

FRAMES = 20


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_conquest_battle_speed(benchmark, region: str) -> None:
    g = Game(region)
    g.start("P", "P", 9999, 9999)
    g.stick(0, up=True, right=True, fire=True)
    g.stick(1, left=True, fire=True)
    before = g.battle["energy_red"]

    def frames() -> None:
        for _ in range(FRAMES):
            g.m.run_frame()

    measure(benchmark, frames, FRAMES, g.m.fps)
    assert g.battle["phase"] == "battle" or g.battle["phase"] == "result"
    assert g.battle["energy_red"] < before      # the battle ran
