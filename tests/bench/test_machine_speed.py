"""Whole-machine speed as a multiple of real time (PAL 49.7 frames/s, NTSC 59.8) on
roms_test/vdc/moving.a48: every sprite, character and quad on screen and moving each frame, the
full grid with dots, collisions watched, a tone playing, and the CPU polling the status register
all frame long (so the picture is drawn in many small catch-up segments).

Run with ``make bench`` (pytest --benchmark-enable); the figure is printed and stored in the
benchmark's extra_info as ``x_real_time``.
"""
from __future__ import annotations

import pytest

from o2em_core import Machine
from tests.vdc.programs import image

FRAMES = 20


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_machine_all_objects_moving(benchmark, region: str) -> None:
    m = Machine(image("moving"), None, region)
    m.run_frame()                              # compiled and warmed up
    x_before = int(m.vdc_regs[0x11])

    def frames() -> None:
        for _ in range(FRAMES):
            m.run_frame()

    benchmark(frames)
    assert m.audio().any()                     # the sound ran
    m.vdc_regs[0xA0] = 0                       # unlock the object registers to look
    assert int(m.vdc_regs[0x11]) != x_before   # the objects moved
    if benchmark.stats is None:                # --benchmark-disable: body ran once, no timing
        return
    seconds = benchmark.stats.stats.min        # the least disturbed run on a shared machine
    x = FRAMES / m.fps / seconds
    benchmark.extra_info["x_real_time"] = round(x, 1)
    print(f"\n{benchmark.name}: {x:.0f}x real time")
