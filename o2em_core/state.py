"""The layout of the machine state: every mutable bit of the console lives in a few numpy
arrays, so the compiled loop works on plain arrays and a save state is those arrays' bytes.

* ``mem`` (uint8): internal RAM, external RAM, the VDC register file, the key matrix rows and
  the joystick bytes, one table (``MEM_PARTS``) of parts whose offsets are generated.
* ``regs`` (int64): the register file, one table (``REGISTERS``) of named scalars — CPU
  registers and latches, the time base, the VDC's internal latches, and (read-only after
  construction) the region's timing constants and the cartridge board.
* ``work`` / ``frame`` (uint8 243 × 360): the frame being drawn and the last finished one.
* ``snd`` (int64): the sound section's state, one table (``sound.SOUND_STATE``).

Each table is written with ``table.Table``: the positions are generated from the rows.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from i18n import _

from .layout import Table
from .timing import HBLANK_PX, POWER_ON_LINE, VBLANK_LINE, VBLANK_PX, Region
from .vdc_regs import ST_ACK_CLEARS

# ---- mem: byte arrays at fixed offsets ------------------------------------------------------


class Part(NamedTuple):
    """One part of ``mem``: its name, its size in bytes and what it holds."""

    name: str
    size: int
    meaning: str


_MEM: Table[Part] = Table("state.MEM_PARTS", width=lambda part: part.size)


def _part(name: str, size: int, meaning: str) -> tuple[int, int]:
    """Append a part to ``mem``: its offset (the sizes of the parts before it) and its size,
    which ``NAME_OFF`` and ``NAME_SIZE`` hold."""
    return _MEM.add(Part(name, size, meaning)), size


# The parts of ``mem`` in the order they lie in it; the bytes are saved with the machine, so a
# part is never moved: a new one takes bytes of the spare part at the end.
# offset, size        = _part(name,   bytes, what it holds)
IRAM_OFF,  IRAM_SIZE  = _part("IRAM",  64,  "8048 internal data RAM")
XRAM_OFF,  XRAM_SIZE  = _part("XRAM",  128, "the 128-byte external RAM (6810)")
VDC_OFF,   VDC_SIZE   = _part("VDC",   256, "8244/8245 register file as the chip holds it")
KEYS_OFF,  KEYS_SIZE  = _part("KEYS",  8,   "key matrix: bit c of byte r = key (r, c) down")
JOY_OFF,   JOY_SIZE   = _part("JOY",   2,   "sticks 0/1: up 1, right 2, down 4, left 8, fire 16")
SPARE_OFF, SPARE_SIZE = _part("SPARE", 54,  "unused, zero in every state: room to grow")
MEM_PARTS: tuple[Part, ...] = _MEM.done(
    globals(), lambda part, at: {part.name + "_OFF": at, part.name + "_SIZE": part.size})
MEM_SIZE = _MEM.size

# ---- regs: the register file ------------------------------------------------------------------


class Register(NamedTuple):
    """One row of the register file: its name, what a save state may hold in it, what the
    8048's RESET pin does to it, and what it means."""

    name: str
    legal: tuple[int, int] | str   # (lowest, highest), FIXED, BOARD or TIMED (see below)
    reset: tuple[int, int] | None  # RESET: (bits kept, bits set); None: RESET leaves it alone
    meaning: str


# What a save state may hold (``check``): a range, or
FIXED = "fixed"     # a constant of the region and cartridge: equal to a new machine's
BOARD = "board"     # a constant of the cartridge board: equal to a new machine's; 0 in states
#                     saved before boards other than the standard one existed (savestate.EARLIER)
TIMED = "timed"     # a tick, line or count of the time base: checked against the others
BYTE, FLAG, ADDRESS = (0, 0xFF), (0, 1), (0, 0xFFF)
# What the RESET pin does (``reset_cpu``): (bits kept, bits set)
KEEP = None                 # nothing
ZERO, ONES = (0, 0), (0, 0xFF)
# The PSW's bits (docs/hardware.md §2.2), named here beside the register that holds them
C_FLAG, AC_FLAG, F0_FLAG, BS_FLAG = 0x80, 0x40, 0x20, 0x10
PSW_ONE = 0x08              # PSW bit 3 reads as 1
SP_MASK = 0x07              # bits 2-0: the stack pointer, 8 levels (§2.3)
PSW_RESET = (C_FLAG | AC_FLAG, PSW_ONE)  # CY, AC kept; bank 0, stack pointer 0, F0 clear

_REGS: Table[Register] = Table("state.REGISTERS")


def _reg(name: str, legal: tuple[int, int] | str, reset: tuple[int, int] | None,
         meaning: str) -> int:
    """Append a row to the register file; its index, which the row's name is assigned to."""
    return _REGS.add(Register(name, legal, reset, meaning))


# The register file. A row's position is its index into ``regs`` and its place in a save state,
# so rows are only ever added at the end (savestate.py fingerprints the names). Each name is
# written twice, as the module global (plain ints, which numba compiles in as constants, and
# which type checkers see) and as the row's name; ``Table.done`` holds them equal (layout.py).
# 8048 CPU (docs/hardware.md §2)
A              = _reg("A",              BYTE,    KEEP,      "accumulator")
PC             = _reg("PC",             ADDRESS, ZERO,      "program counter")
PSW            = _reg("PSW",            BYTE,    PSW_RESET, "CY AC F0 BS 1 SP2 SP1 SP0")
F1             = _reg("F1",             FLAG,    ZERO,      "user flag F1")
MB             = _reg("MB",             FLAG,    ZERO,      "memory bank of JMP/CALL (SEL MBn)")
T              = _reg("T",              BYTE,    KEEP,      "timer/counter")
TF             = _reg("TF",             FLAG,    ZERO,      "timer flag (JTF)")
TMODE          = _reg("TMODE",          (0, 2),  ZERO,      "0 stopped, 1 timer (÷32), 2 counter")
PRESCALE       = _reg("PRESCALE",       (0, 31), KEEP,      "5-bit timer prescaler")
T1_PREV        = _reg("T1_PREV",        FLAG,    KEEP,      "last T1 sample in counter mode")
IEN_I          = _reg("IEN_I",          FLAG,    ZERO,      "EN I: external interrupt enabled")
IEN_T          = _reg("IEN_T",          FLAG,    ZERO,      "EN TCNTI: timer interrupt enabled")
TIMER_REQ      = _reg("TIMER_REQ",      FLAG,    ZERO,      "latched timer-overflow request")
IN_IRQ         = _reg("IN_IRQ",         FLAG,    ZERO,      "interrupt in progress (until RETR)")
JNI_END        = _reg("JNI_END",        TIMED,   KEEP,      "tick a JNI not taken ended, or -1")
JNI_TARGET     = _reg("JNI_TARGET",     ADDRESS, KEEP,      "... and its target (MAME's JNI rule)")
P1             = _reg("P1",             BYTE,    ONES,      "port 1 latch")
P2             = _reg("P2",             BYTE,    ONES,      "port 2 latch")
BUS            = _reg("BUS",            BYTE,    ONES,      "data bus latch")
# time base (docs/hardware.md §3)
TICK           = _reg("TICK",           TIMED,   KEEP,      "ticks since line 0 of frame 0")
POWER_ON_TICK  = _reg("POWER_ON_TICK",  FIXED,   KEEP,      "the tick of power-on")
FRAME_END      = _reg("FRAME_END",      TIMED,   KEEP,      "tick the frame ends (line 243, px 0)")
FRAMES         = _reg("FRAMES",         TIMED,   KEEP,      "frames finished since power-on")
EV_TICK        = _reg("EV_TICK",        TIMED,   KEEP,      "tick of the next beam event")
EV_KIND        = _reg("EV_KIND",        FLAG,    KEEP,      "its kind, EV_LINE_END or EV_VBLANK")
EV_LINE        = _reg("EV_LINE",        TIMED,   KEEP,      "its line, counted from frame 0")
# 8244/8245 latches (docs/hardware.md §7)
INT            = _reg("INT",            FLAG,    KEEP,      "INT asserted (until A1 is read)"  )
STATUS         = _reg("STATUS",         BYTE,    KEEP,      "latched bits 2, 3, 6, 7 of A1")
COLLISION      = _reg("COLLISION",      BYTE,    KEEP,      "collision result read at A2")
BEAM_X         = _reg("BEAM_X",         BYTE,    KEEP,      "A5, latched by control bit 1 -> 0")
BEAM_Y         = _reg("BEAM_Y",         BYTE,    KEEP,      "A4, latched likewise")
DRAWN          = _reg("DRAWN",          TIMED,   KEEP,      "tick the picture is drawn up to")
# region constants (set once, saved so that a state knows its region)
NTSC           = _reg("NTSC",           FIXED,   KEEP,      "1: NTSC (8244), 0: PAL (8245)")
TPC            = _reg("TPC",            FIXED,   KEEP,      "ticks per machine cycle")
TPX            = _reg("TPX",            FIXED,   KEEP,      "ticks per pixel clock")
TPL            = _reg("TPL",            FIXED,   KEEP,      "ticks per line")
LINES          = _reg("LINES",          FIXED,   KEEP,      "lines per frame")
FRAME_TICKS    = _reg("FRAME_TICKS",    FIXED,   KEEP,      "ticks per frame")
HTOTAL         = _reg("HTOTAL",         FIXED,   KEEP,      "pixel clocks per line")
HB_END         = _reg("HB_END",         FIXED,   KEEP,      "last pixel clock of HBLANK")
BG_PX          = _reg("BG_PX",          FIXED,   KEEP,      "pixel clock the Y counter steps at")
VBL_START_POS  = _reg("VBL_START_POS",  FIXED,   KEEP,      "line × HTOTAL + px VBLANK starts at")
VBL_END_POS    = _reg("VBL_END_POS",    FIXED,   KEEP,      "... and ends before")
TICK_VBL       = _reg("TICK_VBL",       FIXED,   KEEP,      "tick in its line VBLANK starts at")
TICK_HBL       = _reg("TICK_HBL",       FIXED,   KEEP,      "tick in a line HBLANK starts at")
CART_MASK      = _reg("CART_MASK",      FIXED,   KEEP,      "cartridge size - 1, -1: empty slot")
# added later, at the end, so that older save states kept their layout
VREGS_WRITTEN  = _reg("VREGS_WRITTEN",  FLAG,    KEEP,      "a video register written, not drawn")
# the cartridge board (bus.Board)
CART_BANK_SIZE = _reg("CART_BANK_SIZE", BOARD,   KEEP,      "bytes from one bank to the next")
CART_BANK_MASK = _reg("CART_BANK_MASK", BOARD,   KEEP,      "bank = P1 & CART_BANK_MASK")
CART_HIGH      = _reg("CART_HIGH",      BOARD,   KEEP,      "bank offset shown at 0xC00-0xFFF")

REGISTERS: tuple[Register, ...] = _REGS.done(globals())
REG_NAMES = tuple(row.name for row in REGISTERS)
REGS_SIZE = 64              # room to grow without changing the state layout's size

# Event kinds of the beam (vdc.run_events)
EV_LINE_END = 0   # px 366 of a line: finish drawing it, clock the sound
EV_VBLANK = 1     # (242, 365): VBLANK starts


def new_regs(region: Region, cart_size: int, board: tuple[int, int, int]) -> np.ndarray:
    """Registers of a console just switched on: the CPU is reset while the beam is at the start
    of line 243 (docs/mame-oracle.md: power-on at the start of the VBLANK lines). ``board`` is the
    cartridge's (bank size, bank mask, offset at 0xC00), see bus.Board."""
    r = np.zeros(REGS_SIZE, dtype=np.int64)
    r[NTSC] = int(region.ntsc)
    r[TPC] = region.ticks_per_cycle
    r[TPL] = region.ticks_per_line
    r[LINES] = region.lines
    r[FRAME_TICKS] = region.frame_ticks
    r[TPX] = region.ticks_per_px
    r[HTOTAL] = region.htotal
    r[HB_END] = region.hblank_end_px
    r[BG_PX] = region.bg_px
    r[VBL_START_POS] = VBLANK_LINE * region.htotal + VBLANK_PX
    r[VBL_END_POS] = region.vblank_end_line * region.htotal + HBLANK_PX  # exclusive
    r[TICK_VBL] = region.tick_of_px(VBLANK_PX)
    r[TICK_HBL] = region.tick_of_px(HBLANK_PX)
    r[CART_MASK] = cart_size - 1 if cart_size else -1
    r[CART_BANK_SIZE], r[CART_BANK_MASK], r[CART_HIGH] = board
    t0 = POWER_ON_LINE * region.ticks_per_line
    r[TICK] = t0
    r[POWER_ON_TICK] = t0
    r[FRAME_END] = t0 + region.frame_ticks
    r[DRAWN] = t0
    r[EV_LINE] = POWER_ON_LINE
    r[EV_KIND] = EV_LINE_END
    r[EV_TICK] = t0 + region.tick_of_px(HBLANK_PX)
    r[JNI_END] = -1
    r[VREGS_WRITTEN] = 1                  # the compositor has no snapshot yet
    reset_cpu(r)
    return r


def reset_cpu(r: np.ndarray) -> None:
    """The 8048 RESET pin (docs/hardware.md §2.10): PC, SP, BS, F0, F1, MB, interrupts, timer, ports;
    A, T, CY, AC and RAM keep their values (MAME). The ``reset`` column of ``REGISTERS``."""
    for reg, row in enumerate(REGISTERS):
        if row.reset is not None:
            kept, value = row.reset
            r[reg] = (r[reg] & kept) | value


# ---- checking a state that comes from a file -------------------------------------------------
# A save state is outside input: the compiled loop trusts every register (PC indexes program
# memory, the tick counters bound its loops), so each one is checked before it runs.
CONSTANTS = tuple(reg for reg, row in enumerate(REGISTERS) if row.legal in (FIXED, BOARD))
BOARD_REGS = tuple(reg for reg, row in enumerate(REGISTERS) if row.legal == BOARD)
RANGES = {reg: row.legal for reg, row in enumerate(REGISTERS) if isinstance(row.legal, tuple)}
STATUS_BITS = ST_ACK_CLEARS  # the latched bits of the status register A1
TICK_LIMIT = 1 << 62        # far beyond any real session, far from int64 overflow


def check(regs: np.ndarray, fresh: np.ndarray) -> str | None:
    """Why ``regs`` from a save state cannot be a state of the machine whose power-on registers
    are ``fresh`` (same region and cartridge), or None. Checked: every register against its
    legal range, the constants against ``fresh``, and the time base for consistency (a frame
    end, beam event or drawn position far from the tick would make the loop run for ages)."""
    r = [int(v) for v in regs]
    f = [int(v) for v in fresh]
    for reg in CONSTANTS:
        if r[reg] != f[reg]:
            return _("{name} is {value}, this machine has {ours}").format(
                name=REG_NAMES[reg], value=r[reg], ours=f[reg])
    if any(r[len(REG_NAMES):]):
        return _("the unused registers are not zero")
    for reg, (low, high) in RANGES.items():
        if not low <= r[reg] <= high:
            return _("{name} is {value}, outside {low} to {high}").format(
                name=REG_NAMES[reg], value=r[reg], low=low, high=high)
    if not r[PSW] & PSW_ONE or r[STATUS] & ~STATUS_BITS:
        return _("PSW {psw} or status {status} has a bit set that cannot be").format(
            psw=r[PSW], status=r[STATUS])
    frame_ticks, tpl = r[FRAME_TICKS], r[TPL]
    if not 0 <= r[FRAMES] < (TICK_LIMIT - r[POWER_ON_TICK]) // frame_ticks - 2:
        return _("FRAMES is {value}").format(value=r[FRAMES])
    if r[FRAME_END] != r[POWER_ON_TICK] + (r[FRAMES] + 1) * frame_ticks:
        return _("FRAME_END {end} does not follow from {frames} frames").format(
            end=r[FRAME_END], frames=r[FRAMES])
    tick = r[TICK]
    if not r[FRAME_END] - frame_ticks <= tick < r[FRAME_END]:
        return _("TICK {tick} is outside the frame that ends at {end}").format(
            tick=tick, end=r[FRAME_END])
    if r[JNI_END] != -1 and not r[POWER_ON_TICK] <= r[JNI_END] <= tick:
        return _("JNI_END {value} is not a past tick").format(value=r[JNI_END])
    if not POWER_ON_LINE <= r[EV_LINE] or (r[EV_KIND] == EV_VBLANK
                                           and r[EV_LINE] % r[LINES] != VBLANK_LINE):
        return _("the beam event of line {line} cannot be").format(line=r[EV_LINE])
    at = r[EV_LINE] * tpl + (r[TICK_VBL] if r[EV_KIND] == EV_VBLANK else r[TICK_HBL])
    if r[EV_TICK] != at or not tick - tpl <= at <= tick + 2 * tpl:
        return _("the beam event at tick {event} does not belong to tick {tick}").format(
            event=r[EV_TICK], tick=tick)
    if not max(r[POWER_ON_TICK], tick - frame_ticks) <= r[DRAWN] <= tick + r[TPC] + r[TPX]:
        return _("the picture is drawn up to tick {drawn}, far from tick {tick}").format(
            drawn=r[DRAWN], tick=tick)
    return None


def check_mem(mem: np.ndarray) -> str | None:
    """Why the byte array ``mem`` of a save state cannot be, or None: the joystick bytes hold
    five bits, the spare bytes are never used."""
    if (mem[JOY_OFF:JOY_OFF + JOY_SIZE] > 0x1F).any():
        return _("a joystick byte has more than its five bits")
    if mem[SPARE_OFF:SPARE_OFF + SPARE_SIZE].any():
        return _("the unused memory is not zero")
    return None
