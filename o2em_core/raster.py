"""Drawing of one scanline of the Intel 8244/8245 picture (hardware.md §7–9).

Interface contract between the machine core (which keeps time and decides *when* a piece of a line
is drawn) and the drawing rules (which decide *what* the pixels are):

    draw_segment(vregs, ntsc, line, x0, x1, lum_forced, row) -> (collision_bits, status_bits)

* ``vregs``: uint8[256], the VDC register file as the chip holds it (0xA2 holds the collision
  *mask*; the collision *result* is kept by the caller).
* ``ntsc``: True for the 8244, False for the 8245 (the 8244 hides majors with Y < 0x0E).
* ``line``: scanline 0..242; ``x0``..``x1``: half-open range of pixel clocks (0..360) to draw.
* ``lum_forced``: True while P17 = 0 (intensity forced on for every pixel).
* ``row``: uint8[360] view of the frame row; pixels x0..x1-1 receive palette indices.
* Returns the collision bits to OR into the result register 0xA2 and the status bits to OR into
  0xA1 (bit 7: major-system overlap) for pixels x0..x1-1 only.

The whole line is composed from the current registers and only the requested pixels are written,
so that a register written mid-line takes effect from the beam position on (MAME's model).

Drawing model (MAME's scanline renderer, hardware.md §8.2): background; grid (horizontal
segments, dots, vertical segments); quads 3→0 and characters 11→0 (the major system, where the
first major to claim a pixel keeps it and a later one sets the overlap status bit); sprites 3→0
(the minor system); then the collision edge pass, in which every pixel also sees the classes of
its left neighbour. Each pixel keeps an 8-bit class map (bits 0–3 sprites, 4 vertical grid,
5 horizontal grid and dots, 7 majors) against which the collision mask 0xA2 is tested.

The class map of a segment is rebuilt from the registers in force for that segment; the edge pass
at ``x0`` rebuilds the left neighbour ``x0 - 1`` from the same registers, so it differs from MAME
only when a register changes on the very pixel where two classes touch edge to edge.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .charset import CHARSET

WIDTH = 360   # pixel clocks shown per line (MAME screen)
HEIGHT = 243  # scanlines 0..242

# Collision classes (hardware.md §9.1)
CLASS_VGRID = 0x10
CLASS_HGRID = 0x20   # horizontal segments and dots
CLASS_MAJOR = 0x80   # characters and quads
STATUS_OVERLAP = 0x80  # 0xA1 bit 7: two majors met on a line
OVERLAP = 0x100        # internal flag returned with result bits

# Scratch layout: class map, major claims, then which line and how far it is drawn.
_LINE = 2 * WIDTH
_DRAWN_LO = 2 * WIDTH + 1
_DRAWN_HI = 2 * WIDTH + 2
SCRATCH_SIZE = 2 * WIDTH + 4

# Control register 0xA0 bits (hardware.md §7.7)
CTRL_GRID = 0x08
CTRL_OBJECTS = 0x20
CTRL_DOTS = 0x40
CTRL_FILL = 0x80

GRID_TOP = 24        # first grid scanline
GRID_BOTTOM = 218    # last grid scanline
GRID_ROW = 24        # scanlines per grid row
GRID_X = 26          # pixel clock of vertical line 0 (unit 13)
GRID_COLUMN = 32     # pixel clocks between vertical lines (16 units)



# 0xA3 bits 5/4/3 = R/G/B -> palette index I·8 + B·4 + G·2 + R (hardware.md §8.3)
BACKGROUND_INDEX = np.array([((v >> 2) & 1) | (((v >> 1) & 1) << 1) | ((v & 1) << 2)
                             for v in range(8)], dtype=np.uint8)
# 0xA3 bit 6 = I, bits 2/1/0 = R/G/B, indexed by (colour & 0x47) folded to 4 bits
GRID_INDEX = np.array([((v >> 3) << 3) | (v & 1) << 2 | ((v >> 1) & 1) << 1 | ((v >> 2) & 1)
                       for v in range(16)], dtype=np.uint8)


@njit(cache=True, inline="always")
def _collide(mask: int, present: int, bits: int) -> int:
    """Result bits when an object of classes ``bits`` lands on pixels holding ``present``:
    the newcomer is reported if a present class is watched, the present ones if it is."""
    r = 0
    if mask & present:
        r |= bits
    if mask & bits:
        r |= present
    return r


@njit(cache=True, inline="always")
def _grid_span(a: int, b: int, lo: int, x0: int, x1: int, bits: int, colour: int,
               cmap: np.ndarray, row: np.ndarray) -> None:
    """Grid pixels a..b-1: only mark the class map (the grid never hits anything itself)."""
    for px in range(max(a, lo), min(b, x1)):
        cmap[px] |= bits
    for px in range(max(a, x0), min(b, x1)):
        row[px] = colour


@njit(cache=True)
def _draw_grid(vregs: np.ndarray, line: int, lo: int, x0: int, x1: int,
               cmap: np.ndarray, row: np.ndarray) -> None:
    """Horizontal segments, dots, vertical segments (hardware.md §7.6), in the grid colour."""
    c = vregs[0xA3]
    colour = GRID_INDEX[((c >> 3) & 8) | (c & 7)]
    ctrl = vregs[0xA0]
    r = (line - GRID_TOP) // GRID_ROW           # grid row containing this line
    on_bar = (line - GRID_TOP) % GRID_ROW < 3   # the 3 lines of a horizontal row
    if on_bar and r <= 8:
        for col in range(9):
            if ((vregs[0xD0 + col] << 8 | vregs[0xC0 + col]) >> r) & 1:
                a = GRID_X + GRID_COLUMN * col
                _grid_span(a, a + 36, lo, x0, x1, CLASS_HGRID, colour, cmap, row)
        if ctrl & CTRL_DOTS:
            for v in range(10):
                a = GRID_X + GRID_COLUMN * v
                _grid_span(a, a + 4, lo, x0, x1, CLASS_HGRID, colour, cmap, row)
    if r <= 7:
        width = 32 if ctrl & CTRL_FILL else 4
        for v in range(10):
            if (vregs[0xE0 + v] >> r) & 1:
                a = GRID_X + GRID_COLUMN * v
                _grid_span(a, a + width, lo, x0, x1, CLASS_VGRID, colour, cmap, row)


@njit(cache=True, inline="always")
def _major_height(y: int, ptr: int) -> int:
    """Rows shown: until the ROM address reaches row 6 of its glyph slot; row 7 start shows 8."""
    h = 7 - (((y >> 1) + ptr) & 7)
    return 8 if h == 0 else h


@njit(cache=True)
def _draw_cell(vregs: np.ndarray, line: int, y: int, x: int, reg: int, lo: int, x0: int, x1: int,
               mask: int, cmap: np.ndarray, claimed: np.ndarray, row: np.ndarray) -> int:
    """One character cell (16 pixel clocks) of a major whose pointer/attribute are at reg,
    reg+1. Returns result bits | OVERLAP if it met a cell drawn before it."""
    attr = vregs[reg + 1]
    address = ((attr & 1) << 8 | vregs[reg]) + (y >> 1) + ((line - y) >> 1)
    bits = CHARSET[address & 0x1FF]
    colour = 8 | ((attr >> 1) & 7)
    out = 0
    for px in range(max(x, lo), min(x + 16, x1)):
        lit = (bits >> (7 - ((px - x) >> 1))) & 1      # bit 7 is the leftmost pixel
        if px < x0:
            if lit:
                cmap[px] |= CLASS_MAJOR
            continue
        present = cmap[px]
        if claimed[px]:                 # a higher-index major was here first
            out |= OVERLAP
            if present & CLASS_MAJOR:
                continue
        else:
            claimed[px] = 1
        if lit:
            out |= _collide(mask, present, CLASS_MAJOR)
            cmap[px] = present | CLASS_MAJOR
            row[px] = colour
    return out


@njit(cache=True)
def _draw_majors(vregs: np.ndarray, ntsc: bool, line: int, lo: int, x0: int, x1: int,
                 mask: int, cmap: np.ndarray, claimed: np.ndarray,
                 row: np.ndarray) -> tuple[int, int, int]:
    """Quads 3→0 then characters 11→0 (hardware.md §7.4, §7.5). Returns the result/overlap
    bits and the pixel span the drawn cells cover."""
    out = 0
    left = WIDTH
    right = 0
    for q in range(3, -1, -1):
        base = 0x40 + 16 * q
        y = vregs[base]
        if ntsc and y < 0x0E:           # the 8244 does not show majors above Y = 0x0E
            continue
        h = _major_height(y, vregs[base + 14])     # sub-character 3 sets the height
        if y <= line < y + 2 * h:
            x = 2 * (vregs[base + 1] + 5)
            left = min(left, x)
            right = max(right, x + 112)
            for j in range(4):
                out |= _draw_cell(vregs, line, y, x + 32 * j, base + 2 + 4 * j, lo, x0, x1,
                                  mask, cmap, claimed, row)
    for i in range(11, -1, -1):
        base = 0x10 + 4 * i
        y = vregs[base]
        if ntsc and y < 0x0E:
            continue
        if y <= line < y + 2 * _major_height(y, vregs[base + 2]):
            x = 2 * (vregs[base + 1] + 5)
            left = min(left, x)
            right = max(right, x + 16)
            out |= _draw_cell(vregs, line, y, x, base + 2, lo, x0, x1, mask, cmap, claimed, row)
    return out, left, right


@njit(cache=True)
def _draw_sprites(vregs: np.ndarray, line: int, lo: int, x0: int, x1: int, mask: int,
                  cmap: np.ndarray, row: np.ndarray) -> tuple[int, int, int]:
    """Sprites 3→0 (hardware.md §7.3): bit 0 of a shape byte is the leftmost pixel. Returns the
    result bits and the pixel span the drawn sprites cover."""
    out = 0
    left = WIDTH
    right = 0
    for i in range(3, -1, -1):
        y = vregs[4 * i]
        attr = vregs[4 * i + 2]
        size = 4 if attr & 4 else 2                 # pixel clocks (and lines) per sprite pixel
        if not (y <= line < y + 8 * size):
            continue
        r = (line - y) // size
        shape = vregs[0x80 + 8 * i + r]
        if shape == 0:
            continue
        mode = attr & 3                             # S, X9
        shift = 1 if mode == 1 else ((r & 1) ^ 1 if mode == 2 else (r & 1 if mode == 3 else 0))
        x = 2 * (vregs[4 * i + 1] + 5) + shift * (size >> 1)
        left = min(left, x)
        right = max(right, x + 8 * size)
        colour = 8 | ((attr >> 3) & 7)
        bit = 1 << i
        for m in range(8):
            if (shape >> m) & 1:
                a = x + m * size
                for px in range(max(a, lo), min(a + size, x1)):
                    present = cmap[px]
                    if px >= x0:
                        out |= _collide(mask, present, bit)
                        row[px] = colour
                    cmap[px] = present | bit
    return out, left, right


@njit(cache=True)
def _edge_pass(x0: int, x1: int, mask: int, cmap: np.ndarray) -> int:
    """Each pixel also meets its left neighbour: grid/sprites left of a major, grid left of a
    sprite (MAME's edge rule, hardware.md §9.2). Only object pixels can be hit this way."""
    out = 0
    for x in range(max(x0, 1), x1):
        left = cmap[x - 1]
        here = cmap[x]
        if here & CLASS_MAJOR:
            out |= _collide(mask, left & 0x3F, CLASS_MAJOR)
        out |= _collide(mask, left & 0x30, here & 0x0F)
    return out


def new_scratch() -> np.ndarray:
    """Working memory of the line compositor (class map, major claims, how far the current line
    is drawn). Give one to ``draw_segment_with`` and zero it after loading a saved state."""
    return np.zeros(SCRATCH_SIZE, dtype=np.uint8)


@njit(cache=True)
def draw_segment_with(vregs: np.ndarray, ntsc: bool, line: int, x0: int, x1: int,
                      lum_forced: bool, row: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """``draw_segment`` with caller-owned working memory: the class map of the pixels drawn
    earlier on the same line is kept, so the edge pass at ``x0`` sees the left neighbour exactly
    as it was drawn (MAME keeps its collision map the same way)."""
    x0 = max(x0, 0)
    x1 = min(x1, WIDTH)
    if x1 <= x0:
        return 0, 0
    background = BACKGROUND_INDEX[(vregs[0xA3] >> 3) & 7]
    for px in range(x0, x1):
        row[px] = background
    cmap = scratch[:WIDTH]
    claimed = scratch[WIDTH:2 * WIDTH]
    # Continue the class map when this segment follows the previous one on the same line.
    follows = (x0 > 0 and scratch[_LINE] == (line & 0xFF) + 1
               and scratch[_DRAWN_LO] | scratch[_DRAWN_HI] << 8 == x0)
    lo = x0 if follows else max(x0 - 1, 0)
    scratch[_LINE] = (line & 0xFF) + 1
    scratch[_DRAWN_LO] = x1 & 0xFF
    scratch[_DRAWN_HI] = x1 >> 8
    ctrl = vregs[0xA0]
    grid = ctrl & CTRL_GRID and GRID_TOP <= line <= GRID_BOTTOM
    objects = ctrl & CTRL_OBJECTS and line < HEIGHT
    if not (grid or objects):
        cmap[x1 - 1] = 0            # the only class-map pixel a following segment reads
        if lum_forced:
            for px in range(x0, x1):
                row[px] |= 8
        return 0, 0
    for px in range(lo, x1):
        cmap[px] = 0
    mask = vregs[0xA2]
    result = 0
    status = 0
    left = WIDTH
    right = 0
    if grid:
        _draw_grid(vregs, line, lo, x0, x1, cmap, row)
    if objects:
        for px in range(x0, x1):
            claimed[px] = 0
        out, left, right = _draw_majors(vregs, ntsc, line, lo, x0, x1, mask, cmap, claimed, row)
        result |= out & 0xFF
        if out & OVERLAP:
            status |= STATUS_OVERLAP
        out, sleft, sright = _draw_sprites(vregs, line, lo, x0, x1, mask, cmap, row)
        result |= out
        left = min(left, sleft)
        right = max(right, sright)
    if mask and left < right:
        result |= _edge_pass(max(x0, left), min(x1, right), mask, cmap)
    if lum_forced:
        for px in range(x0, x1):
            row[px] |= 8            # P17 = 0 forces the intensity of every pixel (§8.3)
    return result, status


@njit(cache=True)
def draw_segment(vregs: np.ndarray, ntsc: bool, line: int, x0: int, x1: int,
                 lum_forced: bool, row: np.ndarray) -> tuple[int, int]:
    """Draw pixels x0..x1-1 of scanline ``line`` from the current registers; return the
    collision result bits and status bits these pixels produce. Without kept working memory the
    left neighbour of ``x0`` is rebuilt from the current registers."""
    return draw_segment_with(vregs, ntsc, line, x0, x1, lum_forced, row,
                             np.zeros(SCRATCH_SIZE, dtype=np.uint8))


@njit(cache=True)
def render_frame(vregs: np.ndarray, ntsc: bool, lum_forced: bool,
                 frame: np.ndarray) -> tuple[int, int]:
    """Draw every line of ``frame`` (uint8 [243, 360]) from one register state, as the chip does
    when no register changes during the frame; returns the OR of collision and status bits."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.uint8)
    result = 0
    status = 0
    for line in range(frame.shape[0]):
        r, s = draw_segment_with(vregs, ntsc, line, 0, WIDTH, lum_forced, frame[line], scratch)
        result |= r
        status |= s
    return result, status
