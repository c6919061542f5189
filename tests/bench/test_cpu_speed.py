"""Emulation speed as a multiple of real time (PAL: 394 100 machine cycles/s, 49.7 frames/s;
NTSC: 357 955 cycles/s, 59.8 frames/s), on the CPU-bound program roms_test/cpu/busy.a48.

* ``test_cpu_core``: the 8048 loop alone — beam events (drawing, sound) moved out of reach,
  so only instructions execute.
* ``test_whole_machine``: ``run_frame()`` with the video chip drawing and the sound running.

Run with ``make bench`` (pytest --benchmark-enable); the figure is printed and stored in the
benchmark's extra_info as ``x_real_time``.
"""
from __future__ import annotations

import pytest

from o2em_core import Machine, cpu, state
from tests.bench.conftest import measure
from tests.core.programs import images

FRAMES = 20


def _machine(region: str) -> Machine:
    bios, _ = images("busy")
    m = Machine(bios, None, region)
    m.run_frame()                       # compiled and warmed up
    return m


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_cpu_core(benchmark, region: str) -> None:
    m = _machine(region)
    r = m._regs
    frame_ticks = int(r[state.FRAME_TICKS])

    def frames() -> None:
        r[state.EV_TICK] = 1 << 60      # no beam event within reach: the CPU alone
        end = int(r[state.TICK]) + FRAMES * frame_ticks
        cpu.run(*m.run_args, end, True)

    measure(benchmark, frames, FRAMES, m.fps)
    assert m.xram.any()                 # the program ran


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_whole_machine(benchmark, region: str) -> None:
    m = _machine(region)

    def frames() -> None:
        for _ in range(FRAMES):
            m.run_frame()

    measure(benchmark, frames, FRAMES, m.fps)
    assert m.xram.any()
