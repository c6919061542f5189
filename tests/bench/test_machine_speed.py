"""Whole-machine speed as a multiple of real time (PAL 49.7 frames/s, NTSC 59.8) with every
sprite, character and quad on screen and moving each frame, the full grid with dots, collisions
watched and a tone playing (roms_test/vdc/moving.inc):

* ``moving``: the program waits for VBLANK on the INT pin (JNI), as interrupt-driven games do;
* ``moving_poll``: it reads the status register 0xA1 all frame long, so the picture is drawn in
  some 1 200 small catch-up segments per frame (the worst case for the lazy renderer).

Run with ``make bench`` (pytest --benchmark-enable); the figure is printed and stored in the
benchmark's extra_info as ``x_real_time``.
"""
from __future__ import annotations

import pytest

from o2em_core import Machine
from tests.bench.conftest import measure
from tests.vdc.programs import image

FRAMES = 20


@pytest.mark.parametrize("region", ["pal", "ntsc"])
@pytest.mark.parametrize("program", ["moving", "moving_poll"])
def test_machine_all_objects_moving(benchmark, program: str, region: str) -> None:
    m = Machine(image(program), None, region)
    m.run_frame()                              # compiled and warmed up

    def frames() -> None:
        for _ in range(FRAMES):
            m.run_frame()

    measure(benchmark, frames, FRAMES, m.fps)
    before = m.frame.copy()
    m.run_frame()
    assert m.audio().any()                     # the sound runs
    assert (m.frame != before).any()           # the objects move
