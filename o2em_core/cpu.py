"""The Intel 8048 CPU of the console (hardware.md §2), executing from the program space that
``bus.py`` lays out, with MAME's per-instruction model: interrupts are checked when an
instruction starts; the instruction first burns its 1 or 2 machine cycles (advancing the timer
or sampling T1 for the event counter) and then acts, so T1, the beam registers and every
MOVX see the time at the end of the instruction's cycles.

``run`` is the hot loop: it keeps the registers in local variables, executes until the frame's
end tick and handles the beam events (line ends, VBLANK) at their exact ticks, returning to
Python once per frame.
"""
from __future__ import annotations

import pathlib

import numpy as np
from numba import njit

from . import bus, vdc
from .state import (BUS, EV_TICK, F1, IEN_I, IEN_T, IN_IRQ, INT, MB, P1, P2, PC, PRESCALE,
                    PSW, T1_PREV, TF, TICK, TIMER_REQ, TMODE, TPC, A, T)

OPCODE_TABLE = pathlib.Path(__file__).with_name("data") / "mcs48_opcodes.tsv"

TMODE_STOPPED, TMODE_TIMER, TMODE_COUNTER = 0, 1, 2
VECTOR_INT, VECTOR_TIMER = 0x003, 0x007
C_FLAG, AC_FLAG, F0_FLAG, BS_FLAG = 0x80, 0x40, 0x20, 0x10
PSW_ONE = 0x08               # PSW bit 3 reads as 1


def load_cycles(path: pathlib.Path = OPCODE_TABLE) -> np.ndarray:
    """Machine cycles of each opcode, from the opcode table (data, not code)."""
    cycles = np.zeros(256, dtype=np.int64)
    seen = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("opcode"):
            continue
        fields = line.split("\t")
        cycles[int(fields[0], 16)] = int(fields[3])
        seen += 1
    if seen != 256 or not np.all((cycles == 1) | (cycles == 2)):
        raise ValueError(f"{path.name}: expected 256 opcodes of 1 or 2 cycles")
    return cycles


CYCLES = load_cycles()


@njit(cache=True)
def _count(regs: np.ndarray, tmode: int, timer: int, presc: int, t1prev: int, start: int,
           n: int, tpc: int) -> tuple[int, int, int, int]:
    """Advance the timer (prescaler ÷32) or the event counter (one T1 sample per machine cycle,
    counting 1->0 changes) over ``n`` cycles starting at tick ``start``.
    Returns (timer, prescaler, T1 sample, overflowed)."""
    over = 0
    if tmode == TMODE_TIMER:
        presc += n
        if presc >= 32:
            presc -= 32
            timer = (timer + 1) & 0xFF
            over = 1 if timer == 0 else 0
    else:
        for k in range(n):
            s = vdc.t1_level(regs, start + k * tpc)
            if t1prev == 1 and s == 0:
                timer = (timer + 1) & 0xFF
                if timer == 0:
                    over = 1
            t1prev = s
    return timer, presc, t1prev, over


@njit(cache=True)
def _push(iram: np.ndarray, psw: int, pc: int) -> int:
    """CALL / interrupt: stack entry SP gets PC[7:0] and PSW[7:4]|PC[11:8]; returns the PSW
    with SP + 1 (mod 8)."""
    sp = psw & 7
    iram[8 + 2 * sp] = pc & 0xFF
    iram[9 + 2 * sp] = (psw & 0xF0) | (pc >> 8)
    return (psw & 0xF8) | ((sp + 1) & 7)


@njit(cache=True)
def run(regs: np.ndarray, iram: np.ndarray, xram: np.ndarray, vregs: np.ndarray,
        keys: np.ndarray, joys: np.ndarray, prog: np.ndarray, bios: np.ndarray,
        cart: np.ndarray, work: np.ndarray, snd: np.ndarray, audio: np.ndarray,
        end_tick: int) -> None:
    """Execute instructions until the master tick reaches ``end_tick``."""
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
    cycles = CYCLES
    rb = 0x18 if psw & BS_FLAG else 0
    horizon = t                       # handle events / the frame end first

    while True:
        if t >= horizon:
            vdc.run_events(regs, vregs, work, snd, audio, p1, t + tpc)
            if t >= end_tick:
                break
            horizon = min(regs[EV_TICK] - tpc + 1, end_tick)

        # interrupts are sampled when an instruction starts; external (INT level) first
        if in_irq == 0 and ((ien_i != 0 and regs[INT] != 0) or (ien_t != 0 and treq != 0)):
            if ien_i != 0 and regs[INT] != 0:
                vector = VECTOR_INT
            else:
                vector = VECTOR_TIMER
                treq = 0
            start = t
            t += 2 * tpc              # taking an interrupt is a 2-cycle CALL
            if tmode != TMODE_STOPPED:
                timer, presc, t1prev, over = _count(regs, tmode, timer, presc, t1prev, start,
                                                    2, tpc)
                if over:
                    tf = 1
                    if ien_t:
                        treq = 1
            psw = _push(iram, psw, pc)
            pc = vector
            in_irq = 1
            continue

        op = int(prog[pc])
        pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        n = cycles[op]
        start = t
        t += n * tpc
        if tmode != TMODE_STOPPED:
            timer, presc, t1prev, over = _count(regs, tmode, timer, presc, t1prev, start, n,
                                                tpc)
            if over:
                tf = 1                # an overflow always sets TF; the request only if enabled
                if ien_t:
                    treq = 1

        # ---- register-bank families (low 3 bits = Rn) and @Ri pairs ----
        if op >= 0xF8:                                   # MOV A,Rn
            a = int(iram[rb + (op & 7)])
        elif op >= 0xE8 and op <= 0xEF:                  # DJNZ Rn,addr
            r = rb + (op & 7)
            v = (int(iram[r]) - 1) & 0xFF
            iram[r] = v
            d = int(prog[pc])
            if v != 0:
                pc = (pc & 0xF00) | d
            else:
                pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op >= 0xD8 and op <= 0xDF:                  # XRL A,Rn
            a ^= int(iram[rb + (op & 7)])
        elif op >= 0xC8 and op <= 0xCF:                  # DEC Rn
            r = rb + (op & 7)
            iram[r] = (int(iram[r]) - 1) & 0xFF
        elif op >= 0xB8 and op <= 0xBF:                  # MOV Rn,#data
            iram[rb + (op & 7)] = int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op >= 0xA8 and op <= 0xAF:                  # MOV Rn,A
            iram[rb + (op & 7)] = a
        elif op >= 0x78 and op <= 0x7F:                  # ADDC A,Rn
            v = int(iram[rb + (op & 7)])
            c = (psw >> 7) & 1
            s = a + v + c
            psw = (psw & 0x3F) | (C_FLAG if s > 0xFF else 0) | \
                (AC_FLAG if (a & 0xF) + (v & 0xF) + c > 0xF else 0)
            a = s & 0xFF
        elif op >= 0x68 and op <= 0x6F:                  # ADD A,Rn
            v = int(iram[rb + (op & 7)])
            s = a + v
            psw = (psw & 0x3F) | (C_FLAG if s > 0xFF else 0) | \
                (AC_FLAG if (a & 0xF) + (v & 0xF) > 0xF else 0)
            a = s & 0xFF
        elif op >= 0x58 and op <= 0x5F:                  # ANL A,Rn
            a &= int(iram[rb + (op & 7)])
        elif op >= 0x48 and op <= 0x4F:                  # ORL A,Rn
            a |= int(iram[rb + (op & 7)])
        elif op >= 0x28 and op <= 0x2F:                  # XCH A,Rn
            r = rb + (op & 7)
            v = int(iram[r])
            iram[r] = a
            a = v
        elif op >= 0x18 and op <= 0x1F:                  # INC Rn
            r = rb + (op & 7)
            iram[r] = (int(iram[r]) + 1) & 0xFF
        # ---- the rest, one opcode each ----
        elif op == 0x00:                                 # NOP
            pass
        elif op == 0x02:                                 # OUTL BUS,A
            busl = a
        elif op == 0x03 or op == 0x13 or op == 0x60 or op == 0x61 or op == 0x70 or op == 0x71:
            if op == 0x03 or op == 0x13:                 # ADD/ADDC A,#data
                v = int(prog[pc])
                pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
            else:                                        # ADD/ADDC A,@Ri
                v = int(iram[int(iram[rb + (op & 1)]) & 0x3F])
            c = (psw >> 7) & 1 if (op & 0x10) else 0
            s = a + v + c
            psw = (psw & 0x3F) | (C_FLAG if s > 0xFF else 0) | \
                (AC_FLAG if (a & 0xF) + (v & 0xF) + c > 0xF else 0)
            a = s & 0xFF
        elif (op & 0x1F) == 0x04 or (op & 0x1F) == 0x14:   # JMP / CALL addr
            d = int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
            if op & 0x10:
                psw = _push(iram, psw, pc)
            # A11 from the MB flip-flop, forced to 0 while an interrupt is in progress
            pc = (0x800 if (mb != 0 and in_irq == 0) else 0) | ((op & 0xE0) << 3) | d
        elif op == 0x05:                                 # EN I
            ien_i = 1
        elif op == 0x07:                                 # DEC A
            a = (a - 1) & 0xFF
        elif op == 0x08:                                 # INS A,BUS
            a = bus.read_bus(joys, p1, p2)
        elif op == 0x09:                                 # IN A,P1 (the latch, MAME)
            a = p1
        elif op == 0x0A:                                 # IN A,P2
            a = bus.read_p2(keys, p1, p2)
        elif op >= 0x0C and op <= 0x0F:                  # MOVD A,Pp (8243; G7400 only)
            p2 = (p2 & 0xF0) | 0x0F
            a = bus.read_p2(keys, p1, p2) & 0x0F
        elif op == 0x10 or op == 0x11:                   # INC @Ri
            r = int(iram[rb + (op & 1)]) & 0x3F
            iram[r] = (int(iram[r]) + 1) & 0xFF
        elif op == 0x15:                                 # DIS I
            ien_i = 0
        elif op == 0x17:                                 # INC A
            a = (a + 1) & 0xFF
        elif op == 0x20 or op == 0x21:                   # XCH A,@Ri
            r = int(iram[rb + (op & 1)]) & 0x3F
            v = int(iram[r])
            iram[r] = a
            a = v
        elif op == 0x23:                                 # MOV A,#data
            a = int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0x25:                                 # EN TCNTI
            ien_t = 1
        elif op == 0x27:                                 # CLR A
            a = 0
        elif op == 0x30 or op == 0x31:                   # XCHD A,@Ri
            r = int(iram[rb + (op & 1)]) & 0x3F
            v = int(iram[r])
            iram[r] = (v & 0xF0) | (a & 0x0F)
            a = (a & 0xF0) | (v & 0x0F)
        elif op == 0x35:                                 # DIS TCNTI (also drops a request)
            ien_t = 0
            treq = 0
        elif op == 0x37:                                 # CPL A
            a ^= 0xFF
        elif op == 0x39 or op == 0x89 or op == 0x99:     # OUTL / ORL / ANL P1
            if op == 0x39:
                v = a
            else:
                v = p1 | int(prog[pc]) if op == 0x89 else p1 & int(prog[pc])
                pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
            if (v ^ p1) & bus.P1_LUM:
                vdc.catch_up(regs, vregs, work, p1, t)   # P17 changes the picture from here
            old = p1
            p1 = v
            if (v ^ old) & bus.P1_BANK:
                bus.map_program(prog, bios, cart, regs, p1)   # next fetch is from the new bank
        elif op == 0x3A or op == 0x8A or op == 0x9A:     # OUTL / ORL / ANL P2
            if op == 0x3A:
                p2 = a
            else:
                p2 = p2 | int(prog[pc]) if op == 0x8A else p2 & int(prog[pc])
                pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op >= 0x3C and op <= 0x3F:                  # MOVD Pp,A (8243; G7400 only)
            p2 = (p2 & 0xF0) | (a & 0x0F)
        elif (op >= 0x8C and op <= 0x8F) or (op >= 0x9C and op <= 0x9F):  # ORLD / ANLD Pp,A
            p2 = (p2 & 0xF0) | (a & 0x0F)
        elif op == 0x40 or op == 0x41:                   # ORL A,@Ri
            a |= int(iram[int(iram[rb + (op & 1)]) & 0x3F])
        elif op == 0x42:                                 # MOV A,T
            a = timer
        elif op == 0x43:                                 # ORL A,#data
            a |= int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0x45:                                 # STRT CNT
            if tmode != TMODE_COUNTER:
                t1prev = vdc.t1_level(regs, t)           # the current level is "previous"
            tmode = TMODE_COUNTER
        elif op == 0x47:                                 # SWAP A
            a = ((a << 4) | (a >> 4)) & 0xFF
        elif op == 0x50 or op == 0x51:                   # ANL A,@Ri
            a &= int(iram[int(iram[rb + (op & 1)]) & 0x3F])
        elif op == 0x53:                                 # ANL A,#data
            a &= int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0x55:                                 # STRT T (clears the prescaler)
            tmode = TMODE_TIMER
            presc = 0
        elif op == 0x57:                                 # DA A
            if (a & 0x0F) > 9 or (psw & AC_FLAG):
                a += 6
                if a > 0xFF:
                    psw |= C_FLAG
                    a &= 0xFF
            if (a >> 4) > 9 or (psw & C_FLAG):
                a = (a + 0x60) & 0xFF
                psw |= C_FLAG
        elif op == 0x62:                                 # MOV T,A
            timer = a
        elif op == 0x65:                                 # STOP TCNT
            tmode = TMODE_STOPPED
        elif op == 0x67:                                 # RRC A
            v = a & 1
            a = (a >> 1) | (psw & C_FLAG)
            psw = (psw & 0x7F) | (v << 7)
        elif op == 0x77:                                 # RR A
            a = (a >> 1) | ((a & 1) << 7)
        elif op == 0x80 or op == 0x81:                   # MOVX A,@Ri
            a = bus.movx_read(regs, xram, vregs, work, p1, t, int(iram[rb + (op & 1)]))
        elif op == 0x90 or op == 0x91:                   # MOVX @Ri,A
            bus.movx_write(regs, xram, vregs, work, snd, p1, t, int(iram[rb + (op & 1)]), a)
        elif op == 0x83 or op == 0x93:                   # RET / RETR
            sp = ((psw & 7) - 1) & 7
            hi = int(iram[9 + 2 * sp])
            pc = ((hi & 0x0F) << 8) | int(iram[8 + 2 * sp])
            if op == 0x93:                               # RETR: PSW[7:4] and the IRQ lock
                psw = (hi & 0xF0) | PSW_ONE | sp
                rb = 0x18 if psw & BS_FLAG else 0
                in_irq = 0
            else:
                psw = (psw & 0xF8) | sp
        elif op == 0x85:                                 # CLR F0
            psw &= ~F0_FLAG
        elif op == 0x95:                                 # CPL F0
            psw ^= F0_FLAG
        elif op == 0x88 or op == 0x98:                   # ORL / ANL BUS,#data
            v = bus.read_bus(joys, p1, p2)
            busl = v | int(prog[pc]) if op == 0x88 else v & int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0x97:                                 # CLR C
            psw &= ~C_FLAG
        elif op == 0xA7:                                 # CPL C
            psw ^= C_FLAG
        elif op == 0xA0 or op == 0xA1:                   # MOV @Ri,A
            iram[int(iram[rb + (op & 1)]) & 0x3F] = a
        elif op == 0xB0 or op == 0xB1:                   # MOV @Ri,#data
            iram[int(iram[rb + (op & 1)]) & 0x3F] = int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0xA3:                                 # MOVP A,@A (page of the next byte)
            a = int(prog[(pc & 0xF00) | a])
        elif op == 0xE3:                                 # MOVP3 A,@A (page 3 = BIOS)
            a = int(prog[0x300 | a])
        elif op == 0xB3:                                 # JMPP @A
            pc = (pc & 0xF00) | int(prog[(pc & 0xF00) | a])
        elif op == 0xA5:                                 # CLR F1
            f1 = 0
        elif op == 0xB5:                                 # CPL F1
            f1 ^= 1
        elif op == 0xC5 or op == 0xD5:                   # SEL RB0 / SEL RB1
            psw = (psw & ~BS_FLAG) | (BS_FLAG if op == 0xD5 else 0)
            rb = 0x18 if op == 0xD5 else 0
        elif op == 0xE5 or op == 0xF5:                   # SEL MB0 / SEL MB1
            mb = 1 if op == 0xF5 else 0
        elif op == 0xC7:                                 # MOV A,PSW
            a = psw
        elif op == 0xD7:                                 # MOV PSW,A (re-selects the bank)
            psw = a | PSW_ONE
            rb = 0x18 if psw & BS_FLAG else 0
        elif op == 0xD0 or op == 0xD1:                   # XRL A,@Ri
            a ^= int(iram[int(iram[rb + (op & 1)]) & 0x3F])
        elif op == 0xD3:                                 # XRL A,#data
            a ^= int(prog[pc])
            pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        elif op == 0xE7:                                 # RL A
            a = ((a << 1) | (a >> 7)) & 0xFF
        elif op == 0xF0 or op == 0xF1:                   # MOV A,@Ri
            a = int(iram[int(iram[rb + (op & 1)]) & 0x3F])
        elif op == 0xF7:                                 # RLC A
            v = a >> 7
            a = ((a << 1) & 0xFF) | ((psw >> 7) & 1)
            psw = (psw & 0x7F) | (v << 7)
        elif (op & 0x0F) == 0x06 or (op & 0x1F) == 0x12 or op == 0x16 or op == 0x76:
            # conditional jumps: only PC[7:0] changes, in the page of the operand byte
            if (op & 0x1F) == 0x12:                      # JBb: bit b of A
                cond = (a >> (op >> 5)) & 1
            elif op == 0x16:                             # JTF: clears TF in any case
                cond = tf
                tf = 0
            elif op == 0x76:                             # JF1
                cond = f1
            elif op == 0x26:                             # JNT0 (T0 reads 0)
                cond = 1
            elif op == 0x36:                             # JT0
                cond = 0
            elif op == 0x46 or op == 0x56:               # JNT1 / JT1 at the end of the cycles
                cond = vdc.t1_level(regs, t)
                if op == 0x46:
                    cond = 1 - cond
            elif op == 0x86:                             # JNI: INT pin low
                cond = 1 if regs[INT] != 0 else 0
            elif op == 0x96:                             # JNZ
                cond = 1 if a != 0 else 0
            elif op == 0xB6:                             # JF0
                cond = 1 if psw & F0_FLAG else 0
            elif op == 0xC6:                             # JZ
                cond = 1 if a == 0 else 0
            elif op == 0xE6:                             # JNC
                cond = 0 if psw & C_FLAG else 1
            elif op == 0xF6:                             # JC
                cond = 1 if psw & C_FLAG else 0
            else:                                        # x6 without a jump: illegal
                continue
            d = int(prog[pc])
            if cond:
                pc = (pc & 0xF00) | d
            else:
                pc = (pc & 0x800) | ((pc + 1) & 0x7FF)
        # everything else (ENT0 CLK and the illegal opcodes) is a 1-cycle no-op

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
