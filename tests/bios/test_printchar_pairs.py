"""printchar/calcchar23 when R6 still holds the previous character's byte 3 (bios.md 4.2).

Public homebrew (Soeren Gust's displayhex in palntsc.a48, collision.a48, tones.a48, and a
multicart menu that calls calcchar23 for a whole line) loads the colour into R6 once and then
prints several characters; the second call gets R6 with bit 0 = bit 8 of the first pointer.
palntsc.a48 prints "34 NTSC" on an Odyssey²: the 4 must come out as a 4, so bit 0 of R6 on entry
may not leak into the new pointer.  roms_test/bios/hexdigits.a48 prints such pairs."""
from __future__ import annotations

from .carts import chars, machine


def test_second_digit_of_a_pair_shows_its_own_glyph():
    m = machine("hexdigits", frames=10)
    assert m.iram[0x22] == 0xA5, "the program did not reach its end"
    assert chars(m.vdc_regs)[:6] == [0x03, 0x04, 0x00, 0x20, 0x1A, 0x06]


def test_calcchar23_replaces_bit_0_of_r6():
    m = machine("hexdigits", frames=10)
    p = (8 * 0x1D - 0x40 // 2) % 512                 # below 100: bit 8 clear
    assert (m.iram[0x20], m.iram[0x21]) == (p & 0xFF, 0x0E | (p >> 8))
