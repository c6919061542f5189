"""SELECT GAME and the hand-over to the cartridge (bios.md 2.3, 2.4), with hello.a48: a "hello
world" that uses only printchar, gfxoff/gfxon and waitvsync."""
from __future__ import annotations

import pytest

from .carts import chars, machine, run

SELECT_GAME = [0x19, 0x12, 0x0E, 0x12, 0x23, 0x14, 0x0C, 0x1C, 0x20, 0x26, 0x12]
HELLOWORLD = [0x1D, 0x12, 0x0E, 0x0E, 0x17, 0x11, 0x17, 0x13, 0x0E, 0x1A]


@pytest.fixture(scope="module", params=["pal", "ntsc"])
def prompt(request):
    return machine("hello", request.param, frames=20)


def test_prompt_spells_select_game_with_graphics_on(prompt):
    assert chars(prompt.vdc_regs) == SELECT_GAME + [None]
    assert prompt.vdc_regs[0xA0] & 0x28 == 0x28


def test_ram_is_clear_on_the_prompt_screen(prompt):
    assert not prompt.iram[0x20:0x3D].any()          # cart RAM, before its hooks ever ran
    assert not prompt.xram.any()
    assert prompt.iram[0x3E] & 0xC0 == 0              # clock bits cleared
    assert prompt.iram[7] == 0xFF                     # RB0.R7: no last key


def test_prompt_waits_without_a_key(prompt):
    run(prompt, 5)
    assert prompt.iram[0x21] == 0 and prompt.iram[0x20] == 0   # the cart never started


@pytest.fixture(scope="module", params=[("pal", "1", 0x01), ("ntsc", "ENTER", 0x2F)])
def started(request):
    region, key, code = request.param
    m = machine("hello", region, frames=10)
    m.press(key)
    run(m, 3)
    m.release(key)
    run(m, 10)
    return m, code


def test_key_code_handed_to_start(started):
    m, code = started
    assert m.iram[0x21] == code


def test_machine_state_at_start(started):
    m, code = started
    ir = m.iram
    assert ir[0x22] == 0xB7                 # P1: VDC selected, P1.7 = 1, bank 3 kept
    assert ir[0x23] & 0x10                  # RB1
    assert ir[0x24] & 0x40                  # tune_keyclick still playing
    assert ir[0x25] & 0x28 == 0x28          # graphics on


def test_hello_world_printed_and_prompt_gone(started):
    m, _ = started
    assert chars(m.vdc_regs) == HELLOWORLD + [None, None]


def test_waitvsync_returns_once_per_frame(started):
    m, _ = started
    count = int(m.iram[0x20])
    run(m, 7)
    assert (int(m.iram[0x20]) - count) % 256 == 7


def test_last_key_register_holds_the_start_key():
    m = machine("hello", "pal", frames=10)
    m.press("5")
    run(m, 3)
    assert m.iram[0x21] == 0x05 and m.iram[7] == 0x05     # RB0.R7 = the same key code
