"""roms_test/bios/routines.a48 calls the non-interactive routines the way homebrew does; the
results it leaves in RAM must follow the bios.md contracts (values computed here from the
documented formulas, not copied from a run)."""
from __future__ import annotations

import pytest

from cartridge.images import builtin_image

from .carts import machine, run


def calc23(y: int, glyph: int, colour: int) -> tuple[int, int]:
    """bios.md 4.2: p = (8*glyph - y/2) mod 512; R5 = p & FF, R6 = colour | p >> 8."""
    p = (8 * glyph - y // 2) % 512
    return p & 0xFF, colour | (p >> 8)


@pytest.fixture(scope="module", params=["pal", "ntsc"])
def done(request):
    m = machine("routines", request.param, frames=40)
    assert m.xram[0x27] == 0xA5, "the program did not reach its end"
    return m


def test_calcchar23(done):
    ir = done.iram
    assert (ir[0x20], ir[0x21]) == calc23(0x40, 0x1D, 0x0C)
    assert (ir[0x22], ir[0x23]) == calc23(0x91, 0x00, 0x02)     # wraps below 0: bit 8 set
    assert (ir[0x24], ir[0x25]) == calc23(0x20, 0x3F, 0x0E)     # glyph bit 5 = pointer bit 8
    assert ir[0x3C] == 0x20                                      # R4 (y) not clobbered


def test_multiply_and_divide(done):
    ir = done.iram
    assert ir[0x26] == (0x0D * 0x0B) & 0xFF
    assert ir[0x27] == (0x20 * 0x10) & 0xFF
    assert (ir[0x28], ir[0x29], ir[0x2A]) == divmod(0xC8, 7) + (0xC8 % 7,)
    assert ir[0x2B] == 9                # our choice: divisor 0 gives remainder = dividend


def test_bit_fields(done):
    ir, xr = done.iram, done.xram
    assert ir[0x2C] == 0                                 # bitset bit 0: it was clear
    assert (ir[0x2D], ir[0x2E], ir[0x2F]) == (0x02, 0x12, 0x02)   # bittest 9: A, R1, R2
    assert ir[0x30] != 0                                 # bitclear bit 0: it was set
    assert list(xr[0x10:0x14]) == [0x00, 0x00, 0x02, 0x00]        # bit 9 set, bit 0 cleared


def test_nibblemixer_follows_the_table_until_within_range(done):
    table = builtin_image("bios")[0x2B3:0x2C3]
    n = 5
    while n > 3:
        n = table[n]
    assert done.iram[0x31] == n


def test_decodejoystick_all_nine_directions(done):
    # dx = -1, 0, +1 (outer) x dy = -1, 0, +1: 0 right, counter-clockwise, neutral 0
    assert list(done.iram[0x32:0x3B]) == [3, 4, 5, 2, 0, 6, 1, 0, 7]


def test_table_helpers_and_the_vblank_copy_with_graphics_on(done):
    xr = done.xram
    assert xr[0x20] == 0x28 + 8 and xr[0x21] == 0x7F - 2 - 4    # tableprintchar: R3, R0
    assert xr[0x22] == 0x28                    # vdc_control restored after the copy
    assert xr[0x23] & 0x80 == 0                # 3F bit 7: activation is one-shot
    y = 0x30
    assert list(xr[0x30:0x34]) == [y, 0x28, *calc23(y, 0x05, 0x04)]       # char 0
    assert list(xr[0x36:0x38]) == list(calc23(y, 0x09, 0x06))             # char 1 bytes 2/3


def test_tablebcdbyte(done):
    xr = done.xram
    y, x = 0x60, 0x50
    assert list(xr[0x38:0x40]) == [y, x, *calc23(y, 4, 8), y, x + 8, *calc23(y, 7, 8)]
    assert xr[0x24] == 0x7F - 2 - 8            # R0: the terminator after one 8-byte block
    assert xr[0x25] == x                       # R3 given back unchanged
    assert xr[0x7F] == 8 and xr[0x7E] == 0x18 and xr[0x75] == 0


def test_keyclick_ends_and_clears_the_sound_bit(done):
    # 56: tone for 2 frames then stop; first opcode at the VBLANK after playsound
    assert done.xram[0x26] == 3
    assert done.iram[0x3F] & 0x40 == 0


def test_vsyncirq_sets_f1_for_a_cart_that_waits_on_jf1():
    """KTAA clears F1 and spins on JF1 until the VBLANK handler sets it; waitvsync (which now
    clears F1 and waits for it to be set) still returns once per frame."""
    m = machine("vsyncflag", frames=2)
    waits, returns = int(m.iram[0x20]), int(m.iram[0x22])
    run(m, 10)
    # each loop pass: a JF1 wait ending at one VBLANK, then waitvsync ending at the next
    assert int(m.iram[0x20]) - waits == 5
    assert int(m.iram[0x22]) - returns == 5
