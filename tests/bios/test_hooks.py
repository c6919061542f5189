"""The interrupt chain with cart hooks (bios.md 3) using hooks.a48: the 406 hook, a custom
tune player at 40A on the parsesnd contract (bios.md 3.6), a timer handler leaving through
irqend's second entry 015 (bios.md 3.7), and random with the timer running (bios.md 4.9)."""
from __future__ import annotations

import pytest

from .carts import machine, run


@pytest.fixture(scope="module", params=["pal", "ntsc"])
def hooked(request):
    m = machine("hooks", request.param)
    trace = []
    for _ in range(6):
        m.run_frame()
        trace.append((int(m.vdc_regs[0xAA]), int(m.iram[0x3F]) & 0x40, int(m.iram[0x31])))
    run(m, 30)
    return m, trace


def test_custom_player_runs_the_opcodes_through_parsesnd(hooked):
    m, trace = hooked
    aa = [t[0] for t in trace]
    # tune 80: AA <- 8F for one frame, jump (same VBLANK) to a 1-frame silence, then stop
    assert aa[:4] == [0x00, 0x8F, 0x00, 0x00]
    assert [t[1] for t in trace[:4]] == [0x40, 0x40, 0x40, 0]      # 3F bit 6 until stop
    assert m.iram[0x31] == 4          # one call per due event plus the jump's re-dispatch


def test_the_406_hook_sees_every_vblank(hooked):
    m, _ = hooked
    before = int(m.iram[0x30])
    run(m, 10)
    assert int(m.iram[0x30]) - before == 10


def test_timer_handler_through_015_keeps_the_main_loop_intact(hooked):
    m, _ = hooked
    assert m.iram[0x32] > 20          # the timer overflowed many times (every 8192 cycles)
    assert m.iram[0x33] == 0          # A and P1 always came back


def test_random_stays_within_both_limits(hooked):
    m, _ = hooked
    firsts, seconds = list(m.xram[0x40:0x48]), list(m.xram[0x48:0x50])
    assert max(firsts) <= 5 and max(seconds) <= 9
    assert len(set(firsts + seconds)) > 2          # not a constant


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_collision_byte_reaches_3d_every_vblank(region):
    m = machine("collision", region, frames=6)
    assert m.iram[0x21] & 0x06 == 0x02        # sprite 1 hit the watched sprite 0, sprite 2 not
