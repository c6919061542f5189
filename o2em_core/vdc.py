"""The register side of the Intel 8244 (NTSC) / 8245 (PAL) video chip (docs/hardware.md §3, §7):
the beam position, T1 = HBLANK | VBLANK, the VBLANK interrupt, register write masks, quad
mirrors, write protection while displaying, control 0xA0, status 0xA1 with the interrupt
acknowledge, collision 0xA2 (write mask, read-and-clear result) and the beam registers
0xA4/0xA5. What the pixels look like is ``raster.py``'s business and the sound is
``sound.py``'s; this module decides *when* they are asked (MAME's lazy catch-up model).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import raster, sound
from .state import (BEAM_X, BEAM_Y, BG_PX, COLLISION, DRAWN, EV_KIND, EV_LINE, EV_LINE_END,
                    EV_TICK, EV_VBLANK, FRAME_TICKS, HB_END, HTOTAL, INT, LINES, NTSC, STATUS,
                    TPX, TICK_HBL, TICK_VBL, TPL, VBL_END_POS, VBL_START_POS, VREGS_WRITTEN)
from .timing import HBLANK_PX, HSTATUS_PX, VBLANK_LINE, VISIBLE_LINES, VISIBLE_PX

CONTROL, STATUS_REG, COLLIDE, COLOUR, BEAM_Y_REG, BEAM_X_REG = 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5
SOUND_CONTROL = 0xAA
CTRL_BEAM, CTRL_GRID, CTRL_OBJECTS = 0x02, 0x08, 0x20
ST_SOUND, ST_VBLANK = 0x04, 0x08
ST_ACK_CLEARS = 0xCC        # reading 0xA1 clears bits 2, 3, 6, 7 (MAME)


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

@njit(cache=True)
def catch_up(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, p1: int,
             tick: int) -> None:
    """Draw every visible pixel the beam has passed since the last call, with the registers as
    they are now (called before anything that changes the picture)."""
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
            regs[STATUS] |= ST_VBLANK
            regs[INT] = 1
            regs[EV_KIND] = EV_LINE_END
            regs[EV_TICK] = line_abs * tpl + regs[TICK_HBL]
            continue
        if line < VISIBLE_LINES:
            catch_up(regs, vregs, work, p1, regs[EV_TICK])
        if sound.clock_line(vregs, snd):          # 24 shifts with control bit 2 set
            regs[STATUS] |= ST_SOUND
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
    if 0xB0 <= addr <= 0xBF:
        return addr - 0x10
    if 0x40 <= addr <= 0x7F and (addr & 0x02) == 0:
        return addr & ~0x0C
    return addr


@njit(cache=True)
def read(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, p1: int, tick: int,
         addr: int) -> int:
    """A MOVX read with the VDC selected (P13 = 0, P16 = 0)."""
    a = _canonical(addr)
    ctrl = int(vregs[CONTROL])
    if a < 0x80:
        if ctrl & CTRL_OBJECTS:
            return 0                      # locked while objects are displayed
        if a < 0x10 and (a & 3) == 2:
            return 0                      # sprite attribute is write-only
        return int(vregs[a])
    if a < 0xA0:
        return int(vregs[a])                   # sprite shapes: always accessible
    if a == STATUS_REG:
        if not drawing_can_wait(regs, work, tick):
            catch_up(regs, vregs, work, p1, tick)
        line, px = beam(regs, tick)
        st = regs[STATUS] | (ctrl & CTRL_BEAM)
        if HSTATUS_PX <= px < regs[BG_PX] and beam_y(regs, line, px) <= VBLANK_LINE:
            st |= 0x01
        regs[STATUS] &= ~ST_ACK_CLEARS
        regs[INT] = 0                     # reading the status acknowledges the interrupt
        return st
    if a == COLLIDE:
        catch_up(regs, vregs, work, p1, tick)
        result = regs[COLLISION]
        regs[COLLISION] = 0
        return result
    if a == BEAM_Y_REG or a == BEAM_X_REG:
        if ctrl & CTRL_BEAM:
            line, px = beam(regs, tick)
            return (beam_y(regs, line, px) & 0xFF) if a == BEAM_Y_REG else px >> 1
        return regs[BEAM_Y] if a == BEAM_Y_REG else regs[BEAM_X]
    if a == COLOUR or 0xA7 <= a <= 0xA9 or a >= 0xF0:
        return 0                          # write-only / unmapped
    if 0xC0 <= a <= 0xEF and (ctrl & CTRL_GRID):
        return 0                          # locked while the grid is displayed
    return int(vregs[a])


@njit(cache=True)
def write(regs: np.ndarray, vregs: np.ndarray, work: np.ndarray, snd: np.ndarray, p1: int,
          tick: int, addr: int, value: int) -> None:
    """A MOVX write with the VDC selected (P13 = 0)."""
    a = _canonical(addr)
    v = value
    ctrl = int(vregs[CONTROL])
    if a < 0x80:
        if ctrl & CTRL_OBJECTS:
            return                        # locked while objects are displayed
        if a < 0x10:
            if (a & 3) == 3:
                return                    # sprite +3 is not a register
        elif (a & 3) == 3:
            v &= 0x0F                     # major attribute: bits 0–3 only
        elif (a & 3) == 0:
            v &= 0xFE                     # major Y: bit 0 not connected
    elif a >= 0xA0 and a <= 0xAF:
        if a == STATUS_REG or a == BEAM_Y_REG or a == BEAM_X_REG or a == 0xA6 or a >= 0xAB:
            return                        # read-only or unused
        if a == SOUND_CONTROL:
            v &= 0xBF                     # bit 6 not connected (MAME)
    elif a >= 0xC0:
        if a >= 0xF0 or (a & 0x0F) > (9 if a >= 0xE0 else 8):
            return                        # unused grid addresses
        if ctrl & CTRL_GRID:
            return                        # locked while the grid is displayed
        if 0xD0 <= a <= 0xD8:
            v &= 0x01                     # only row 8 of the horizontal grid
    if (a <= CONTROL or a == COLLIDE or a == COLOUR) and int(vregs[a]) != v:
        catch_up(regs, vregs, work, p1, tick)   # the old value holds up to the beam
    if a == CONTROL and (ctrl & CTRL_BEAM) and not (v & CTRL_BEAM):
        line, px = beam(regs, tick)             # 1 -> 0 latches the beam position
        regs[BEAM_Y] = beam_y(regs, line, px) & 0xFF
        regs[BEAM_X] = px >> 1
    vregs[a] = v
    regs[VREGS_WRITTEN] = 1
    if 0xA7 <= a <= 0xA9:
        sound.note_write(snd)
