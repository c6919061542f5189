"""The drawing rules of the 8244/8245 (docs/hardware.md §7–9) against hand-computed pixels."""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from o2em_core import raster

BG = 0          # background colour index with 0xA3 = 0 (black)
OBJECTS = 0x20
GRID = 0x08


def regs(ctrl: int = OBJECTS, colour: int = 0) -> np.ndarray:
    """A register file with every object parked below the picture (as the BIOS does)."""
    v = np.zeros(256, dtype=np.uint8)
    v[0x00:0x80:4] = 0xF8          # all object Y registers (sprites, chars, quads)
    v[0xA0] = ctrl
    v[0xA3] = colour
    return v


def new_scratch() -> np.ndarray:
    """Working memory of the compositor, as the machine keeps after its frame."""
    return np.zeros(raster.SCRATCH_ROWS * raster.WIDTH, dtype=np.uint8)


def draw(v: np.ndarray, line: int, x0: int, x1: int, row: np.ndarray,
         scratch: np.ndarray | None = None, ntsc: bool = False, lum: bool = False) -> tuple[int, int]:
    """Pixels x0..x1-1 of ``line`` through the machine's own entry (raster.draw_into), with
    ``scratch`` kept between calls as the machine keeps it, or fresh memory each time."""
    s = new_scratch() if scratch is None else scratch
    return raster.draw_into(v, ntsc, line, x0, x1, lum, row, 0, s, 0, True)


def render(v: np.ndarray, ntsc: bool, lum: bool, f: np.ndarray) -> tuple[int, int]:
    """Every line of ``f`` from one register state, as the chip draws a frame in which no
    register changes; the OR of the collision and status bits."""
    scratch = new_scratch()
    result = status = 0
    for line in range(f.shape[0]):
        r, st = draw(v, line, 0, raster.WIDTH, f[line], scratch, ntsc, lum)
        result |= r
        status |= st
    return result, status


def frame(v: np.ndarray, ntsc: bool = False, lum: bool = False) -> tuple[np.ndarray, int, int]:
    f = np.full((raster.HEIGHT, raster.WIDTH), 0xEE, dtype=np.uint8)
    res, st = render(v, ntsc, lum, f)
    return f, res, st


def put_char(v: np.ndarray, i: int, y: int, x: int, glyph: int, colour: int = 7,
             skip_rows: int = 0) -> None:
    """Character i showing `glyph` at (x, y): pointer = 8·glyph − y/2 (+ rows cut off)."""
    p = (8 * glyph - y // 2 + skip_rows) & 0x1FF
    v[0x10 + 4 * i: 0x14 + 4 * i] = (y, x, p & 0xFF, (p >> 8) | colour << 1)


def glyph_bits(glyph: int, row: int) -> list[int]:
    return [(raster.CHARSET[8 * glyph + row] >> (7 - c)) & 1 for c in range(8)]


def test_charset_is_the_real_rom():
    assert raster.CHARSET.shape == (512,)
    assert zlib.crc32(raster.CHARSET.tobytes()) == 0xB46A3F31


@pytest.mark.parametrize("glyph", range(64))
def test_every_glyph_shows_its_seven_rows(glyph):
    v = regs()
    put_char(v, 0, 0x20, 8, glyph, colour=2)     # colour 2 = green -> index 8|2
    f, _, _ = frame(v)
    x0 = 2 * (8 + 5)
    for line in range(raster.HEIGHT):
        want = [BG] * raster.WIDTH
        if 0x20 <= line < 0x20 + 14:
            for c, bit in enumerate(glyph_bits(glyph, (line - 0x20) // 2)):
                if bit:
                    want[x0 + 2 * c] = want[x0 + 2 * c + 1] = 10
        assert list(f[line]) == want, f"glyph {glyph:02X} line {line}"


def lit_lines(f: np.ndarray) -> list[int]:
    return [y for y in range(f.shape[0]) if (f[y] != BG).any()]


@pytest.mark.parametrize("skip", range(8))
def test_height_rule_pointer_advanced_by_k_shows_7_minus_k_rows(skip):
    v = regs()
    put_char(v, 3, 0x30, 40, 0x2F, skip_rows=skip)   # solid block: every shown row is lit
    f, _, _ = frame(v)
    if skip < 7:
        assert lit_lines(f) == list(range(0x30, 0x30 + 2 * (7 - skip)))
    else:
        # pointer at row 7 (blank): shows the blank row and the whole next glyph (8 rows)
        x0 = 2 * (40 + 5)
        for r in range(8):
            bits = [(raster.CHARSET[8 * 0x2F + 7 + r] >> (7 - c)) & 1 for c in range(8)]
            for line in (0x30 + 2 * r, 0x31 + 2 * r):
                assert [int(f[line, x0 + 2 * c] != BG) for c in range(8)] == bits
        assert max(lit_lines(f)) < 0x30 + 16 and f[0x30 + 16].max() == BG


def test_height_counts_from_y_too():
    # y/2 mod 8 enters the rule: Y = 0x22 (y/2 = 17) and pointer 8c - 17 is still glyph c
    v = regs()
    put_char(v, 0, 0x22, 40, 0x2F)
    f, _, _ = frame(v)
    assert lit_lines(f) == list(range(0x22, 0x22 + 14))


def test_ntsc_hides_majors_above_y_0e_pal_shows_them():
    v = regs()
    put_char(v, 0, 0x0C, 40, 0x2F)
    assert lit_lines(frame(v, ntsc=False)[0]) == list(range(0x0C, 0x0C + 14))
    assert lit_lines(frame(v, ntsc=True)[0]) == []
    put_char(v, 0, 0x0E, 40, 0x2F)
    assert lit_lines(frame(v, ntsc=True)[0]) == list(range(0x0E, 0x0E + 14))


def test_char_colour_and_pointer_bit_8():
    v = regs()
    put_char(v, 5, 0x40, 20, 0x3F, colour=5)   # glyph 0x3F needs pointer bit 8
    assert v[0x13 + 20] & 1 == 1
    f, _, _ = frame(v)
    assert set(np.unique(f)) == {BG, 8 | 5}


def put_quad(v, q, y, x, glyphs, colours=(7, 7, 7, 7)):
    base = 0x40 + 16 * q
    v[base] = y
    v[base + 1] = x
    for j, (g, c) in enumerate(zip(glyphs, colours)):
        p = (8 * g - y // 2) & 0x1FF
        v[base + 2 + 4 * j] = p & 0xFF
        v[base + 3 + 4 * j] = (p >> 8) | c << 1


def test_quad_places_four_glyphs_32_clocks_apart():
    v = regs()
    put_quad(v, 2, 0x50, 30, (0x20, 0x25, 0x23, 0x1A), colours=(1, 2, 3, 4))
    f, _, _ = frame(v)
    x0 = 2 * (30 + 5)
    for j, (g, c) in enumerate(zip((0x20, 0x25, 0x23, 0x1A), (1, 2, 3, 4))):
        for line in range(0x50, 0x50 + 14):
            bits = glyph_bits(g, (line - 0x50) // 2)
            cells = f[line, x0 + 32 * j: x0 + 32 * j + 16]
            assert [int(cells[2 * k] == 8 | c) for k in range(8)] == bits
            assert (cells[0::2] == cells[1::2]).all()
    assert lit_lines(f) == list(range(0x50, 0x50 + 14))


def test_quad_height_comes_from_sub_character_3():
    v = regs()
    put_quad(v, 0, 0x50, 30, (0x2F, 0x2F, 0x2F, 0x2F))
    v[0x40 + 14] += 3            # sub-char 3 pointer advanced by 3: height 4 rows for all
    f, _, _ = frame(v)
    assert lit_lines(f) == list(range(0x50, 0x50 + 8))
    x0 = 2 * (30 + 5)
    # sub-character 0 shows its own first 4 rows (solid), not cut at the top
    assert (f[0x50:0x58, x0:x0 + 16] == 15).all()


def put_sprite(v, i, y, x, shape, attr):
    v[4 * i: 4 * i + 3] = (y, x, attr)
    v[0x80 + 8 * i: 0x88 + 8 * i] = shape


def sprite_cols(f, line, x0, n):
    return [int(f[line, x] != BG) for x in range(x0, x0 + n)]


def test_sprite_bit0_is_leftmost_each_pixel_2x2():
    v = regs()
    put_sprite(v, 1, 100, 50, [0x01, 0x80, 0x03, 0, 0, 0, 0, 0xFF], attr=6 << 3)
    f, _, _ = frame(v)
    x0 = 2 * (50 + 5)
    assert sprite_cols(f, 100, x0, 16) == [1, 1] + [0] * 14
    assert sprite_cols(f, 101, x0, 16) == [1, 1] + [0] * 14
    assert sprite_cols(f, 102, x0, 16) == [0] * 14 + [1, 1]
    assert sprite_cols(f, 104, x0, 16) == [1, 1, 1, 1] + [0] * 12
    assert sprite_cols(f, 114, x0, 16) == [1] * 16
    assert lit_lines(f) == [100, 101, 102, 103, 104, 105, 114, 115]
    assert set(np.unique(f)) == {BG, 8 | 6}


def test_sprite_zoom_doubles_both_ways():
    v = regs()
    put_sprite(v, 0, 60, 20, [0x05] + [0] * 6 + [0x80], attr=0x04 | 1 << 3)
    f, _, _ = frame(v)
    x0 = 2 * (20 + 5)
    for line in range(60, 64):
        assert sprite_cols(f, line, x0, 32) == [1] * 4 + [0] * 4 + [1] * 4 + [0] * 20
    assert lit_lines(f) == [60, 61, 62, 63, 88, 89, 90, 91]
    assert sprite_cols(f, 88, x0, 32) == [0] * 28 + [1] * 4


@pytest.mark.parametrize("mode, shifted_rows", [(0, ()), (1, range(8)), (2, (0, 2, 4, 6)),
                                                (3, (1, 3, 5, 7))])
@pytest.mark.parametrize("zoom", [0, 4])
def test_sprite_x9_and_alternate_row_shift(mode, shifted_rows, zoom):
    v = regs()
    put_sprite(v, 2, 40, 60, [0x01] * 8, attr=mode | zoom | 7 << 3)
    f, _, _ = frame(v)
    size = 4 if zoom else 2
    x0 = 2 * (60 + 5)
    for r in range(8):
        first = x0 + (size // 2 if r in shifted_rows else 0)
        for line in range(40 + size * r, 40 + size * (r + 1)):
            lit = [x for x in range(raster.WIDTH) if f[line, x] != BG]
            assert lit == list(range(first, first + size)), (r, line)


def test_sprite_clipped_at_right_edge():
    v = regs()
    put_sprite(v, 0, 10, 172, [0xFF] * 8, attr=7 << 3)   # starts at 354
    f, _, _ = frame(v)
    assert (f[10, 354:] == 15).all() and (f[10, :354] == BG).all()


def grid_regs(ctrl=GRID, colour=0x07):
    return regs(ctrl=ctrl, colour=colour)


def test_horizontal_segment_position():
    v = grid_regs()
    v[0xC3] = 1 << 2            # column 3, row 2
    f, _, _ = frame(v)
    assert lit_lines(f) == [72, 73, 74]
    lit = [x for x in range(raster.WIDTH) if f[72, x] != BG]
    assert lit == list(range(26 + 96, 26 + 96 + 36))
    assert set(np.unique(f)) == {BG, 7}      # grid colour white-without-intensity = light grey


def test_row_8_uses_d_registers():
    v = grid_regs()
    v[0xD0] = 1
    v[0xD8] = 1
    f, _, _ = frame(v)
    assert lit_lines(f) == [216, 217, 218]
    lit = [x for x in range(raster.WIDTH) if f[216, x] != BG]
    assert lit == list(range(26, 62)) + list(range(26 + 256, 26 + 256 + 36))


def test_vertical_segments_and_fill():
    v = grid_regs()
    v[0xE9] = 1 << 7             # line 9, row 7
    f, _, _ = frame(v)
    assert lit_lines(f) == list(range(192, 216))
    assert [x for x in range(raster.WIDTH) if f[200, x] != BG] == list(range(314, 318))
    v[0xA0] = GRID | 0x80
    f, _, _ = frame(v)
    assert [x for x in range(raster.WIDTH) if f[200, x] != BG] == list(range(314, 346))


def test_dots_at_every_crossing_even_without_segments():
    v = grid_regs(ctrl=GRID | 0x40)
    f, _, _ = frame(v)
    assert lit_lines(f) == [y for r in range(9) for y in (24 + 24 * r, 25 + 24 * r, 26 + 24 * r)]
    assert [x for x in range(raster.WIDTH) if f[24, x] != BG] == [
        26 + 32 * k + d for k in range(10) for d in range(4)]


@pytest.mark.parametrize("colour, index", [(0x00, 0), (0x04, 1), (0x02, 2), (0x01, 4),
                                           (0x44, 9), (0x47, 15), (0x43, 14)])
def test_grid_colour_and_luminance(colour, index):
    v = grid_regs(colour=colour | 0x08)        # background blue
    v[0xE0] = 1
    f, _, _ = frame(v)
    assert f[30, 26] == index and f[30, 0] == 4


@pytest.mark.parametrize("bits, index", [(0, 0), (1, 4), (2, 2), (4, 1), (7, 7)])
def test_background_colour(bits, index):
    f, _, _ = frame(regs(colour=bits << 3))
    assert (f == index).all()


def test_lum_forces_intensity_everywhere():
    v = grid_regs(colour=0x28 | 0x02)     # background red+blue (5), grid green
    v[0xE0] = 1
    f, _, _ = frame(v, lum=True)
    assert f[0, 0] == 13 and f[30, 26] == 10


def test_display_off_hides_objects_and_grid():
    v = regs(ctrl=0, colour=0x10)
    put_char(v, 0, 0x20, 8, 0x2F)
    v[0xE0] = 0xFF
    f, res, st = frame(v)
    assert (f == 2).all() and res == 0 and st == 0


# ---------------------------------------------------------------- priorities
def test_sprites_over_chars_over_grid_and_sprite_0_on_top():
    v = regs(ctrl=GRID | OBJECTS, colour=0x01)       # grid blue (4)
    v[0xE0] = 0xFF                                    # vertical line 0 at 26..29
    put_char(v, 0, 0x30, 8, 0x2F, colour=1)           # solid block from 26 (red, 9)
    put_sprite(v, 1, 0x30, 9, [0xFF] * 8, attr=2 << 3)  # from 28 (green, 10)
    put_sprite(v, 0, 0x30, 10, [0xFF] * 8, attr=4 << 3)  # from 30 (blue, 12)
    f, _, _ = frame(v)
    assert list(f[0x30, 24:48]) == [0, 0, 9, 9, 10, 10] + [12] * 16 + [0, 0]
    assert f[0x28, 26] == 4


def test_overlapping_majors_first_drawn_keeps_lit_pixels_and_sets_status():
    v = regs()
    put_char(v, 11, 0x30, 20, 0x31, colour=1)   # ball, red, drawn first
    put_char(v, 0, 0x30, 24, 0x2F, colour=2)    # block 8 clocks to the right, drawn later
    f, res, st = frame(v)
    assert st == 0x80 and res == 0
    x11, x0 = 2 * 25, 2 * 29
    line = 0x30 + 2 * 3          # ball row 3 = 0x7E: ball lit at 52..63 (cols 1..6)
    ball = [(raster.CHARSET[8 * 0x31 + 3] >> (7 - c)) & 1 for c in range(8)]
    for c in range(8):
        for d in range(2):
            x = x11 + 2 * c + d
            if x < x0:
                assert f[line, x] == (9 if ball[c] else 0)
            else:       # overlap: the ball keeps its lit pixels, the block shows elsewhere
                assert f[line, x] == (9 if ball[c] else 10)
    assert (f[line, x11 + 16:x0 + 16] == 10).all()


def test_quads_drawn_before_chars_keep_priority():
    v = regs()
    put_quad(v, 0, 0x30, 20, (0x2F, 0x0C, 0x0C, 0x0C), colours=(1, 1, 1, 1))
    put_char(v, 11, 0x30, 20, 0x2F, colour=2)
    f, _, st = frame(v)
    assert st == 0x80 and (f[0x30:0x3E, 50:66] == 9).all()


def test_majors_side_by_side_do_not_overlap():
    v = regs()
    put_char(v, 0, 0x30, 20, 0x2F)
    put_char(v, 1, 0x30, 28, 0x2F)
    assert frame(v)[2] == 0


# ---------------------------------------------------------------- collisions
def collide(v, mask):
    v[0xA2] = mask
    return frame(v)[1]


def test_no_mask_no_result():
    v = regs()
    put_sprite(v, 0, 0x30, 20, [0xFF] * 8, attr=0)
    put_sprite(v, 1, 0x30, 20, [0xFF] * 8, attr=0)
    assert collide(v, 0) == 0


def test_sprite_sprite_collision():
    v = regs()
    put_sprite(v, 0, 0x30, 20, [0xFF] * 8, attr=0)
    put_sprite(v, 3, 0x30, 27, [0xFF] * 8, attr=0)
    assert collide(v, 0x01) == 0x08       # watching sprite 0 reports sprite 3
    assert collide(v, 0x08) == 0x01
    assert collide(v, 0x02) == 0          # sprite 1 is not involved
    v[0x0D] = 28                          # sprite 3 moved to start exactly after sprite 0
    assert collide(v, 0x01) == 0


def test_sprite_char_collision_reports_only_the_other_class():
    v = regs()
    put_sprite(v, 0, 0x30, 20, [0xFF] * 8, attr=0)
    put_char(v, 0, 0x30, 20, 0x2F)
    assert collide(v, 0x01) == 0x80
    assert collide(v, 0x80) == 0x01
    assert collide(v, 0x81) == 0x81


@pytest.mark.parametrize("reg, cls", [(0xC0, 0x20), (0xE0, 0x10)])
def test_grid_collisions_with_sprite_and_char(reg, cls):
    v = regs(ctrl=GRID | OBJECTS)
    v[reg] = 1 << 1 if reg == 0xC0 else 1      # hbar row 1 at 48..50 / vline 0 rows 24..47
    line = 48 if reg == 0xC0 else 30
    put_sprite(v, 2, line, 8, [0xFF] * 8, attr=0)     # sprite from 26
    assert collide(v, cls) == 0x04
    assert collide(v, 0x04) == cls
    v[0x08] = 0xF8
    put_char(v, 0, line & ~1, 8, 0x2F)
    assert collide(v, cls) == 0x80
    assert collide(v, 0x80) == cls


def test_grid_does_not_hit_grid():
    v = grid_regs(ctrl=GRID | 0x40)
    v[0xC0:0xC9] = 0xFF
    v[0xE0:0xEA] = 0xFF
    assert collide(v, 0xFF) == 0


def test_edge_rule_sprite_left_of_char():
    # sprite ends at pixel 41, char starts at 42 -> they touch; MAME reports it
    v = regs()
    put_sprite(v, 1, 0x30, 8, [0xFF] * 8, attr=0)     # 26..41
    put_char(v, 0, 0x30, 16, 0x2F)                    # 42..57
    assert collide(v, 0x02) == 0x80
    assert collide(v, 0x80) == 0x02
    v[0x11] = 17                                      # char one unit further: gap of 2 clocks
    assert collide(v, 0x82) == 0


def test_edge_rule_char_left_of_sprite_does_not_count():
    v = regs()
    put_char(v, 0, 0x30, 8, 0x2F)                     # 26..41
    put_sprite(v, 1, 0x30, 16, [0xFF] * 8, attr=0)    # 42..57
    assert collide(v, 0x82) == 0


def test_edge_rule_grid_left_of_sprite_and_char():
    v = regs(ctrl=GRID | OBJECTS)
    v[0xE0] = 1                                       # vertical line 0 at 26..29, lines 24..47
    put_sprite(v, 0, 30, 10, [0xFF] * 8, attr=0)      # from 30
    assert collide(v, 0x10) == 0x01
    assert collide(v, 0x01) == 0x10
    v[0x00] = 0xF8
    put_char(v, 0, 30, 10, 0x2F)
    assert collide(v, 0x10) == 0x80
    assert collide(v, 0x80) == 0x10


def test_edge_rule_sprite_left_of_sprite_does_not_count():
    v = regs()
    put_sprite(v, 0, 0x30, 8, [0xFF] * 8, attr=0)     # 26..41
    put_sprite(v, 1, 0x30, 16, [0xFF] * 8, attr=0)    # 42..57
    assert collide(v, 0x03) == 0


def test_transparent_pixels_never_collide():
    v = regs()
    put_sprite(v, 0, 0x30, 20, [0x55] * 8, attr=0)
    put_sprite(v, 1, 0x30, 21, [0x55] * 8, attr=0)    # one unit right: lit pixels interleave
    assert collide(v, 0x01) == 0
    v[0x05] = 20
    assert collide(v, 0x01) == 0x02                   # same place, same shape: they meet
    v[0x88:0x90] = 0xAA                               # complementary shape, same place
    assert collide(v, 0x01) == 0


# ---------------------------------------------------------------- segments
def busy_regs():
    v = regs(ctrl=GRID | OBJECTS | 0x40, colour=0x5A)
    v[0xC0:0xC9] = 0x5A
    v[0xE0:0xEA] = 0xA5
    for i in range(12):
        put_char(v, i, 0x20 + 12 * i, 4 + 13 * i, (7 * i) & 63, colour=i & 7)
    put_quad(v, 1, 0x60, 30, (1, 2, 3, 4))
    for i in range(4):
        put_sprite(v, i, 0x30 + 20 * i, 10 + 30 * i, [0x3C, 0x7E, 0xFF, 0xDB, 0xFF, 0x24, 0x5A, 0x81],
                   attr=(i & 3) | (4 if i & 1 else 0) | (i + 1) << 3)
    v[0xA2] = 0xFF
    return v


@pytest.mark.parametrize("cuts", [(180,), (1, 2, 3), (26, 41, 42, 43, 100), tuple(range(5, 360, 7))])
def test_segments_give_the_same_pixels_and_collisions_as_whole_lines(cuts):
    v = busy_regs()
    whole = np.zeros((raster.HEIGHT, raster.WIDTH), np.uint8)
    render(v, False, False, whole)
    pieces = np.zeros_like(whole)
    bounds = (0,) + cuts + (raster.WIDTH,)
    for with_scratch in (True, False):
        scratch = new_scratch()
        total_r = total_s = 0
        for line in range(raster.HEIGHT):
            r_line = s_line = 0
            for a, b in zip(bounds, bounds[1:]):
                r, s = draw(v, line, a, b, pieces[line], scratch if with_scratch else None)
                r_line |= r
                s_line |= s
            wr, ws = draw(v, line, 0, raster.WIDTH, whole[line])
            assert (r_line, s_line) == (wr, ws), line
            total_r |= r_line
        assert (pieces == whole).all()
        assert total_r != 0


def test_mid_line_register_change_takes_effect_from_the_beam():
    v = regs(colour=0x08)                 # blue background
    row = np.zeros(raster.WIDTH, np.uint8)
    scratch = new_scratch()
    draw(v, 50, 0, 100, row, scratch)
    v[0xA3] = 0x20                        # red from pixel 100 on
    draw(v, 50, 100, raster.WIDTH, row, scratch)
    assert (row[:100] == 4).all() and (row[100:] == 1).all()


def test_edge_at_segment_boundary_uses_the_pixel_drawn_before():
    # grid line 0 (26..29) drawn, then the grid switched off before pixel 30 where a sprite
    # starts: MAME's kept class map still sees the grid to the left of the sprite.
    v = regs(ctrl=GRID | OBJECTS)
    v[0xE0] = 1
    put_sprite(v, 0, 30, 10, [0xFF] * 8, attr=0)
    v[0xA2] = 0x01
    scratch = new_scratch()
    row = np.zeros(raster.WIDTH, np.uint8)
    draw(v, 30, 0, 30, row, scratch)
    v[0xA0] = OBJECTS
    r, _ = draw(v, 30, 30, raster.WIDTH, row, scratch)
    assert r == 0x10


def test_scratch_fields_have_bytes_of_their_own_inside_the_scratch():
    """The offsets the compiled code uses (raster._NAME, one per row of SCRATCH_FIELDS): every
    field has its own bytes, in the table's order, and all of them fit in SCRATCH_SIZE, which
    fits in the SCRATCH_ROWS frame rows the machine keeps after the picture."""
    names = [name for name, _count, _size, _meaning in raster.SCRATCH_FIELDS if name]
    assert len(set(names)) == len(names)
    fields = [(getattr(raster, name), count * size, name)
              for name, count, size, _meaning in raster.SCRATCH_FIELDS if name]
    assert fields == sorted(fields)
    for (at, size, name), (after, _size, following) in zip(fields, fields[1:]):
        assert at + size <= after, f"{name} runs into {following}"
    last_at, last_size, _name = fields[-1]
    assert last_at + last_size <= raster.SCRATCH_SIZE <= raster.SCRATCH_ROWS * raster.WIDTH
    assert raster.SCRATCH_SIZE == sum(count * size for _n, count, size, _m in raster.SCRATCH_FIELDS)


def test_two_byte_fields_keep_the_low_byte_first():
    """The byte order save states hold DRAWN and the object span in."""
    s = np.zeros(4, np.uint8)
    raster._put16(s, 1, raster.WIDTH)
    assert s.tolist() == [0, raster.WIDTH & 0xFF, raster.WIDTH >> 8, 0]
    assert raster._get16(s, 1) == raster.WIDTH
