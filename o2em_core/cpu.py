"""The Intel 8048 CPU of the console (docs/hardware.md §2), executing from the program space that
``bus.py`` lays out, with MAME's per-instruction model: interrupts are checked when an
instruction starts; the instruction first burns its 1 or 2 machine cycles (advancing the timer
or sampling T1 for the event counter) and then acts, so T1, the beam registers and every
MOVX see the time at the end of the instruction's cycles.

``run`` is the hot loop: it keeps the registers in local variables, executes until the frame's
end tick and handles the beam events (line ends, VBLANK) at their exact ticks, returning to
Python once per frame.
"""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
from numba import int16, int64, njit, uint8

import mcs48

from . import bus, vdc
from .layout import Table
from .pointer import view
from .state import (AC_FLAG, BS_FLAG, BUS, C_FLAG, EV_TICK, F0_FLAG, F1, IEN_I, IEN_T, IN_IRQ,
                    INT, JNI_END, JNI_TARGET, MB, P1, P2, PC, PRESCALE, PSW, PSW_ONE, SP_MASK,
                    T1_PREV, TF, TICK, TIMER_REQ, TMODE, TPC, A, T)

TMODE_STOPPED, TMODE_TIMER, TMODE_COUNTER = 0, 1, 2
VECTOR_INT, VECTOR_TIMER = 0x003, 0x007
# internal RAM as the CPU uses it (docs/hardware.md §2.1–2.3); the PSW's bits are in state.py
BANK1_R0 = 0x18              # R0 of register bank 1 (bank 0's R0 is at 0x00)
STACK_BASE = 0x08            # stack level n: STACK_ENTRY bytes at STACK_BASE + STACK_ENTRY·n,
STACK_ENTRY = 2              # PC bits 7-0, then a byte of
STACK_PSW = 0xF0             #   PSW bits 7-4 (RETR restores them)
STACK_PC_HIGH = 0x0F         #   and PC bits 11-8

# Addressing modes of the operand, decoded before the operation runs:
#   REG  Rn (register direct, n = opcode bits 2-0; MOVX's @Ri uses Ri's value, so it is REG too)
#   IND  @Ri (iRAM at the low 6 bits of Ri, i = opcode bit 0)
#   IMM  #data (the byte after the opcode)
MODE_NONE, MODE_REG, MODE_IND, MODE_IMM = 0, 1, 2, 3


def op_name(mnemonic: str) -> str:
    """The hot loop's name of an operation: "MOV x,#data" -> OP_MOV_X_IMM, "JBb addr" ->
    OP_JBB_ADDR."""
    return "OP_" + re.sub(r"\W+", "_", mnemonic.replace("#data", "IMM")).strip("_").upper()


class Operation(NamedTuple):
    """One operation of the hot loop: its global's name (``op_name``) and its mnemonic with the
    operand written as "x"."""

    name: str
    mnemonic: str


_OPERATIONS: Table[Operation] = Table("cpu.OPERATIONS")


def _op(mnemonic: str) -> int:
    """The number of the next operation, ``mnemonic``'s position in the table (layout.py)."""
    return _OPERATIONS.add(Operation(op_name(mnemonic), mnemonic))


# The operations, one per mnemonic with its operand written as "x". Each global's value is its
# position in this table, the number the hot loop dispatches on: plain ints, which numba
# compiles into ``run`` as constants; the import check (Table.done) holds name and row equal.
OP_ILLEGAL = _op("ILLEGAL")
OP_NOP = _op("NOP")
OP_MOV_A_X = _op("MOV A,x")
OP_MOV_X_A = _op("MOV x,A")
OP_MOV_X_IMM = _op("MOV x,#data")
OP_ADD_A_X = _op("ADD A,x")
OP_ADDC_A_X = _op("ADDC A,x")
OP_ANL_A_X = _op("ANL A,x")
OP_ORL_A_X = _op("ORL A,x")
OP_XRL_A_X = _op("XRL A,x")
OP_INC_X = _op("INC x")
OP_DEC_X = _op("DEC x")
OP_XCH_A_X = _op("XCH A,x")
OP_XCHD_A_X = _op("XCHD A,x")
OP_DJNZ_X_ADDR = _op("DJNZ x,addr")
OP_INC_A = _op("INC A")
OP_DEC_A = _op("DEC A")
OP_CLR_A = _op("CLR A")
OP_CPL_A = _op("CPL A")
OP_SWAP_A = _op("SWAP A")
OP_DA_A = _op("DA A")
OP_RL_A = _op("RL A")
OP_RLC_A = _op("RLC A")
OP_RR_A = _op("RR A")
OP_RRC_A = _op("RRC A")
OP_JMP_ADDR = _op("JMP addr")
OP_CALL_ADDR = _op("CALL addr")
OP_RET = _op("RET")
OP_RETR = _op("RETR")
OP_JMPP_A = _op("JMPP @A")
OP_MOVP_A_A = _op("MOVP A,@A")
OP_MOVP3_A_A = _op("MOVP3 A,@A")
OP_MOVX_A_X = _op("MOVX A,x")
OP_MOVX_X_A = _op("MOVX x,A")
OP_JBB_ADDR = _op("JBb addr")
OP_JC_ADDR = _op("JC addr")
OP_JNC_ADDR = _op("JNC addr")
OP_JZ_ADDR = _op("JZ addr")
OP_JNZ_ADDR = _op("JNZ addr")
OP_JT0_ADDR = _op("JT0 addr")
OP_JNT0_ADDR = _op("JNT0 addr")
OP_JT1_ADDR = _op("JT1 addr")
OP_JNT1_ADDR = _op("JNT1 addr")
OP_JF0_ADDR = _op("JF0 addr")
OP_JF1_ADDR = _op("JF1 addr")
OP_JTF_ADDR = _op("JTF addr")
OP_JNI_ADDR = _op("JNI addr")
OP_EN_I = _op("EN I")
OP_DIS_I = _op("DIS I")
OP_EN_TCNTI = _op("EN TCNTI")
OP_DIS_TCNTI = _op("DIS TCNTI")
OP_STRT_T = _op("STRT T")
OP_STRT_CNT = _op("STRT CNT")
OP_STOP_TCNT = _op("STOP TCNT")
OP_MOV_A_T = _op("MOV A,T")
OP_MOV_T_A = _op("MOV T,A")
OP_MOV_A_PSW = _op("MOV A,PSW")
OP_MOV_PSW_A = _op("MOV PSW,A")
OP_CLR_C = _op("CLR C")
OP_CPL_C = _op("CPL C")
OP_CLR_F0 = _op("CLR F0")
OP_CPL_F0 = _op("CPL F0")
OP_CLR_F1 = _op("CLR F1")
OP_CPL_F1 = _op("CPL F1")
OP_SEL_RB0 = _op("SEL RB0")
OP_SEL_RB1 = _op("SEL RB1")
OP_SEL_MB0 = _op("SEL MB0")
OP_SEL_MB1 = _op("SEL MB1")
OP_ENT0_CLK = _op("ENT0 CLK")
OP_OUTL_BUS_A = _op("OUTL BUS,A")
OP_INS_A_BUS = _op("INS A,BUS")
OP_ORL_BUS_X = _op("ORL BUS,x")
OP_ANL_BUS_X = _op("ANL BUS,x")
OP_IN_A_P1 = _op("IN A,P1")
OP_IN_A_P2 = _op("IN A,P2")
OP_OUTL_P1_A = _op("OUTL P1,A")
OP_OUTL_P2_A = _op("OUTL P2,A")
OP_ORL_P1_X = _op("ORL P1,x")
OP_ORL_P2_X = _op("ORL P2,x")
OP_ANL_P1_X = _op("ANL P1,x")
OP_ANL_P2_X = _op("ANL P2,x")
OP_MOVD_A_PP = _op("MOVD A,Pp")
OP_MOVD_PP_A = _op("MOVD Pp,A")
OP_ORLD_PP_A = _op("ORLD Pp,A")
OP_ANLD_PP_A = _op("ANLD Pp,A")
OPERATIONS: tuple[str, ...] = tuple(row.mnemonic for row in _OPERATIONS.done(globals()))

# ``horizon = RECHECK`` in ``run``: the one way to say "sample the interrupts (and the beam
# events) before the next instruction". Anything that can make an interrupt pending — EN I,
# EN TCNTI, RETR, a timer request — writes it; the fast path stays one comparison
# (``t >= horizon``), and the constant costs nothing more than the literal 0 it is.
RECHECK = 0


def _decode(mnemonic: str) -> tuple[int, int]:
    """(operation, addressing mode) of one mnemonic of the opcode table."""
    m = re.sub(r"\bP[4-7]\b", "Pp", re.sub(r"\bJB[0-7]\b", "JBb", mnemonic))
    if re.search(r"@R[01]", m) and not m.startswith("MOVX"):
        mode, m = MODE_IND, re.sub(r"@R[01]", "x", m)
    elif re.search(r"@R[01]|\bR[0-7]\b", m):
        mode, m = MODE_REG, re.sub(r"@R[01]|\bR[0-7]\b", "x", m)
    elif "#data" in m:
        mode, m = MODE_IMM, m.replace("#data", "x")
    else:
        mode = MODE_NONE
    return OPERATIONS.index(m), mode


def load_opcodes(rows: tuple[mcs48.Row, ...] = mcs48.ROWS
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Machine cycles, operation and addressing mode of each opcode, from the opcode table
    (data, not code: ``mcs48/data/opcodes.tsv``)."""
    cycles = np.zeros(256, dtype=np.int64)
    operation = np.zeros(256, dtype=np.int64)
    mode = np.zeros(256, dtype=np.int64)
    for row in rows:
        cycles[row.code] = row.cycles
        operation[row.code], mode[row.code] = _decode(row.instruction)
    if len(rows) != 256 or not np.all((cycles == 1) | (cycles == 2)):
        raise ValueError("the opcode table must give 256 opcodes of 1 or 2 cycles")
    return cycles, operation, mode


CYCLES, OPERATION, MODE = load_opcodes()
DECODE = OPERATION << 2 | MODE     # one table lookup in the hot loop


@njit(cache=True)
def _inc(pc: int) -> int:
    """The PC increment touches bits 0–10 only: 0x7FF -> 0x000, 0xFFF -> 0x800.
    (Written as a select: LLVM 22 miscompiled the equivalent mask-and-or form when the
    result was used both as an index and in a page computation.)"""
    return pc + 1 if (pc & 0x7FF) != 0x7FF else pc - 0x7FF


@njit(cache=True)
def _count(regs: np.ndarray, tmode: int, timer: int, presc: int, t1prev: int, start: int,
           n: int, tpc: int) -> tuple[int, int, int, int]:
    """Advance the timer (prescaler ÷32) or the event counter over ``n`` cycles starting at
    tick ``start``. Returns (timer, prescaler, T1 sample, overflowed)."""
    if tmode == TMODE_TIMER:
        over = 0
        presc += n
        if presc >= 32:
            presc -= 32
            timer = (timer + 1) & 0xFF
            over = 1 if timer == 0 else 0
        return timer, presc, t1prev, over
    timer, t1prev, over = _count_t1(regs, timer, t1prev, start, n, tpc)
    return timer, presc, t1prev, over


@njit(cache=True)
def _count_t1(regs: np.ndarray, timer: int, t1prev: int, start: int, n: int,
              tpc: int) -> tuple[int, int, int]:
    """The event counter: one T1 sample per machine cycle, counting 1->0 changes.
    Returns (timer, T1 sample, overflowed)."""
    over = 0
    for k in range(n):
        s = vdc.t1_level(regs, start + k * tpc)
        if t1prev == 1 and s == 0:
            timer = (timer + 1) & 0xFF
            if timer == 0:
                over = 1
        t1prev = s
    return timer, t1prev, over


@njit(cache=True)
def _push(iram: np.ndarray, psw: int, pc: int) -> int:
    """CALL / interrupt: stack entry SP gets PC[7:0] and PSW[7:4]|PC[11:8]; returns the PSW
    with SP + 1 (mod 8)."""
    sp = psw & SP_MASK
    iram[STACK_BASE + STACK_ENTRY * sp] = pc & 0xFF
    iram[STACK_BASE + 1 + STACK_ENTRY * sp] = (psw & STACK_PSW) | (pc >> 8)
    return (psw & ~SP_MASK) | ((sp + 1) & SP_MASK)


# Operations a polling loop may consist of (``_poll_loop``): they read registers, iRAM or the
# program and change nothing but A; the loop ends in a jump on A or on PSW flags.
POLL_BODY = (OP_NOP, OP_MOV_A_X, OP_ANL_A_X, OP_ORL_A_X, OP_XRL_A_X)
POLL_JUMPS = (OP_JBB_ADDR, OP_JC_ADDR, OP_JNC_ADDR, OP_JZ_ADDR, OP_JNZ_ADDR, OP_JF0_ADDR,
              OP_JF1_ADDR)
POLL_MAX_BYTES = 8


@njit(cache=True)
def _poll_loop(prog: np.ndarray, target: int, jump_at: int) -> tuple[int, int]:
    """(machine cycles, instructions) of one pass through the loop from ``target`` to the
    conditional jump at ``jump_at`` if it is a polling loop — straight-line code of POLL_BODY
    operations whose only effect is on A — else (0, 0)."""
    if target >= jump_at or jump_at - target > POLL_MAX_BYTES or (target ^ jump_at) & 0xF00:
        return 0, 0
    cycles = CYCLES[int(prog[jump_at])]
    count = 1
    at = target
    while at < jump_at:
        op = int(prog[at])
        k = DECODE[op] >> 2
        if k not in POLL_BODY:
            return 0, 0
        cycles += CYCLES[op]
        count += 1
        at += 2 if DECODE[op] & 3 == MODE_IMM else 1
    if at != jump_at:
        return 0, 0
    return cycles, count


@njit(cache=True)
def run(regs_at: int, iram_at: int, xram_at: int, vregs_at: int, keys_at: int, joys_at: int,
        prog_at: int, bios_at: int, cart_at: int, work_at: int, snd_at: int, audio_at: int,
        end_tick: int, skip_polling: bool) -> int:
    """Execute instructions until the master tick reaches ``end_tick``. The arguments are the
    addresses of the state arrays (``pointer.address_of``; ``Machine.run_args`` has them in
    this order): regs int64, iRAM, external RAM, VDC registers, keys, joysticks, the 4 KB
    program space, BIOS and cartridge images, work (frame + scratch) uint8, sound state int64,
    audio int16.

    ``skip_polling``: a polling loop (``_poll_loop``) whose last pass left everything as it
    found it repeats identically until an interrupt or a beam event, so its passes up to the
    next of those are skipped at once — the time and the timer advance exactly as if they
    had run, cycle for cycle. Returns the number of instructions skipped."""
    # Map of this function (numba wants it as one loop; the sections are marked "# [n]"):
    #   [1] load     the registers into locals ([6] stores them back)
    #   [2] slow     when t >= horizon: beam events, the frame end, taking an interrupt.
    #                Whatever can make an interrupt pending sets horizon = RECHECK.
    #   [3] fetch    the opcode, its cycles, the timer/counter (a request: horizon = RECHECK)
    #   [4] operand  ea / v from the addressing mode (Rn, @Ri, #data)
    #   [5] execute  one elif per operation, in the order of OPERATIONS:
    #         OP_MOV_A_X .. OP_DJNZ_X_ADDR   moves and arithmetic between A and x
    #         OP_INC_A .. OP_RRC_A           A alone (INC, DEC, CLR, CPL, SWAP, DA, rotates)
    #         OP_JMP_ADDR .. OP_JMPP_A       jumps, calls, returns (RETR: horizon = RECHECK)
    #         OP_MOVP_A_A .. OP_MOVX_X_A     program and external memory (MOVX: bus.py)
    #         OP_JBB_ADDR .. OP_JNI_ADDR     conditional jumps, the polling-loop skip
    #         OP_EN_I .. OP_MOV_T_A          interrupt enables (EN: horizon = RECHECK), timer
    #         OP_MOV_A_PSW .. OP_SEL_MB1     PSW, flags, register and memory banks
    #         OP_OUTL_BUS_A .. OP_ANLD_PP_A  bus and ports (P1: program bank, luminance)
    #         NOP, ENT0 CLK, ILLEGAL         no branch: 1-cycle no-ops
    #   [6] store    the locals back into regs
    # [1] load
    regs = view(regs_at, int64)
    iram = view(iram_at, uint8)
    xram = view(xram_at, uint8)
    vregs = view(vregs_at, uint8)
    keys = view(keys_at, uint8)
    joys = view(joys_at, uint8)
    prog = view(prog_at, uint8)
    bios = view(bios_at, uint8)
    cart = view(cart_at, uint8)
    work = view(work_at, uint8)
    snd = view(snd_at, int64)
    audio = view(audio_at, int16)
    a = regs[A]
    pc = regs[PC]
    psw = regs[PSW]
    f1 = regs[F1]
    mb = regs[MB]
    timer = regs[T]
    tf = regs[TF]
    tmode = regs[TMODE]
    presc = regs[PRESCALE]
    t1prev = regs[T1_PREV]
    ien_i = regs[IEN_I]
    ien_t = regs[IEN_T]
    treq = regs[TIMER_REQ]
    in_irq = regs[IN_IRQ]
    p1 = regs[P1]
    p2 = regs[P2]
    busl = regs[BUS]
    t = regs[TICK]
    tpc = regs[TPC]
    jni_end = regs[JNI_END]
    jni_target = regs[JNI_TARGET]
    rb = BANK1_R0 if psw & BS_FLAG else 0
    horizon = RECHECK                 # the slow path first: events, the frame end, interrupts
    poll_target = -1                  # the polling loop last jumped back to, and A then
    poll_a = -1
    skipped = 0

    while True:
        # [2] slow: when a beam event is due, at the end, or after anything that can make an
        # interrupt pending (EN I, EN TCNTI, RETR, a timer request, a beam event): those set
        # horizon = RECHECK, so the fast path costs one comparison per instruction.
        if t >= horizon:
            if regs[EV_TICK] < t + tpc:
                vdc.run_events(regs, vregs, work, snd, audio, p1, t + tpc)
            if t >= end_tick:
                break
            horizon = min(regs[EV_TICK] - tpc + 1, end_tick)
            # interrupts are sampled when an instruction starts; external (INT level) first
            if in_irq == 0 and ((ien_i != 0 and regs[INT] != 0) or (ien_t != 0 and treq != 0)):
                if ien_i != 0 and regs[INT] != 0:
                    vector = VECTOR_INT
                    if jni_end == t:  # MAME: a JNI not taken just before counts as taken
                        pc = jni_target
                else:
                    vector = VECTOR_TIMER
                    treq = 0
                start = t
                t += 2 * tpc          # taking an interrupt is a 2-cycle CALL
                if tmode != TMODE_STOPPED:
                    timer, presc, t1prev, over = _count(regs, tmode, timer, presc, t1prev,
                                                        start, np.int64(2), tpc)
                    if over:
                        tf = 1
                        if ien_t:
                            treq = 1
                psw = _push(iram, psw, pc)
                pc = vector
                in_irq = 1
                poll_target = -1      # the handler may change what a polling loop reads
                continue

        # [3] fetch
        op = int(prog[pc])
        pc = _inc(pc)
        start = t
        t += CYCLES[op] * tpc
        if tmode != TMODE_STOPPED:
            timer, presc, t1prev, over = _count(regs, tmode, timer, presc, t1prev, start,
                                                CYCLES[op], tpc)
            if over:
                tf = 1                # an overflow always sets TF; the request only if enabled
                if ien_t:
                    treq = 1
                    horizon = RECHECK

        # [4] operand: ea = iRAM address (Rn, @Ri), v = its value or the immediate byte.
        # Computed without a jump table (all of it is cheap and always in range): Rn is the
        # register, @Ri the iRAM byte the register points to, #data the next program byte.
        dec = DECODE[op]
        mode = dec & 3
        reg = rb + (op & 7) if mode == MODE_REG else rb + (op & 1)
        ea = reg if mode == MODE_REG else int(iram[reg]) & 0x3F
        v = int(iram[ea])
        if mode == MODE_IMM:
            v = int(prog[pc])
            pc = _inc(pc)

        # [5] execute
        k = dec >> 2
        if k == OP_MOV_A_X:
            a = v
        elif k == OP_MOV_X_A:
            iram[ea] = a
        elif k == OP_MOV_X_IMM:
            iram[ea] = int(prog[pc])
            pc = _inc(pc)
        elif k == OP_ADD_A_X or k == OP_ADDC_A_X:
            c = (psw >> 7) & 1 if k == OP_ADDC_A_X else 0
            s = a + v + c             # CY = carry out of bit 7, AC = carry out of bit 3
            psw = (psw & 0x3F) | (C_FLAG if s > 0xFF else 0) | \
                (AC_FLAG if (a & 0xF) + (v & 0xF) + c > 0xF else 0)
            a = s & 0xFF
        elif k == OP_ANL_A_X:
            a &= v
        elif k == OP_ORL_A_X:
            a |= v
        elif k == OP_XRL_A_X:
            a ^= v
        elif k == OP_INC_X:
            iram[ea] = (v + 1) & 0xFF
        elif k == OP_DEC_X:
            iram[ea] = (v - 1) & 0xFF
        elif k == OP_XCH_A_X:
            iram[ea] = a
            a = v
        elif k == OP_XCHD_A_X:                           # swap the low nibbles
            iram[ea] = (v & 0xF0) | (a & 0x0F)
            a = (a & 0xF0) | (v & 0x0F)
        elif k == OP_DJNZ_X_ADDR:
            v = (v - 1) & 0xFF
            iram[ea] = v
            d = int(prog[pc])
            if v != 0:
                pc = (pc & 0xF00) | d
            else:
                pc = _inc(pc)
        elif k == OP_INC_A:
            a = (a + 1) & 0xFF
        elif k == OP_DEC_A:
            a = (a - 1) & 0xFF
        elif k == OP_CLR_A:
            a = 0
        elif k == OP_CPL_A:
            a ^= 0xFF
        elif k == OP_SWAP_A:
            a = ((a << 4) | (a >> 4)) & 0xFF
        elif k == OP_DA_A:            # CY is set, never cleared; AC unchanged (docs/hardware.md §2.9)
            if (a & 0x0F) > 9 or (psw & AC_FLAG):
                a += 6
                if a > 0xFF:
                    psw |= C_FLAG
                    a &= 0xFF
            if (a >> 4) > 9 or (psw & C_FLAG):
                a = (a + 0x60) & 0xFF
                psw |= C_FLAG
        elif k == OP_RL_A:
            a = ((a << 1) | (a >> 7)) & 0xFF
        elif k == OP_RLC_A:
            c = a >> 7
            a = ((a << 1) & 0xFF) | ((psw >> 7) & 1)
            psw = (psw & 0x7F) | (c << 7)
        elif k == OP_RR_A:
            a = (a >> 1) | ((a & 1) << 7)
        elif k == OP_RRC_A:
            c = a & 1
            a = (a >> 1) | (psw & C_FLAG)
            psw = (psw & 0x7F) | (c << 7)
        elif k == OP_JMP_ADDR or k == OP_CALL_ADDR:
            d = int(prog[pc])
            pc = _inc(pc)
            if k == OP_CALL_ADDR:
                psw = _push(iram, psw, pc)
            # A11 from the MB flip-flop, forced to 0 while an interrupt is in progress
            pc = (0x800 if (mb != 0 and in_irq == 0) else 0) | ((op & 0xE0) << 3) | d
        elif k == OP_RET or k == OP_RETR:
            sp = ((psw & SP_MASK) - 1) & SP_MASK
            hi = int(iram[STACK_BASE + 1 + STACK_ENTRY * sp])
            pc = ((hi & STACK_PC_HIGH) << 8) | int(iram[STACK_BASE + STACK_ENTRY * sp])
            if k == OP_RETR:                             # PSW[7:4] and the end of the IRQ
                psw = (hi & STACK_PSW) | PSW_ONE | sp
                rb = BANK1_R0 if psw & BS_FLAG else 0
                in_irq = 0
                horizon = RECHECK     # pending requests are taken before the next instruction
            else:
                psw = (psw & ~SP_MASK) | sp
        elif k == OP_JMPP_A:                             # in the page of the next byte
            pc = (pc & 0xF00) | int(prog[(pc & 0xF00) | a])
        elif k == OP_MOVP_A_A:
            a = int(prog[(pc & 0xF00) | a])
        elif k == OP_MOVP3_A_A:                          # page 3 = the BIOS
            a = int(prog[0x300 | a])
        elif k == OP_MOVX_A_X:
            a = bus.movx_read(regs, xram, vregs, work, p1, t, v)
        elif k == OP_MOVX_X_A:
            bus.movx_write(regs, xram, vregs, work, snd, p1, t, v, a)
        elif k >= OP_JBB_ADDR and k <= OP_JNI_ADDR:
            # conditional jumps: only PC[7:0] changes, in the page of the operand byte
            if k == OP_JBB_ADDR:
                cond = (a >> (op >> 5)) & 1
            elif k == OP_JC_ADDR:
                cond = 1 if psw & C_FLAG else 0
            elif k == OP_JNC_ADDR:
                cond = 0 if psw & C_FLAG else 1
            elif k == OP_JZ_ADDR:
                cond = 1 if a == 0 else 0
            elif k == OP_JNZ_ADDR:
                cond = 1 if a != 0 else 0
            elif k == OP_JT0_ADDR:                       # T0 reads 0 on this console
                cond = 0
            elif k == OP_JNT0_ADDR:
                cond = 1
            elif k == OP_JT1_ADDR:                       # T1 at the end of the cycles
                cond = vdc.t1_level(regs, t)
            elif k == OP_JNT1_ADDR:
                cond = 1 - vdc.t1_level(regs, t)
            elif k == OP_JF0_ADDR:
                cond = 1 if psw & F0_FLAG else 0
            elif k == OP_JF1_ADDR:
                cond = f1
            elif k == OP_JTF_ADDR:                       # TF is cleared in any case
                cond = tf
                tf = 0
            else:                                        # JNI: INT pin low
                cond = 1 if regs[INT] != 0 else 0
                if cond == 0:
                    jni_end = t
                    jni_target = (pc & 0xF00) | int(prog[pc])
            d = int(prog[pc])
            if cond:
                target = (pc & 0xF00) | d
                if skip_polling and target < pc and k in POLL_JUMPS:
                    # a pass of a polling loop from target to here that ends with A as it
                    # began repeats identically until the slow path intervenes (horizon)
                    if target == poll_target and a == poll_a and tmode != TMODE_COUNTER:
                        lc, count = _poll_loop(prog, target, pc - 1)
                        n = (horizon - t) // (lc * tpc) if lc and horizon > t else 0
                        if tmode == TMODE_TIMER and n > 0:   # up to the timer's overflow
                            n = min(n, (32 * (255 - timer) + 31 - presc) // lc)
                        if n > 0:
                            t += n * lc * tpc
                            if tmode == TMODE_TIMER:
                                presc += n * lc
                                timer += presc // 32
                                presc %= 32
                            skipped += n * count
                    poll_target = target
                    poll_a = a
                pc = target
            else:
                pc = _inc(pc)
        elif k == OP_EN_I:
            ien_i = 1
            horizon = RECHECK
        elif k == OP_DIS_I:
            ien_i = 0
        elif k == OP_EN_TCNTI:
            ien_t = 1
            horizon = RECHECK
        elif k == OP_DIS_TCNTI:                          # also drops a pending request
            ien_t = 0
            treq = 0
        elif k == OP_STRT_T:                             # clears the prescaler (MAME)
            tmode = TMODE_TIMER
            presc = 0
        elif k == OP_STRT_CNT:
            if tmode != TMODE_COUNTER:
                t1prev = vdc.t1_level(regs, t)           # the current level is "previous"
            tmode = TMODE_COUNTER
        elif k == OP_STOP_TCNT:
            tmode = TMODE_STOPPED
        elif k == OP_MOV_A_T:
            a = timer
        elif k == OP_MOV_T_A:
            timer = a
        elif k == OP_MOV_A_PSW:
            a = psw
        elif k == OP_MOV_PSW_A:                          # re-selects the register bank
            psw = a | PSW_ONE
            rb = BANK1_R0 if psw & BS_FLAG else 0
        elif k == OP_CLR_C:
            psw &= ~C_FLAG
        elif k == OP_CPL_C:
            psw ^= C_FLAG
        elif k == OP_CLR_F0:
            psw &= ~F0_FLAG
        elif k == OP_CPL_F0:
            psw ^= F0_FLAG
        elif k == OP_CLR_F1:
            f1 = 0
        elif k == OP_CPL_F1:
            f1 ^= 1
        elif k == OP_SEL_RB0:
            psw &= ~BS_FLAG
            rb = 0
        elif k == OP_SEL_RB1:
            psw |= BS_FLAG
            rb = BANK1_R0
        elif k == OP_SEL_MB0:
            mb = 0
        elif k == OP_SEL_MB1:
            mb = 1
        elif k == OP_OUTL_BUS_A:
            busl = a
        elif k == OP_INS_A_BUS:
            a = bus.read_bus(joys, p1, p2)
        elif k == OP_ORL_BUS_X:                          # read the bus, then write (MAME)
            busl = bus.read_bus(joys, p1, p2) | v
        elif k == OP_ANL_BUS_X:
            busl = bus.read_bus(joys, p1, p2) & v
        elif k == OP_IN_A_P1:                            # the latch (MAME)
            a = p1
        elif k == OP_IN_A_P2:
            a = bus.read_p2(keys, p1, p2)
        elif k == OP_OUTL_P1_A or k == OP_ORL_P1_X or k == OP_ANL_P1_X:
            if k == OP_OUTL_P1_A:
                v = a
            elif k == OP_ORL_P1_X:
                v |= p1
            else:
                v &= p1
            if (v ^ p1) & bus.P1_LUM:
                vdc.catch_up(regs, vregs, work, p1, t)   # P17 changes the picture from here
            old = p1
            p1 = v
            if (v ^ old) & bus.P1_BANK:
                bus.map_program(prog, bios, cart, regs, p1)   # next fetch is from the new bank
        elif k == OP_OUTL_P2_A:
            p2 = a
        elif k == OP_ORL_P2_X:
            p2 |= v
        elif k == OP_ANL_P2_X:
            p2 &= v
        elif k == OP_MOVD_A_PP:                          # 8243 expander (G7400 only): the
            p2 = (p2 & 0xF0) | 0x0F                      # nibble pins are read back as inputs
            a = bus.read_p2(keys, p1, p2) & 0x0F
        elif k == OP_MOVD_PP_A or k == OP_ORLD_PP_A or k == OP_ANLD_PP_A:
            p2 = (p2 & 0xF0) | (a & 0x0F)
        # NOP, ENT0 CLK (no clock output here) and the illegal opcodes: 1-cycle no-ops (MAME)

    # [6] store
    regs[A] = a
    regs[PC] = pc
    regs[PSW] = psw
    regs[F1] = f1
    regs[MB] = mb
    regs[T] = timer
    regs[TF] = tf
    regs[TMODE] = tmode
    regs[PRESCALE] = presc
    regs[T1_PREV] = t1prev
    regs[IEN_I] = ien_i
    regs[IEN_T] = ien_t
    regs[TIMER_REQ] = treq
    regs[IN_IRQ] = in_irq
    regs[P1] = p1
    regs[P2] = p2
    regs[BUS] = busl
    regs[TICK] = t
    regs[JNI_END] = jni_end
    regs[JNI_TARGET] = jni_target
    return skipped
