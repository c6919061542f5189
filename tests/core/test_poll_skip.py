"""Skipping polling loops (cpu.run, ``Machine.skip_polling``) changes nothing but the speed.

Two machines run the same program, one executing every pass of every polling loop, one
skipping them. They are stopped together at many instruction boundaries (the first boundary
at or after a tick, in steps of a few ticks to a few lines, so that most stops fall inside
stretches the second machine skipped) and at every frame end, and must agree in every byte of
their state there: CPU registers and time, RAM, video registers and frame, sound and samples.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from cartridge.asm48 import assemble
from cartridge.images import builtin_image
from o2em_core import Machine
from o2em_core.state import FRAME_END, TICK, TPL

# A polling loop with the timer running and its interrupt changing what the loop reads, the
# timer reloaded near overflow by the handler, so that skips meet overflows all the time.
TIMER_POLL = """
        org     0
        jmp     start
        org     7
        inc     @r0             ; timer interrupt: the polled cell changes
        xch     a,r7
        mov     a,#0F0h         ; 16 counts to the next overflow
        mov     t,a
        xch     a,r7
        retr
        org     20h
start:  mov     r0,#20h
        mov     @r0,#0
        mov     r1,#0
        clr     a
        mov     t,a
        strt    t
        en      tcnti
loop:   mov     a,@r0
        xrl     a,r1
        jz      loop
        inc     r1
        jmp     loop
"""


def _state(m: Machine) -> tuple[bytes, ...]:
    return (m._regs.tobytes(), m._mem.tobytes(), m._work.tobytes(), m.frame.tobytes(),
            m._snd.tobytes(), m.audio().tobytes())


def _pair(bios: bytes, cart: bytes | None) -> tuple[Machine, Machine]:
    every, skipping = Machine(bios, cart), Machine(bios, cart)
    every.skip_polling = False
    return every, skipping


def _compare(every: Machine, skipping: Machine, frames: int, seed: int,
             keys: dict[int, str | None] | None = None) -> None:
    rng = random.Random(seed)
    keys = keys or {}
    tpl = int(every._regs[TPL])
    for n in range(frames):
        if n in keys:
            for m in (every, skipping):
                m.release_all()
                if keys[n]:
                    m.press(keys[n])
        end = int(every._regs[FRAME_END])
        while int(every._regs[TICK]) < end:
            stop = int(every._regs[TICK]) + rng.randint(1, 3 * tpl)
            every._advance(stop)
            skipping._advance(stop)
            assert int(every._regs[TICK]) == int(skipping._regs[TICK]), f"frame {n}"
            assert _state(every) == _state(skipping), f"frame {n}, tick {stop}"
    assert every.skipped == 0


def test_battle_cartridge_skipped_and_unskipped_agree() -> None:
    every, skipping = _pair(builtin_image("bios"), builtin_image("conquest"))
    # SELECT GAME, computer mode (A), then the practice session: planes flying and firing
    _compare(every, skipping, 160, seed=1, keys={30: "A", 33: None, 53: "SPACE", 56: None,
                                                 76: "SPACE", 79: None})
    assert skipping.skipped > 100_000          # the cartridge's frame wait was skipped


def test_whole_frames_agree_over_a_battle() -> None:
    every, skipping = _pair(builtin_image("bios"), builtin_image("conquest"))
    for n in range(600):
        if n in (30, 53, 76):
            for m in (every, skipping):
                m.press("A" if n == 30 else "SPACE")
        if n in (33, 56, 79):
            for m in (every, skipping):
                m.release_all()
        every.run_frame()
        skipping.run_frame()
        assert _state(every) == _state(skipping), f"frame {n}"
    assert skipping.skipped > 1_000_000


def test_polling_with_the_timer_running_agrees() -> None:
    bios = bytes(assemble(TIMER_POLL, filename="timer_poll.a48").image(0, 0x3FF))
    every, skipping = _pair(bios, None)
    _compare(every, skipping, 20, seed=2)
    assert skipping.skipped > 10_000
    before = int(skipping.iram[0x20])
    _compare(every, skipping, 1, seed=3)
    # the timer interrupt came again and again: ~7900 cycles a frame, an overflow every 512
    assert (int(skipping.iram[0x20]) - before) % 256 >= 12


@pytest.mark.parametrize("steps", [1, 7])
def test_a_run_cut_short_stops_where_the_unskipped_one_does(steps: int) -> None:
    # single steps and short runs never skip past the instruction they must stop at
    every, skipping = _pair(builtin_image("bios"), builtin_image("conquest"))
    for m in (every, skipping):
        for _ in range(3):
            m.run_frame()
    for _ in range(2000):
        for m in (every, skipping):
            m._advance(int(m._regs[TICK]) + steps)
        assert _state(every) == _state(skipping)
    assert np.array_equal(every.iram, skipping.iram)
