"""The video chip's register file, every address and bit named once (docs/hardware.md §7.1,
objects §7.3–7.5, control §7.7, status §7.8, colour §7.9, coordinates §8.1, collision classes
§9.1, sound control §10.1). ``vdc`` (the register side), ``raster`` (the picture), ``sound`` (the
shift register), the debugger and the computer opponent all read ``vregs`` through these names;
they are plain ints, so numba compiles them in as constants.
"""
from __future__ import annotations

from numba import njit

# ---- objects: 00–9F -----------------------------------------------------------------------
SPRITE_BASE = 0x00       # sprites 0–3 (§7.3): Y, X, attribute, unused
SPRITE_SIZE = 4
SPRITES = 4
CHAR_BASE = 0x10         # characters 0–11 (§7.4): Y, X, pointer, attribute
CHAR_SIZE = 4
CHARS = 12
QUAD_BASE = 0x40         # quads 0–3 (§7.5): 4 sub-characters of Y, X, pointer, attribute
QUAD_SIZE = 16
QUADS = 4
OBJECTS_END = 0x80       # 00–7F are locked while objects are shown (§7.2)

# field offsets inside an object (a quad's sub-character j is at QUAD_BASE + 16q + 4j)
OBJ_Y = 0
OBJ_X = 1
OBJ_POINTER = 2          # characters and quads
OBJ_ATTR = 3             # characters and quads
SPRITE_ATTR = 2          # a sprite's attribute; its +3 is not a register
QUAD_LAST_POINTER = 14   # sub-character 3's pointer sets a quad's height (§7.5)

# attribute bits of a sprite (§7.3) and of a character or quad sub-character (§7.4); a colour
# field shifted down to bits 2/1/0 is a palette index's B·4 + G·2 + R (§8.3, §8.4)
RGB = 0x07
SPRITE_HALF_STEP = 0x01  # one pixel clock right (two when zoomed) ...
SPRITE_ALTERNATE = 0x02  # ... on every row, or (with this bit) on alternate rows
SPRITE_SHIFT_MODE = 0x03  # both bits: 1 every row, 2 even rows, 3 odd rows, 0 none
SPRITE_ZOOM = 0x04       # double size: 4 pixel clocks and 4 lines per dot
SPRITE_COLOUR_SHIFT = 3  # attribute bits 5/4/3 = B/G/R
SPRITE_COLOUR = RGB << SPRITE_COLOUR_SHIFT   # 0x38: those three bits in place
CHAR_POINTER_BIT8 = 0x01  # bit 8 of the character ROM pointer
CHAR_COLOUR_SHIFT = 1    # attribute bits 3/2/1 = B/G/R
INTENSITY = 0x08         # the palette index's bright bit (§8.4); objects are always bright

# objects on the screen (§8.1): a character, quad or sprite at X starts at pixel clock 2·(X + 5)
X_OFFSET = 5             # in units (2 pixel clocks)
UNIT = 2                 # pixel clocks per X unit
NTSC_MAJOR_TOP = 0x0E    # the 8244 (NTSC) shows no character or quad with Y below this (§7.4)

SHAPE_BASE = 0x80        # sprite shapes, SHAPE_ROWS rows per sprite (always accessible)
SHAPE_ROWS = 8

# ---- A0–AF (mirrored at B0–BF) ------------------------------------------------------------
CONTROL = 0xA0           # §7.7
STATUS = 0xA1            # read only, §7.8
COLLISION = 0xA2         # write: mask; read: result (cleared by the read)
COLOUR = 0xA3            # write only, §7.9
BEAM_Y = 0xA4            # read only, §7.10
BEAM_X = 0xA5            # read only
UNUSED_A6 = 0xA6
SOUND_SHIFT = 0xA7       # A7, A8, A9: shift register bits 23–16, 15–8, 7–0 (write only)
SOUND_SHIFT_END = 0xA9   # last byte of the shift register
SOUND_CONTROL = 0xAA     # §10.1
SOUND_CONTROL_MASK = 0xBF  # bit 6 is not connected
UNUSED_AB = 0xAB         # AB–AF: unused
MIRROR_BASE = 0xB0       # B0–BF = A0–AF
MIRROR_END = 0xBF
MIRROR_OFFSET = 0x10

# ---- grid: C0–E9 (§7.6) -------------------------------------------------------------------
GRID_H = 0xC0            # horizontal grid, columns 0–8, rows 0–7
GRID_H8 = 0xD0           # horizontal grid, columns 0–8, bit 0 = row 8
GRID_V = 0xE0            # vertical grid, lines 0–9, segments 0–7
GRID_H_COLUMNS = 9
GRID_V_LINES = 10
GRID_V_END = GRID_V + GRID_V_LINES   # EA: the first address after the vertical grid
GRID_END = 0xF0          # C0–EF are locked while the grid is shown; F0–FF are unmapped
GRID_H8_MASK = 0x01

# quad Y/X registers (address bit 1 = 0) are shared by the four sub-characters (§7.1)
QUAD_FIELD_BIT = 0x02
QUAD_SUB_BITS = 0x0C

# ---- control register A0 bits (§7.7) ------------------------------------------------------
CTRL_HINT = 0x01         # horizontal interrupt in some descriptions (not modelled)
CTRL_BEAM = 0x02         # beam registers follow the beam; 1 -> 0 latches them
CTRL_SOUND_INT = 0x04    # sound interrupt enable (§10.4)
CTRL_GRID = 0x08         # grid shown (grid registers locked)
CTRL_OVERLAP_INT = 0x10  # external overlap interrupt (Videopac+ only; not modelled)
CTRL_OBJECTS = 0x20      # objects shown (object registers locked)
CTRL_DOTS = 0x40         # dot grid
CTRL_FILL = 0x80         # vertical segments 32 pixel clocks wide
# the debugger's short name of each control bit, bit 0 first
CTRL_NAMES = ((CTRL_HINT, "hint"), (CTRL_BEAM, "beam"), (CTRL_SOUND_INT, "sound-irq"),
              (CTRL_GRID, "grid"), (CTRL_OVERLAP_INT, "overlap-irq"), (CTRL_OBJECTS, "objects"),
              (CTRL_DOTS, "dots"), (CTRL_FILL, "fill"))

# ---- status register A1 bits (§7.8) -------------------------------------------------------
ST_HSTATUS = 0x01        # horizontal status
ST_SOUND = 0x04          # sound interrupt
ST_VBLANK = 0x08         # VBLANK started (latched)
ST_OVERLAP = 0x80        # two major objects overlapped since the last read
ST_ACK_CLEARS = 0xCC     # reading A1 clears bits 2, 3, 6, 7 (the latched bits)

# ---- colour register A3 bits (§7.9) -------------------------------------------------------
# (R/G/B from the high bit down: the reverse of a palette index, hence raster's *_INDEX tables)
COLOUR_GRID = 0x07           # grid R/G/B (bits 2/1/0)
COLOUR_BACKGROUND_SHIFT = 3  # bits 5/4/3: background R/G/B, always dark
COLOUR_GRID_BRIGHT = 0x40    # the grid is bright
COLOUR_GRID_BRIGHT_SHIFT = 3  # bit 6 moved down to bit 3, beside the grid's R/G/B

# ---- collision classes: the bits of the mask and the result in A2 (§9.1) ------------------
CLASS_SPRITES = 0x0F     # sprite n is bit n
CLASS_VGRID = 0x10       # vertical grid segments
CLASS_HGRID = 0x20       # horizontal grid segments and dots
CLASS_GRID = CLASS_VGRID | CLASS_HGRID
CLASS_MAJOR = 0x80       # characters and quads (bit 6 is the external input, not modelled)

# ---- sound control register AA bits (§10.1) -----------------------------------------------
SOUND_VOLUME = 0x0F
SOUND_NOISE = 0x10
SOUND_FAST = 0x20
SOUND_ENABLE = 0x80


@njit(cache=True)
def screen_x(x: int) -> int:
    """The first pixel clock of an object whose X register holds ``x`` (§8.1). Compiled, so that
    the compositor's loops inline it; Python callers (the debugger, the computer opponent) call
    the same function."""
    return UNIT * (x + X_OFFSET)
