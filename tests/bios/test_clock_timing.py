"""The clock routines (bios.md 4.7) with clock.a48, and the VBLANK timing that PAL/NTSC
detectors depend on (bios.md 3.4) with palntsc.a48."""
from __future__ import annotations

import pytest

from .carts import glyph, machine, run


def clock_digits(vdc) -> list[int]:
    """Glyphs of the clock cells 0-4 (quad 0 at x, quad 1 at x + 8, interleaved)."""
    cells = []
    for reg in (0x42, 0x52, 0x46, 0x56, 0x4A):
        quad_y = int(vdc[reg & 0xF0])
        cells.append(glyph(quad_y, int(vdc[reg]), int(vdc[reg + 1])))
    return cells


def test_clock_counts_down_once_per_60_frames_and_stops_at_zero():
    m = machine("clock", frames=3)            # digits arrive through the table a frame later
    assert (m.vdc_regs[0x40], m.vdc_regs[0x41]) == (0x20, 0x30)
    assert (m.vdc_regs[0x50], m.vdc_regs[0x51]) == (0x20, 0x38)
    assert clock_digits(m.vdc_regs) == [0, 0, 0x0A, 0, 3]
    run(m, 60)
    assert m.xram[2] == 0x02
    assert clock_digits(m.vdc_regs) == [0, 0, 0x0A, 0, 2]
    run(m, 190)
    assert (m.xram[1], m.xram[2]) == (0, 0)
    assert m.iram[0x3E] & 0x80                 # clock_stop set at 00:00
    run(m, 60)
    assert (m.xram[1], m.xram[2]) == (0, 0)    # and it stays there
    assert clock_digits(m.vdc_regs) == [0, 0, 0x0A, 0, 0]


def test_frame_counter_wraps_at_60_and_keeps_the_clock_bits():
    m = machine("clock", frames=1)
    seen = set()
    for _ in range(130):
        m.run_frame()
        seen.add(int(m.iram[0x3E]) & 0x3F)
    assert seen == set(range(60))


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_table_copy_and_sound_step_finish_inside_vblank(region):
    m = machine("clock", region, frames=70)      # a table every frame, a tune for 33
    assert m.iram[0x2F] == 0


# the windows palntsc.a48-style detectors accept (bios.md 3.4)
@pytest.mark.parametrize("region, low, high", [("pal", 0xCE, 0xDE), ("ntsc", 0x2A, 0x3A)])
def test_pal_ntsc_detector_reads_inside_its_window(region, low, high):
    m = machine("palntsc", region, frames=8)
    samples = list(m.iram[0x20:0x23])
    assert all(low <= s <= high for s in samples), [hex(s) for s in samples]


def test_clock_counts_up_with_bcd_carry_into_the_minutes():
    m = machine("clockup", frames=3)
    assert clock_digits(m.vdc_regs) == [0, 9, 0x0A, 5, 9]
    run(m, 60)
    assert (m.xram[1], m.xram[2]) == (0x10, 0x00)
    assert clock_digits(m.vdc_regs) == [1, 0, 0x0A, 0, 0]
    assert m.iram[0x3E] & 0xC0 == 0x40         # still running, still counting up
