"""Drawing of one scanline of the Intel 8244/8245 picture (docs/hardware.md §7–9).

Interface contract between the machine core (which keeps time and decides *when* a piece of a line
is drawn: vdc.py) and the drawing rules (which decide *what* the pixels are):

    draw_into(vregs, ntsc, line, x0, x1, lum_forced, row, r, s, b, written)
        -> (collision_bits, status_bits)

* ``vregs``: uint8[256], the VDC register file as the chip holds it (0xA2 holds the collision
  *mask*; the collision *result* is kept by the caller).
* ``ntsc``: True for the 8244, False for the 8245 (the 8244 hides majors with Y below
  ``vdc_regs.NTSC_MAJOR_TOP``).
* ``line``: scanline 0..242; ``x0``..``x1``: half-open range of pixel clocks (0..360) to draw.
* ``lum_forced``: True while P17 = 0 (intensity forced on for every pixel).
* ``row[r:]``: the frame row; pixels x0..x1-1 receive palette indices.
* ``s[b:]``: the scratch (SCRATCH_FIELDS), kept after the frame in a ``new_work()`` array, one
  per machine and part of its state: the whole line is composed once per register state and
  later segments of the line only copy pixels, which keeps the many small catch-up segments of
  a busy program cheap, and the left neighbour of ``x0`` is the one actually drawn.
* ``written=False`` promises that ``vregs`` is unchanged since the last call with this scratch,
  which saves comparing it with the snapshot.
* Returns the collision bits to OR into the result register 0xA2 and the status bits to OR into
  0xA1 (bit 7: major-system overlap) for pixels x0..x1-1 only.

Background and grid of a line come from a template per grid pattern, made once per register
state. A composed line is kept while the registers the drawing rules read hold still: each rule
declares them (``@reads``), and the cache compares their union (``WATCHED``).

Drawing model (MAME's scanline renderer, docs/hardware.md §8.2): background; grid (horizontal
segments, dots, vertical segments); quads 3→0 and characters 11→0 (the major system, where the
first major to claim a pixel keeps it and a later one sets the overlap status bit); sprites 3→0
(the minor system); then the collision edge pass, in which every pixel also meets the classes of
its left neighbour. Each pixel keeps an 8-bit class map (bits 0–3 sprites, 4 vertical grid,
5 horizontal grid and dots, 7 majors) against which the collision mask 0xA2 is tested. A
register written mid-line takes effect from the beam position on; at the first pixel after the
change the edge pass sees the left neighbour as drawn with the old registers (MAME keeps its
collision map the same way).

The edge pass is current MAME's (docs/hardware.md §9.2) and is on by default. MAME 0.251, the version
installed as our oracle, has no edge pass: objects that only touch edge to edge do not collide
there. ``set_edge_pass(work, False)`` gives 0.251's results; tests/vdc/test_vs_mame.py shows both.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

import numpy as np
from numba import njit, types

from i18n import _

from . import linkage
from .charset import CHARSET
from .layout import Table
from .vdc_regs import (CHAR_BASE, CHAR_COLOUR_SHIFT, CHAR_POINTER_BIT8, CHAR_SIZE, CHARS,
                       CLASS_GRID, CLASS_HGRID, CLASS_MAJOR, CLASS_SPRITES, CLASS_VGRID,
                       COLLISION, COLOUR, COLOUR_BACKGROUND_SHIFT, COLOUR_GRID,
                       COLOUR_GRID_BRIGHT_SHIFT, CONTROL, CTRL_DOTS, CTRL_FILL, CTRL_GRID,
                       CTRL_OBJECTS, GRID_H, GRID_H8, GRID_H_COLUMNS, GRID_V, GRID_V_END,
                       GRID_V_LINES, INTENSITY, NTSC_MAJOR_TOP, OBJ_ATTR, OBJ_POINTER, OBJ_X,
                       OBJ_Y, OBJECTS_END, QUAD_BASE, QUAD_LAST_POINTER, QUAD_SIZE, QUAD_SUB_BITS,
                       QUADS, RGB, SHAPE_BASE, SHAPE_ROWS, SPRITE_ATTR, SPRITE_BASE,
                       SPRITE_COLOUR_SHIFT, SPRITE_SHIFT_MODE, SPRITE_SIZE, SPRITE_ZOOM, SPRITES,
                       ST_OVERLAP, screen_x)

WIDTH = 360   # pixel clocks shown per line (MAME screen)
HEIGHT = 243  # scanlines 0..242

# Collision classes: CLASS_* in vdc_regs (docs/hardware.md §9.1)
OVERLAP = 0x100        # internal: returned with hit bits when two majors met
NO_EDGE_PASS = 0x01    # scratch rule flag, see set_edge_pass

GRID_TOP = 24        # first grid scanline
GRID_BOTTOM = 218    # last grid scanline
GRID_ROW = 24        # scanlines per grid row
GRID_X = 26          # pixel clock of vertical line 0 (unit 13)
GRID_COLUMN = 32     # pixel clocks between vertical lines (16 units)

# ---- What each drawing rule reads: the line cache's dependencies ------------------------------
# A composed line is reused while the registers it was composed from hold still
# (_same_registers). Which registers those are is not a separate list kept in step by hand:
# every function that reads the register file (``vregs``) declares the spans it reads with
# ``@reads``, the cache compares exactly their union (WATCHED), and tests/vdc/test_rule_reads.py
# runs the rules on many register states and fails when one reads a register it did not declare.
# Spans are (first, end) of vdc_regs addresses.
SPRITE_REGS = (SPRITE_BASE, CHAR_BASE)              # sprites 0–3: Y, X, attribute (§7.3)
MAJOR_REGS = (CHAR_BASE, OBJECTS_END)               # characters and quads (§7.4, §7.5)
SHAPE_REGS = (SHAPE_BASE, SHAPE_BASE + SPRITES * SHAPE_ROWS)   # sprite shapes
CONTROL_REG = (CONTROL, CONTROL + 1)                # what is shown (§7.7)
COLLISION_REG = (COLLISION, COLLISION + 1)          # the collision mask (§9.1)
COLOUR_REG = (COLOUR, COLOUR + 1)                   # background and grid colour (§7.9)
GRID_REGS = (GRID_H, GRID_V_END)                    # the grid's segments (§7.6)

RULE_READS: dict[str, tuple[tuple[int, int], ...]] = {}    # rule name -> the spans it reads
_Rule = TypeVar("_Rule")


def reads(*spans: tuple[int, int]) -> Callable[[_Rule], _Rule]:
    """Declare the register spans a drawing rule reads (``RULE_READS``)."""
    def declare(rule: _Rule) -> _Rule:
        name: str = getattr(getattr(rule, "py_func", rule), "__name__")
        RULE_READS[name] = spans
        return rule
    return declare


def _merged(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The spans joined where they touch or overlap, in order."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)

# ---- The compositor's scratch (docs/video-and-sound.md, "The compositor's scratch") ----------
GRID_KINDS = 20          # _grid_kind values: 0 (no grid) .. 2 + 2·8 + 1
KIND_OBJECTS = 64        # added to a line's grid kind in _KIND when objects cover the line


class Field(NamedTuple):
    """One field of the scratch: ``count`` elements of ``size`` bytes (2: low byte first)."""

    name: str
    count: int
    size: int
    meaning: str


_SCRATCH: Table[Field] = Table("raster.SCRATCH_FIELDS", width=lambda row: row.count * row.size)


def _field(name: str, count: int, size: int, meaning: str) -> int:
    """Append a row to the scratch table; its offset (the bytes of the rows before it)."""
    return _SCRATCH.add(Field(name, count, size, meaning))


# One composed line and what it was composed from, in one uint8 array: a row per field, in the
# order the fields lie in memory; each offset is the bytes of the rows above it. Each name is
# written twice, as the module global (plain ints, which numba compiles in as constants, and
# which type checkers see) and as the row's name; ``Table.done`` holds them equal (layout.py).
# 2-byte fields are read and written through _get16/_put16. The bytes are saved with the machine
# (docs/emulator.md, "Save states"), so a row is never moved: new fields take a spare row or go at
# the end, and a change of any offset changes ``savestate.layout_fingerprint``.
#      global = _field(name,            elements,   bytes, what it holds)
_CMAP         = _field("_CMAP",         WIDTH,      1, "class bits per pixel")
_CLAIM        = _field("_CLAIM",        WIDTH,      1, "bit 0: a major claimed it, 1: two met")
_COLOUR       = _field("_COLOUR",       WIDTH,      1, "palette index per pixel (without LUM)")
_HITS         = _field("_HITS",         WIDTH,      1, "collision bits of drawing the pixel")
_EDGE         = _field("_EDGE",         WIDTH,      1, "collision bits of it meeting its left")
_SNAP         = _field("_SNAP",         256,        1, "registers the line was composed from")
_OBJECT_LINES = _field("_OBJECT_LINES", HEIGHT,     1, "per line: 1 if an object covers it")
_LINE         = _field("_LINE",         1,          1, "composed line + 1 (0: none)")
_NTSC         = _field("_NTSC",         1,          1, "snapshot's region: 2 NTSC, 1 PAL, 0 none")
_ACTIVE       = _field("_ACTIVE",       1,          1, "1 if more than background on the line")
_DRAWN        = _field("_DRAWN",        1,          2, "pixel the line is handed out up to")
_KIND         = _field("_KIND",         1,          1, "the composed line's _line_kind")
_SPAN_LEFT    = _field("_SPAN_LEFT",    1,          2, "pixels SPAN_LEFT..SPAN_RIGHT-1 hold")
_SPAN_RIGHT   = _field("_SPAN_RIGHT",   1,          2, "every object pixel of the line")
_RULES        = _field("_RULES",        1,          1, "bit 0: no edge pass (NO_EDGE_PASS)")
_TOTAL        = _field("_TOTAL",        1,          1, "OR of the line's hits and edge hits")
_OVERLAPS     = _field("_OVERLAPS",     1,          1, "1 if two majors met on the line")
_field(                 "",             3,          1, "spare")
_TPL_VALID    = _field("_TPL_VALID",    GRID_KINDS, 1, "per grid kind: 1 if the template is made")
_field(                 "",             4,          1, "spare")
_TPL          = _field("_TPL",          GRID_KINDS, 2 * WIDTH, "template: class map, colours")

SCRATCH_FIELDS: tuple[Field, ...] = _SCRATCH.done(globals())
SCRATCH_SIZE = _SCRATCH.size
SCRATCH_ROWS = -(-SCRATCH_SIZE // WIDTH)   # whole frame rows (a multiple of 8 bytes)

# 0xA3 bits 5/4/3 = R/G/B -> palette index I·8 + B·4 + G·2 + R (docs/hardware.md §8.3)
BACKGROUND_INDEX = np.array([((v >> 2) & 1) | (((v >> 1) & 1) << 1) | ((v & 1) << 2)
                             for v in range(8)], dtype=np.uint8)
# 0xA3 bit 6 = I, bits 2/1/0 = R/G/B, indexed by (colour & 0x47) folded to 4 bits
GRID_INDEX = np.array([((v >> 3) << 3) | (v & 1) << 2 | ((v >> 1) & 1) << 1 | ((v >> 2) & 1)
                       for v in range(16)], dtype=np.uint8)


# Every compiled function below indexes the scratch ``s`` from a base offset ``b`` (the
# scratch may sit behind the frame in a ``new_work()`` array) and a frame row ``row`` from
# ``r``: they run on numpy arrays (the public functions) and on the machine loop's pointers
# alike, and create no array views on the way (see pointer.py).

@njit(cache=True)
def _get16(s: np.ndarray, at: int) -> int:
    """The 2-byte field of the scratch at ``at`` (low byte first)."""
    return np.int64(s[at]) | np.int64(s[at + 1]) << 8


@njit(cache=True)
def _put16(s: np.ndarray, at: int, value: int) -> None:
    """Write the 2-byte field of the scratch at ``at`` (low byte first)."""
    s[at] = value & 0xFF
    s[at + 1] = (value >> 8) & 0xFF


@njit(cache=True)
def _collide(mask: int, present: int, bits: int) -> int:
    """Result bits when an object of classes ``bits`` lands on pixels holding ``present``:
    the newcomer is reported if a present class is watched, the present ones if it is."""
    r = np.int64(0)
    if mask & present:
        r |= bits
    if mask & bits:
        r |= present
    return r


@njit(cache=True)
def _edge(mask: int, left: int, here: int) -> int:
    """MAME's edge rule (docs/hardware.md §9.2): grid or sprites left of a major pixel, grid left of
    a sprite pixel count as touching."""
    r = np.int64(0)
    if here & CLASS_MAJOR:
        r |= _collide(mask, left & (CLASS_SPRITES | CLASS_GRID), np.int64(CLASS_MAJOR))
    return r | _collide(mask, left & CLASS_GRID, here & CLASS_SPRITES)


@njit(cache=True)
def _grid_span(a: int, b: int, bits: int, colour: int, s: np.ndarray, t: int) -> None:
    """Grid pixels a..b-1 of the template at t: they only mark the class map (the grid never
    hits anything)."""
    for px in range(a, min(b, WIDTH)):
        s[t + px] |= bits
        s[t + WIDTH + px] = colour


@reads(CONTROL_REG, COLOUR_REG, GRID_REGS)
@njit(cache=True)
def _draw_grid(vregs: np.ndarray, line: int, s: np.ndarray, t: int) -> None:
    """Horizontal segments, dots, vertical segments (docs/hardware.md §7.6), in the grid colour,
    into the template (class map, colours) at t."""
    c = vregs[COLOUR]
    colour = GRID_INDEX[((c >> COLOUR_GRID_BRIGHT_SHIFT) & INTENSITY) | (c & COLOUR_GRID)]
    ctrl = vregs[CONTROL]
    r = (line - GRID_TOP) // GRID_ROW           # grid row containing this line
    if (line - GRID_TOP) % GRID_ROW < 3 and r <= 8:   # the 3 lines of a horizontal row
        for col in range(GRID_H_COLUMNS):
            if ((np.int64(vregs[GRID_H8 + col]) << 8 | vregs[GRID_H + col]) >> r) & 1:
                a = GRID_X + GRID_COLUMN * col
                _grid_span(a, a + 36, np.int64(CLASS_HGRID), colour, s, t)
        if ctrl & CTRL_DOTS:
            for v in range(GRID_V_LINES):
                a = GRID_X + GRID_COLUMN * v
                _grid_span(a, a + 4, np.int64(CLASS_HGRID), colour, s, t)
    if r <= 7:
        width = 32 if ctrl & CTRL_FILL else 4
        for v in range(GRID_V_LINES):
            if (vregs[GRID_V + v] >> r) & 1:
                a = GRID_X + GRID_COLUMN * v
                _grid_span(a, a + width, np.int64(CLASS_VGRID), colour, s, t)


@njit(cache=True)
def _grid_kind(ctrl: int, line: int) -> int:
    """Lines of equal kind show the same grid: 0 = no grid, else 2 + 2·row + (on a bar)."""
    if not (ctrl & CTRL_GRID) or line < GRID_TOP or line > GRID_BOTTOM:
        return 0
    return 2 + 2 * ((line - GRID_TOP) // GRID_ROW) + (1 if (line - GRID_TOP) % GRID_ROW < 3 else 0)


@njit(cache=True)
def _line_kind(ctrl: int, line: int, s: np.ndarray, b: int) -> int:
    """What a composed line can be reused for (kept in _KIND): its grid kind, plus KIND_OBJECTS
    if an object of the snapshot covers it (below KIND_OBJECTS: grid and background only)."""
    return _grid_kind(ctrl, line) + KIND_OBJECTS * np.int64(s[b + _OBJECT_LINES + line])


@njit(cache=True)
def _major_height(y: int, ptr: int) -> int:
    """Rows shown: until the ROM address reaches row 6 of its glyph slot; row 7 start shows 8."""
    h = 7 - (((y >> 1) + ptr) & 7)
    return 8 if h == 0 else h


@reads(MAJOR_REGS)
@njit(cache=True)
def _major_lines(vregs: np.ndarray, ntsc: bool, base: int) -> tuple[int, int]:
    """The first scanline of the major (character, or quad by its first sub-character) whose
    registers start at ``base``, and how many scanlines it covers: two per row, as many rows as
    _major_height gives for its pointer (a quad's is sub-character 3's, docs/hardware.md §7.5);
    none on NTSC above Y = NTSC_MAJOR_TOP, where the 8244 does not show majors (§7.4)."""
    y = np.int64(vregs[base + OBJ_Y])
    if ntsc and y < NTSC_MAJOR_TOP:
        return y, 0
    pointer = base + QUAD_LAST_POINTER if base >= QUAD_BASE else base + OBJ_POINTER
    return y, 2 * _major_height(y, vregs[pointer])


@njit(cache=True)
def _dot_size(attr: int) -> int:
    """Pixel clocks (and lines) per dot of a sprite with attribute ``attr`` (§7.3)."""
    return 4 if attr & SPRITE_ZOOM else 2


@reads(MAJOR_REGS)
@njit(cache=True)
def _draw_cell(vregs: np.ndarray, line: int, y: int, x: int, reg: int, mask: int,
               s: np.ndarray, b: int) -> int:
    """One character cell (16 pixel clocks) of a major whose pointer/attribute are at reg,
    reg+1 (docs/hardware.md §7.4, MAME's major-pixel rule §9.2). Returns its hits | OVERLAP."""
    attr = np.int64(vregs[reg + OBJ_ATTR - OBJ_POINTER])
    address = ((attr & CHAR_POINTER_BIT8) << 8 | vregs[reg]) + (y >> 1) + ((line - y) >> 1)
    bits = np.int64(CHARSET[address & 0x1FF])
    colour = INTENSITY | ((attr >> CHAR_COLOUR_SHIFT) & RGB)
    out = 0
    for k in range(min(16, WIDTH - x)):
        px = b + x + k
        present = s[_CMAP + px]
        if s[_CLAIM + px]:              # a higher-index major was here first
            s[_CLAIM + px] = 3
            out |= OVERLAP
            if present & CLASS_MAJOR:
                continue
        else:
            s[_CLAIM + px] = 1
        if (bits >> (7 - (k >> 1))) & 1:       # bit 7 is the leftmost pixel
            hit = _collide(mask, np.int64(present), np.int64(CLASS_MAJOR))
            s[_HITS + px] |= hit
            out |= hit
            s[_CMAP + px] = present | CLASS_MAJOR
            s[_COLOUR + px] = colour
    return out


@reads(MAJOR_REGS)
@njit(cache=True)
def _draw_majors(vregs: np.ndarray, ntsc: bool, line: int, mask: int,
                 s: np.ndarray, b: int) -> tuple[int, int, int]:
    """Quads 3→0 then characters 11→0 (docs/hardware.md §7.4, §7.5); returns the span covered and
    the hits | OVERLAP produced."""
    left = WIDTH
    right = 0
    out = 0
    for q in range(QUADS - 1, -1, -1):
        base = QUAD_BASE + QUAD_SIZE * q
        y, lines = _major_lines(vregs, ntsc, base)
        if y <= line < y + lines:
            x = screen_x(np.int64(vregs[base + OBJ_X]))
            if x < WIDTH:
                left = min(left, x)
                right = max(right, x + 112)
                for j in range(4):
                    if x + 32 * j < WIDTH:
                        out |= _draw_cell(vregs, line, y, x + 32 * j, base + OBJ_POINTER + CHAR_SIZE * j,
                                          mask, s, b)
    for i in range(CHARS - 1, -1, -1):
        base = CHAR_BASE + CHAR_SIZE * i
        y, lines = _major_lines(vregs, ntsc, base)
        if y <= line < y + lines:
            x = screen_x(np.int64(vregs[base + OBJ_X]))
            if x < WIDTH:
                left = min(left, x)
                right = max(right, x + 16)
                out |= _draw_cell(vregs, line, y, x, base + OBJ_POINTER, mask, s, b)
    return left, right, out


@reads(SPRITE_REGS, SHAPE_REGS)
@njit(cache=True)
def _draw_sprites(vregs: np.ndarray, line: int, mask: int,
                  s: np.ndarray, b: int) -> tuple[int, int, int]:
    """Sprites 3→0 (docs/hardware.md §7.3): bit 0 of a shape byte is the leftmost pixel. Returns the
    span covered and the hits produced."""
    left = WIDTH
    right = 0
    out = 0
    for i in range(SPRITES - 1, -1, -1):
        base = SPRITE_BASE + SPRITE_SIZE * i
        y = np.int64(vregs[base + OBJ_Y])
        attr = np.int64(vregs[base + SPRITE_ATTR])
        size = _dot_size(attr)
        if not (y <= line < y + 8 * size):
            continue
        r = (line - y) // size
        shape = vregs[SHAPE_BASE + SHAPE_ROWS * i + r]
        if shape == 0:
            continue
        mode = attr & SPRITE_SHIFT_MODE
        shift = 1 if mode == 1 else ((r & 1) ^ 1 if mode == 2 else (r & 1 if mode == 3 else 0))
        x = screen_x(np.int64(vregs[base + OBJ_X])) + shift * (size >> 1)
        left = min(left, x)
        right = max(right, x + 8 * size)
        colour = INTENSITY | ((attr >> SPRITE_COLOUR_SHIFT) & RGB)
        bit = 1 << i
        for m in range(8):
            if (shape >> m) & 1:
                a = x + m * size
                for px in range(b + a, b + min(a + size, WIDTH)):
                    present = s[_CMAP + px]
                    hit = _collide(mask, np.int64(present), bit)
                    s[_HITS + px] |= hit
                    out |= hit
                    s[_COLOUR + px] = colour
                    s[_CMAP + px] = present | bit
    return left, right, out


@reads(CONTROL_REG, COLOUR_REG, COLLISION_REG)
@linkage.unit(types.CPointer(types.uint8), types.int64, types.int64,
              types.CPointer(types.uint8), types.int64)
def _compose_line(vregs: np.ndarray, ntsc: bool, line: int, s: np.ndarray, b: int) -> None:
    """Compose the whole of scanline ``line`` from the current registers into scratch ``s``
    (whose grid templates must belong to these registers: see _same_registers)."""
    ctrl = vregs[CONTROL]
    kind = _grid_kind(ctrl, line)
    objects = (ctrl & CTRL_OBJECTS) != 0 and line < HEIGHT
    # background and grid come from a template per grid pattern, made once per register state
    t = b + _TPL + kind * 2 * WIDTH
    if not s[b + _TPL_VALID + kind]:
        background = BACKGROUND_INDEX[(vregs[COLOUR] >> COLOUR_BACKGROUND_SHIFT) & RGB]
        for px in range(WIDTH):
            s[t + px] = 0
            s[t + WIDTH + px] = background
        if kind:
            _draw_grid(vregs, line, s, t)
        s[b + _TPL_VALID + kind] = 1
    for px in range(WIDTH):
        s[b + _CMAP + px] = s[t + px]
        s[b + _COLOUR + px] = s[t + WIDTH + px]
    s[b + _ACTIVE] = 1 if kind or objects else 0
    left = WIDTH
    right = 0
    out = 0
    if objects:
        for px in range(b, b + WIDTH):
            s[_CLAIM + px] = 0
            s[_HITS + px] = 0
            s[_EDGE + px] = 0
        mask = np.int64(vregs[COLLISION])
        left, right, out = _draw_majors(vregs, ntsc, line, mask, s, b)
        sleft, sright, sout = _draw_sprites(vregs, line, mask, s, b)
        out |= sout
        left = max(min(left, sleft), 0)
        right = min(max(right, sright), WIDTH)
        if mask and not s[b + _RULES] & NO_EDGE_PASS:
            # pixel x meets pixel x - 1 (its left neighbour); a pixel without an object gets
            # 0, so the loop needs no branch and LLVM vectorizes it
            for px in range(b + max(left, 1), b + right):
                e = _edge(mask, np.int64(s[_CMAP + px - 1]), np.int64(s[_CMAP + px]))
                s[_EDGE + px] = e
                out |= e
    s[b + _TOTAL] = out & 0xFF
    s[b + _OVERLAPS] = 1 if out & OVERLAP else 0
    _put16(s, b + _SPAN_LEFT, left)
    _put16(s, b + _SPAN_RIGHT, right)
    s[b + _LINE] = line + 1
    s[b + _KIND] = _line_kind(ctrl, line, s, b)


@njit(cache=True)
def _same_registers(vregs: np.ndarray, ntsc: bool, s: np.ndarray, b: int) -> bool:
    """True if the registers the drawing rules read (WATCHED) equal the snapshot in the
    scratch; else take a new snapshot and note which scanlines have objects on them."""
    snap = b + _SNAP
    if s[b + _NTSC] == (2 if ntsc else 1):
        diff = 0
        for k in range(len(WATCHED)):
            first, end = WATCHED[k]
            for a in range(first, end):
                diff |= vregs[a] ^ s[snap + a]
        if diff == 0:
            return True
    _snapshot(vregs, s, snap)
    for k in range(GRID_KINDS):
        s[b + _TPL_VALID + k] = 0
    s[b + _NTSC] = 2 if ntsc else 1
    _object_lines(vregs, ntsc, s, b)
    return False


@njit(cache=True)
def _snapshot(vregs: np.ndarray, s: np.ndarray, snap: int) -> None:
    """Copy the whole register file into the snapshot (saved with the machine; the cache
    compares only WATCHED of it)."""
    for a in range(256):
        s[snap + a] = vregs[a]


@reads(CONTROL_REG, SPRITE_REGS, MAJOR_REGS)
@njit(cache=True)
def _object_lines(vregs: np.ndarray, ntsc: bool, s: np.ndarray, b: int) -> None:
    """Mark the scanlines an object covers (_OBJECT_LINES), for lines' reuse (_line_kind)."""
    for line in range(HEIGHT):
        s[b + _OBJECT_LINES + line] = 0
    if vregs[CONTROL] & CTRL_OBJECTS:
        for base in range(CHAR_BASE, OBJECTS_END, CHAR_SIZE):   # characters, quad sub-chars
            if base >= QUAD_BASE and (base & QUAD_SUB_BITS) != 0:
                continue                        # a quad has one Y; its height is sub-char 3's
            y, lines = _major_lines(vregs, ntsc, base)
            for line in range(y, min(y + lines, HEIGHT)):
                s[b + _OBJECT_LINES + line] = 1
        for i in range(SPRITES):
            base = SPRITE_BASE + SPRITE_SIZE * i
            y = np.int64(vregs[base + OBJ_Y])
            size = _dot_size(vregs[base + SPRITE_ATTR])
            for line in range(y, min(y + 8 * size, HEIGHT)):
                s[b + _OBJECT_LINES + line] = 1


@njit(cache=True)
def _or_pixels(s: np.ndarray, at: int, x0: int, x1: int) -> int:
    """The OR of pixels x0..x1-1 of the plane at ``at`` (a loop LLVM vectorizes)."""
    r = 0
    for px in range(at + x0, at + x1):
        r |= s[px]
    return r


@reads(CONTROL_REG)
@njit(cache=True)
def _line_at_hand(vregs: np.ndarray, ntsc: bool, line: int, s: np.ndarray, b: int,
                  written: bool) -> None:
    """The line cache: make the scratch hold scanline ``line`` as the registers draw it now.
    The composed line is kept while the registers the rules read (WATCHED) equal the snapshot
    (compared only after a write: ``written``); a line without objects is the last one
    composed if that had the same grid; anything else is composed afresh."""
    if (not written and s[b + _NTSC] == (2 if ntsc else 1)) or _same_registers(vregs, ntsc,
                                                                               s, b):
        if s[b + _LINE] == line + 1:
            return
        kind = _line_kind(vregs[CONTROL], line, s, b)
        if kind < KIND_OBJECTS and s[b + _KIND] == kind and s[b + _LINE] != 0:
            s[b + _LINE] = line + 1
            return
    _compose_line(vregs, ntsc, line, s, b)


@reads(COLLISION_REG)
@njit(cache=True)
def draw_into(vregs: np.ndarray, ntsc: bool, line: int, x0: int, x1: int, lum_forced: bool,
          row: np.ndarray, r: int, s: np.ndarray, b: int, written: bool) -> tuple[int, int]:
    """Draw pixels x0..x1-1 of scanline ``line`` into ``row[r:]`` with the scratch at ``s[b:]``
    (the module's interface contract above; the machine's loop draws into its work array, frame
    row and scratch in one)."""
    x0 = max(x0, 0)
    x1 = min(x1, WIDTH)
    if x1 <= x0:
        return 0, 0
    follows = (x0 > 0 and s[b + _LINE] == line + 1
               and _get16(s, b + _DRAWN) == x0)
    left_drawn = s[b + _CMAP + x0 - 1] if follows and s[b + _ACTIVE] else 0
    _line_at_hand(vregs, ntsc, line, s, b, written)
    _put16(s, b + _DRAWN, x1)
    lum = np.uint8(INTENSITY if lum_forced else 0)   # P17 = 0 forces every pixel bright (§8.3)
    for px in range(x0, x1):
        row[r + px] = s[b + _COLOUR + px] | lum
    span_lo = _get16(s, b + _SPAN_LEFT)
    span_hi = _get16(s, b + _SPAN_RIGHT)
    lo = max(x0, span_lo)
    hi = min(x1, span_hi)
    if lo >= hi:
        return 0, 0                   # no object pixel here: the grid alone never collides
    result = 0
    claims = 0
    if s[b + _TOTAL] | s[b + _OVERLAPS]:
        if (x0 == 0 or x0 < span_lo) and x1 >= span_hi:
            result = np.int64(s[b + _TOTAL])   # the whole of the line's object pixels
            claims = 2 * np.int64(s[b + _OVERLAPS])
        else:
            result = (_or_pixels(s, b + _HITS, lo, hi)
                      | _or_pixels(s, b + _EDGE, max(lo, x0 + 1), hi))
            claims = _or_pixels(s, b + _CLAIM, lo, hi)
    mask = np.int64(vregs[COLLISION])
    if x0 > 0 and mask and not s[b + _RULES] & NO_EDGE_PASS:
        # the first pixel meets its left neighbour as it was drawn, perhaps by older registers
        left = left_drawn if follows else s[b + _CMAP + x0 - 1]
        result |= _edge(mask, np.int64(left), np.int64(s[b + _CMAP + x0]))
    return result, ST_OVERLAP if claims & 2 else 0


# The registers the line cache compares: every span a rule declares, joined (00–A0 objects and
# shapes, A0 control, A2–A3 collision mask and colour, C0–E9 grid).
WATCHED = _merged([span for spans in RULE_READS.values() for span in spans])


# The machine keeps the scratch after the frame being drawn, in one flat array, so that it travels
# with the frame through the compiled loop and is saved with the machine state.
WORK_ROWS = HEIGHT + SCRATCH_ROWS
SCRATCH_AT = HEIGHT * WIDTH      # where the scratch starts in a new_work() array


def new_work() -> np.ndarray:
    """The frame being drawn (243 × 360 bytes, row by row) followed by the compositor's scratch;
    ``frame_of(work)`` is the 2-D view of the frame part."""
    return np.zeros(WORK_ROWS * WIDTH, dtype=np.uint8)


def frame_of(work: np.ndarray) -> np.ndarray:
    """The (243, 360) frame inside a ``new_work()`` array (a view)."""
    return work[:SCRATCH_AT].reshape(HEIGHT, WIDTH)


def set_edge_pass(work: np.ndarray, on: bool) -> None:
    """Switch MAME's collision edge pass (docs/hardware.md §9.2, current MAME) on or off for a
    ``new_work()`` array. It is on by default; MAME 0.251, the version our comparison tests run,
    predates it, so they switch it off to compare collision results exactly."""
    s = work[SCRATCH_AT:]
    s[_RULES] = 0 if on else NO_EDGE_PASS
    s[_LINE] = 0
    s[_NTSC] = 0                       # forget the composed line and the register snapshot


@njit(cache=True)
def overlap_free(work: np.ndarray, line: int) -> bool:
    """True if drawing more of scanline ``line`` with the registers of the last segment cannot
    set the overlap status bit: the line is not drawn at all, or it is the line composed in
    the scratch of this ``new_work()`` array and no two majors meet on it."""
    if line >= HEIGHT:
        return True
    return work[SCRATCH_AT + _LINE] == line + 1 and work[SCRATCH_AT + _OVERLAPS] == 0


COLOURS = 16               # palette indices 0–15 (intensity bit 3, R/G/B bits 0–2)


def check_work(work: np.ndarray) -> str | None:
    """Why a ``new_work()`` array from a save state cannot be, or None: every pixel and every
    colour the compositor may copy into the picture is a palette index, and the scratch's own
    fields hold values the compositor can have written."""
    s = work[SCRATCH_AT:]
    colour_planes = [work[:SCRATCH_AT], s[_COLOUR:_COLOUR + WIDTH]]
    colour_planes += [s[t:t + WIDTH] for t in range(_TPL + WIDTH, SCRATCH_SIZE, 2 * WIDTH)]
    if any((plane >= COLOURS).any() for plane in colour_planes):
        return _("a pixel of its picture is not a colour")
    if s[_LINE] > HEIGHT or s[_NTSC] > 2 or s[_RULES] > NO_EDGE_PASS or s[SCRATCH_SIZE:].any():
        return _("the picture's working memory holds impossible values")
    return None


# _compose_line is a unit of its own (linkage.py): draw_into, which the unit tests call from
# Python, may come from the cache and needs its symbol then
linkage.link_cached()
