"""The register side of the Intel 8244 (NTSC) / 8245 (PAL) video chip (docs/hardware.md §3, §7):
the beam position, T1 = HBLANK | VBLANK, the VBLANK interrupt, register write masks, quad
mirrors, write protection while displaying, control 0xA0, status 0xA1 with the interrupt
acknowledge, collision 0xA2 (write mask, read-and-clear result) and the beam registers
0xA4/0xA5. What the pixels look like is ``raster.py``'s business and the sound is
``sound.py``'s; this module decides *when* they are asked (MAME's lazy catch-up model).
"""
from __future__ import annotations

import numpy as np
from numba import njit, types

from . import linkage, raster, sound
from . import vdc_regs as vr
from .state import (BEAM_X, BEAM_Y, BG_PX, COLLISION, DRAWN, EV_KIND, EV_LINE, EV_LINE_END,
                    EV_TICK, EV_VBLANK, FRAME_TICKS, HB_END, HTOTAL, INT, LINES, NTSC, STATUS,
                    TPX, TICK_HBL, TICK_VBL, TPL, VBL_END_POS, VBL_START_POS, VREGS_WRITTEN)
from .timing import HBLANK_PX, HSTATUS_PX, VBLANK_LINE, VISIBLE_LINES, VISIBLE_PX

# The chip's register addresses and bits are named in vdc_regs (``vr``); the names BEAM_X,
# BEAM_Y, STATUS and COLLISION here are the machine registers of state.py that latch them.


# ---- the beam -----------------------------------------------------------------------------

@njit(cache=True)
def beam(regs: np.ndarray, tick: int) -> tuple[int, int]:
    """(line, pixel) of the beam at master tick ``tick``, rounded to the nearest pixel clock as
    MAME's screen does (it adds half a pixel before dividing)."""
    ft = (tick + regs[TPX] // 2) % regs[FRAME_TICKS]
    line = ft // regs[TPL]
    px = (ft - line * regs[TPL]) // regs[TPX]
    return line, px


@njit(cache=True)
def in_vblank(regs: np.ndarray, line: int, px: int) -> bool:
    """VBLANK from (242, 365) through (0, 365) of the next frame (NTSC) or (312, 365) (PAL),
    both ends included (MAME), so that T1 has no gap before HBLANK starts at px 366."""
    pos = line * regs[HTOTAL] + px
    if pos < regs[VBL_START_POS]:
        pos += regs[LINES] * regs[HTOTAL]      # the part after the frame wrap
    return pos < regs[VBL_END_POS]


@njit(cache=True)
def t1_level(regs: np.ndarray, tick: int) -> int:
    """The 8048 T1 pin: HBLANK (px 366..452/453) OR VBLANK."""
    line, px = beam(regs, tick)
    if HBLANK_PX <= px <= regs[HB_END]:
        return 1
    return 1 if in_vblank(regs, line, px) else 0


@njit(cache=True)
def beam_y(regs: np.ndarray, line: int, px: int) -> int:
    """0xA4: the Y counter — incremented early at "BG" (px 413/414), reads vtotal on line 0
    before px 366, clamped to 263 (MAME)."""
    y = line
    if px >= regs[BG_PX]:
        y += 1
    if line == 0 and px < HBLANK_PX:
        y = regs[LINES]
    return min(y, 263)


# ---- drawing catch-up ---------------------------------------------------------------------

@linkage.unit(types.CPointer(types.int64), types.CPointer(types.uint8),
              types.CPointer(types.uint8), types.int64, types.int64)
def catch_up(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, p1: int,
             tick: int) -> None:
    """Draw every visible pixel the beam has passed since the last call, with the registers as
    they are now (called before anything that changes the picture). Compiled once on its own
    and called by symbol (linkage.py): the compositor is not compiled into each caller."""
    tick += regs[TPX] >> 1            # the beam position rounded as in beam()
    drawn = regs[DRAWN]
    if tick <= drawn:
        return
    tpl = regs[TPL]
    tpx = regs[TPX]
    lines = regs[LINES]
    ntsc = regs[NTSC] != 0
    lum_forced = (p1 & 0x80) == 0
    line_abs = drawn // tpl
    start = line_abs * tpl
    line = line_abs % lines
    while True:                       # one segment per line from the last drawn position
        seg_end = min(tick, start + tpl)
        x0 = min((drawn - start) // tpx, VISIBLE_PX) if line < VISIBLE_LINES else VISIBLE_PX
        if x0 < VISIBLE_PX:
            x1 = min((seg_end - start) // tpx, VISIBLE_PX)
            if x1 > x0:
                # the compositor compares the registers with its snapshot only after a write
                coll, st = raster.draw_into(vregs, ntsc, line, x0, x1, lum_forced,
                                            work, line * raster.WIDTH, work, raster.SCRATCH_AT,
                                            regs[VREGS_WRITTEN] != 0)
                regs[VREGS_WRITTEN] = 0
                regs[COLLISION] |= coll
                regs[STATUS] |= st
        drawn = seg_end
        if drawn >= tick:
            break
        start += tpl
        line = line + 1 if line + 1 < lines else 0
    regs[DRAWN] = drawn


@njit(cache=True)
def drawing_can_wait(regs: np.ndarray, work: np.ndarray, tick: int) -> bool:
    """True when catching up at ``tick`` would only draw more of the line last drawn, with no
    register written since and no two majors meeting on that line: the status register's
    overlap bit cannot change, so a status read may leave the pixels to the next catch-up
    (they come out the same; collisions are only read through 0xA2, which catches up)."""
    if regs[VREGS_WRITTEN] != 0:
        return False
    tpl = regs[TPL]
    line_abs = regs[DRAWN] // tpl
    if tick + (regs[TPX] >> 1) > (line_abs + 1) * tpl:
        return False
    return raster.overlap_free(work, line_abs % regs[LINES])


# ---- beam events: line end (px 366) and VBLANK start (242, 365) ---------------------------

@njit(cache=True)
def run_events(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, snd: np.ndarray,
               audio: np.ndarray, p1: int, before: int) -> None:
    """Handle every beam event whose tick is < ``before`` (the end of the first machine cycle
    of the next instruction: an event acts from the start of the cycle that contains it)."""
    tpl = regs[TPL]
    lines = regs[LINES]
    while regs[EV_TICK] < before:
        line_abs = regs[EV_LINE]
        line = line_abs % lines
        if regs[EV_KIND] == EV_VBLANK:
            regs[STATUS] |= vr.ST_VBLANK
            regs[INT] = 1
            regs[EV_KIND] = EV_LINE_END
            regs[EV_TICK] = line_abs * tpl + regs[TICK_HBL]
            continue
        if line < VISIBLE_LINES:
            catch_up(regs, vregs, work, p1, regs[EV_TICK])
        if sound.clock_line(vregs, snd):          # 24 shifts with control bit 2 set
            regs[STATUS] |= vr.ST_SOUND
            regs[INT] = 1
        sound.emit_line(vregs, snd, audio)
        line_abs += 1
        regs[EV_LINE] = line_abs
        if line + 1 == VBLANK_LINE:             # the next line is VBLANK's (242 < lines - 1)
            regs[EV_KIND] = EV_VBLANK
            regs[EV_TICK] = line_abs * tpl + regs[TICK_VBL]
        else:
            regs[EV_TICK] = line_abs * tpl + regs[TICK_HBL]


# ---- register file ------------------------------------------------------------------------

@njit(cache=True)
def _canonical(addr: int) -> int:
    """Fold mirrors: 0xB0–0xBF = 0xA0–0xAF; quad Y/X registers 0x40–0x7F with bit 1 = 0 are
    shared by the four sub-characters (``addr & ~0x0C``)."""
    if vr.MIRROR_BASE <= addr <= vr.MIRROR_END:
        return addr - vr.MIRROR_OFFSET
    if vr.QUAD_BASE <= addr < vr.OBJECTS_END and (addr & vr.QUAD_FIELD_BIT) == 0:
        return addr & ~vr.QUAD_SUB_BITS
    return addr


@njit(cache=True)
def read(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, p1: int, tick: int,
         addr: int) -> int:
    """A MOVX read with the VDC selected (P13 = 0, P16 = 0)."""
    a = _canonical(addr)
    ctrl = int(vregs[vr.CONTROL])
    if a < vr.OBJECTS_END:
        if ctrl & vr.CTRL_OBJECTS:
            return 0                      # locked while objects are displayed
        if a < vr.CHAR_BASE and (a & (vr.SPRITE_SIZE - 1)) == vr.SPRITE_ATTR:
            return 0                      # sprite attribute is write-only
        return int(vregs[a])
    if a < vr.CONTROL:
        return int(vregs[a])                   # sprite shapes: always accessible
    if a == vr.STATUS:
        if not drawing_can_wait(regs, work, tick):
            catch_up(regs, vregs, work, p1, tick)
        line, px = beam(regs, tick)
        st = regs[STATUS] | (ctrl & vr.CTRL_BEAM)      # status bit 1 copies control bit 1
        if HSTATUS_PX <= px < regs[BG_PX] and beam_y(regs, line, px) <= VBLANK_LINE:
            st |= vr.ST_HSTATUS
        regs[STATUS] &= ~vr.ST_ACK_CLEARS
        regs[INT] = 0                     # reading the status acknowledges the interrupt
        return st
    if a == vr.COLLISION:
        catch_up(regs, vregs, work, p1, tick)
        result = regs[COLLISION]
        regs[COLLISION] = 0
        return result
    if a == vr.BEAM_Y or a == vr.BEAM_X:
        if ctrl & vr.CTRL_BEAM:
            line, px = beam(regs, tick)
            return (beam_y(regs, line, px) & 0xFF) if a == vr.BEAM_Y else px >> 1
        return regs[BEAM_Y] if a == vr.BEAM_Y else regs[BEAM_X]
    if a == vr.COLOUR or vr.SOUND_SHIFT <= a <= vr.SOUND_SHIFT_END or a >= vr.GRID_END:
        return 0                          # write-only / unmapped
    if vr.GRID_H <= a < vr.GRID_END and (ctrl & vr.CTRL_GRID):
        return 0                          # locked while the grid is displayed
    return int(vregs[a])


@njit(cache=True)
def write(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, snd: np.ndarray, p1: int,
          tick: int, addr: int, value: int) -> None:
    """A MOVX write with the VDC selected (P13 = 0)."""
    a = _canonical(addr)
    v = value
    ctrl = int(vregs[vr.CONTROL])
    if a < vr.OBJECTS_END:
        if ctrl & vr.CTRL_OBJECTS:
            return                        # locked while objects are displayed
        field = a & (vr.CHAR_SIZE - 1)
        if a < vr.CHAR_BASE:
            if field == vr.SPRITE_SIZE - 1:
                return                    # sprite +3 is not a register
        elif field == vr.OBJ_ATTR:
            v &= 0x0F                     # major attribute: bits 0–3 only
        elif field == vr.OBJ_Y:
            v &= 0xFE                     # major Y: bit 0 not connected
    elif a >= vr.CONTROL and a < vr.MIRROR_BASE:
        if (a == vr.STATUS or a == vr.BEAM_Y or a == vr.BEAM_X or a == vr.UNUSED_A6
                or a >= vr.UNUSED_AB):
            return                        # read-only or unused
        if a == vr.SOUND_CONTROL:
            v &= vr.SOUND_CONTROL_MASK    # bit 6 not connected (MAME)
    elif a >= vr.GRID_H:
        if a >= vr.GRID_END or (a & 0x0F) > ((vr.GRID_V_LINES if a >= vr.GRID_V
                                               else vr.GRID_H_COLUMNS) - 1):
            return                        # unused grid addresses
        if ctrl & vr.CTRL_GRID:
            return                        # locked while the grid is displayed
        if vr.GRID_H8 <= a < vr.GRID_H8 + vr.GRID_H_COLUMNS:
            v &= vr.GRID_H8_MASK          # only row 8 of the horizontal grid
    if (a <= vr.CONTROL or a == vr.COLLISION or a == vr.COLOUR) and int(vregs[a]) != v:
        catch_up(regs, vregs, work, p1, tick)   # the old value holds up to the beam
    if a == vr.CONTROL and (ctrl & vr.CTRL_BEAM) and not (v & vr.CTRL_BEAM):
        line, px = beam(regs, tick)             # 1 -> 0 latches the beam position
        regs[BEAM_Y] = beam_y(regs, line, px) & 0xFF
        regs[BEAM_X] = px >> 1
    vregs[a] = v
    regs[VREGS_WRITTEN] = 1
    if vr.SOUND_SHIFT <= a <= vr.SOUND_SHIFT_END:
        sound.note_write(snd)
