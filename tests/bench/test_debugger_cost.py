"""What the debugger costs (docs/debugger.md): with no breakpoint, watchpoint or trace set it
runs whole frames through the compiled ``run_frame``, so the battle cartridge runs as fast as
without a debugger; with a breakpoint set (one that is never hit) every instruction is stepped
and checked, which is the price of stopping on it. ``make bench`` prints both beside the plain
run, as multiples of real time."""
from __future__ import annotations

import pytest

from tests.bench.conftest import measure
from tests.cartridge.conftest import Game
from videopac.console.debugger import Debugger

FRAMES = 20


def _battle() -> Game:
    g = Game("pal")
    g.start("P", "P", 9999, 9999)
    g.stick(0, up=True, right=True, fire=True)
    g.stick(1, left=True, fire=True)
    return g


@pytest.mark.parametrize("setting", ["nothing set", "breakpoint set"])
def test_debugger_cost(benchmark, setting: str) -> None:
    g = _battle()
    debugger = Debugger(g.m, out=lambda text: None)
    if setting == "breakpoint set":
        debugger.breakpoints.add(0x3FF)          # never executed: every step is checked
        frames = 2
    else:
        frames = FRAMES
    start = g.m.frames

    def run() -> None:
        assert debugger.run_frames(frames) == ""

    measure(benchmark, run, frames, g.m.fps)
    assert g.m.frames > start
