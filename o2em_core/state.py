"""The layout of the machine state: every mutable bit of the console lives in a few numpy
arrays, so the compiled loop works on plain arrays and a save state is those arrays' bytes.

* ``mem`` (uint8): internal RAM, external RAM, the VDC register file, the key matrix rows and
  the joystick bytes at fixed offsets.
* ``regs`` (int64): named scalars — CPU registers and latches, the time base, the VDC's
  internal latches, and (read-only after construction) the region's timing constants.
* ``work`` / ``frame`` (uint8 243 × 360): the frame being drawn and the last finished one.
* ``snd`` (int64): the sound section's state (layout owned by ``sound.py``).
"""
from __future__ import annotations

import numpy as np

from i18n import _

from .timing import HBLANK_PX, POWER_ON_LINE, VBLANK_LINE, VBLANK_PX, Region
from .vdc_regs import ST_ACK_CLEARS

# ---- mem: byte arrays at fixed offsets ------------------------------------------------------
IRAM_OFF, IRAM_SIZE = 0, 64        # 8048 internal data RAM
XRAM_OFF, XRAM_SIZE = 64, 128      # the 128-byte external RAM (6810)
VDC_OFF, VDC_SIZE = 192, 256       # 8244/8245 register file as the chip holds it
KEYS_OFF, KEYS_SIZE = 448, 8       # key matrix: bit c of byte r = key (row r, column c) down
JOY_OFF, JOY_SIZE = 456, 2         # joystick 0/1: up 1, right 2, down 4, left 8, fire 16
MEM_SIZE = 512

# ---- regs: named int64 scalars (indices into the array) ---------------------------------
REG_NAMES: tuple[str, ...] = (
    # 8048 CPU (docs/hardware.md §2)
    "A", "PC", "PSW", "F1", "MB", "T", "TF",
    "TMODE",                # 0 stopped, 1 timer (prescaler ÷32), 2 event counter on T1
    "PRESCALE",             # 5-bit timer prescaler
    "T1_PREV",              # last T1 sample in counter mode
    "IEN_I", "IEN_T",       # EN I / EN TCNTI
    "TIMER_REQ",            # latched timer-overflow interrupt request
    "IN_IRQ",               # interrupt in progress (until RETR)
    "JNI_END",              # tick at which a JNI that was not taken ended (MAME's JNI rule)
    "JNI_TARGET",           # ... and its target
    "P1", "P2", "BUS",
    # time base
    "TICK",                 # master ticks since the notional line 0 of frame 0
    "POWER_ON_TICK",
    "FRAME_END",            # tick at which the current frame ends (line 243, px 0)
    "FRAMES",
    "EV_TICK", "EV_KIND", "EV_LINE",  # the next beam event (vdc.run_events)
    # 8244/8245 latches (docs/hardware.md §7)
    "INT",                  # INT pin asserted (held until 0xA1 is read)
    "STATUS",               # latched status bits 2, 3, 6, 7 of 0xA1
    "COLLISION",            # collision result (0xA2 read); vregs[0xA2] holds the mask
    "BEAM_X", "BEAM_Y",     # 0xA5/0xA4 latched by a 1->0 write of control bit 1
    "DRAWN",                # tick up to which the picture has been drawn
    # region constants (set once, saved so that a state knows its region): ticks per machine
    # cycle, per pixel clock, per line, ...
    "NTSC", "TPC", "TPX", "TPL", "LINES", "FRAME_TICKS", "HTOTAL",
    "HB_END", "BG_PX", "VBL_START_POS", "VBL_END_POS", "TICK_VBL", "TICK_HBL",
    "CART_MASK",            # cartridge size − 1, or −1 for an empty slot
    # (added later, at the end, so that older save states keep their layout)
    "VREGS_WRITTEN",        # 1 if a VDC register was written since the picture was last drawn
    # the cartridge board (bus.Board), constant after construction; 0 in states saved before
    # boards other than the standard one existed (Machine.load_state fills them in)
    "CART_BANK_SIZE",       # bytes from one bank to the next in the image
    "CART_BANK_MASK",       # bank = P1 & CART_BANK_MASK
    "CART_HIGH",            # bank offset shown at CPU 0xC00-0xFFF
)
(A, PC, PSW, F1, MB, T, TF, TMODE, PRESCALE, T1_PREV, IEN_I, IEN_T, TIMER_REQ, IN_IRQ,
 JNI_END, JNI_TARGET, P1, P2, BUS,
 TICK, POWER_ON_TICK, FRAME_END, FRAMES, EV_TICK, EV_KIND, EV_LINE,
 INT, STATUS, COLLISION, BEAM_X, BEAM_Y, DRAWN,
 NTSC, TPC, TPX, TPL, LINES, FRAME_TICKS, HTOTAL, HB_END, BG_PX, VBL_START_POS,
 VBL_END_POS, TICK_VBL, TICK_HBL, CART_MASK, VREGS_WRITTEN,
 CART_BANK_SIZE, CART_BANK_MASK, CART_HIGH) = range(len(REG_NAMES))
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
    A, T, CY, AC and RAM keep their values (MAME)."""
    r[PC] = 0
    r[PSW] = (r[PSW] & 0xC0) | 0x08      # bit 3 reads as 1
    for reg in (F1, MB, TF, TMODE, IEN_I, IEN_T, TIMER_REQ, IN_IRQ):
        r[reg] = 0
    for reg in (P1, P2, BUS):
        r[reg] = 0xFF


# ---- checking a state that comes from a file -------------------------------------------------
# A save state is outside input: the compiled loop trusts every register (PC indexes program
# memory, the tick counters bound its loops), so each one is checked before it runs.
BYTES = (A, P1, P2, BUS, T, COLLISION, BEAM_X, BEAM_Y)          # 8-bit latches, 0–255
FLAGS = (F1, MB, TF, T1_PREV, IEN_I, IEN_T, TIMER_REQ, IN_IRQ, INT, VREGS_WRITTEN, EV_KIND)
ADDRESSES = (PC, JNI_TARGET)                                      # 12-bit program addresses
# fixed by the region and the cartridge when the machine is built
CONSTANTS = (NTSC, TPC, TPX, TPL, LINES, FRAME_TICKS, HTOTAL, HB_END, BG_PX, VBL_START_POS,
             VBL_END_POS, TICK_VBL, TICK_HBL, CART_MASK, POWER_ON_TICK)
BOARD = (CART_BANK_SIZE, CART_BANK_MASK, CART_HIGH)
RANGES = {**{r: (0, 0xFF) for r in BYTES}, **{r: (0, 1) for r in FLAGS},
          **{r: (0, 0xFFF) for r in ADDRESSES}, PSW: (0, 0xFF), TMODE: (0, 2),
          PRESCALE: (0, 31), STATUS: (0, 0xFF)}
STATUS_BITS = ST_ACK_CLEARS  # the latched bits of the status register A1
PSW_ONE = 0x08              # PSW bit 3 reads as 1 (cpu.PSW_ONE)
TICK_LIMIT = 1 << 62        # far beyond any real session, far from int64 overflow


def check(regs: np.ndarray, fresh: np.ndarray) -> str | None:
    """Why ``regs`` from a save state cannot be a state of the machine whose power-on registers
    are ``fresh`` (same region and cartridge), or None. Checked: every register against its
    legal range, the constants against ``fresh``, and the time base for consistency (a frame
    end, beam event or drawn position far from the tick would make the loop run for ages)."""
    r = [int(v) for v in regs]
    f = [int(v) for v in fresh]
    for reg in CONSTANTS + BOARD:
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
    five bits, the bytes after them are never used."""
    if (mem[JOY_OFF:JOY_OFF + JOY_SIZE] > 0x1F).any():
        return _("a joystick byte has more than its five bits")
    if mem[JOY_OFF + JOY_SIZE:].any():
        return _("the unused memory is not zero")
    return None
