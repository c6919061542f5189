"""`videopac debug`: a terminal debugger for 8048 programs on the emulated console, in the style of
MAME's (docs/debugger.md).

Breakpoints on the PC, watchpoints on writes to internal RAM, external RAM and the video chip's
registers, stepping by instruction, over a CALL, out of a subroutine, to the next line or frame,
registers, disassembly with symbols, hex views, the video chip's objects decoded, a trace file and
screenshots. Commands come from the prompt or from ``--script FILE``.

The debugger drives ``Machine.step()`` one instruction at a time only while a breakpoint or a
watchpoint is set or a step is asked for; otherwise it runs whole frames with ``run_frame()``,
so the emulation costs nothing more when none is set.
"""
from __future__ import annotations

import itertools
import pathlib
import queue
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Protocol, TextIO

import numpy as np

from cartridge.dis48 import instruction, symbol_names
from cartridge.images import builtin_symbols
from cartridge.opcodes import OPCODES
from i18n import N_, _, os_reason
from safefiles import open_text_output
# o2em_core brings numba with it; imported at the top all the same, since this module is loaded
# only to debug a machine (`videopac debug`, and `videopac play` once its window is set up)
from o2em_core import Machine, palette
from o2em_core import vdc_regs as r
from o2em_core.bus import P1_COPY, P1_RAM, P1_VDC
from o2em_core.cpu import BANK1_R0, STACK_BASE, STACK_ENTRY, STACK_PC_HIGH
from o2em_core.keyboard import JOY_BITS
from o2em_core.machine import CpuView
from o2em_core.state import AC_FLAG, BS_FLAG, C_FLAG, F0_FLAG
from videopac.battle.published import load_symbols, symbols_for
from videopac.console import paths

# ---- 8048 facts the debugger needs, read from the opcode table (docs/hardware.md §2) -------


def _opcodes_where(test: Callable[[str, tuple[str, ...]], bool]) -> dict[int, tuple[str, ...]]:
    """opcode -> operands, for the rows of the opcode table that ``test(mnemonic, operands)``
    picks."""
    return {op.code: op.operands for op in OPCODES if test(op.mnemonic, op.operands)}


def _register(operand: str) -> bool:
    """Whether an operand of the opcode table is a register: Rn or @Ri."""
    return operand.startswith(("R", "@R"))


CALL_OPCODES = frozenset(_opcodes_where(lambda m, o: m == "CALL"))
RETURN_OPCODES = frozenset(_opcodes_where(lambda m, o: m in ("RET", "RETR")))
# MOVX @Ri,A -> "@Ri": the external data space written at the address in Ri (§4.3)
MOVX_WRITES = {code: ops[0] for code, ops in _opcodes_where(
    lambda m, o: m == "MOVX" and o[0].startswith("@")).items()}
# instructions that write internal RAM -> the operand they write: Rn, or @Ri (the low 6 bits of
# Ri); MOV, INC, DEC and DJNZ write their first operand, XCH and XCHD the register they swap with
IRAM_WRITES = {code: next(o for o in ops if _register(o)) for code, ops in _opcodes_where(
    lambda m, o: (m in ("MOV", "INC", "DEC", "DJNZ") and bool(o) and _register(o[0]))
    or (m in ("XCH", "XCHD") and any(_register(x) for x in o))).items()}
FLAG_NAMES = ((C_FLAG, "C"), (AC_FLAG, "AC"), (F0_FLAG, "F0"), (BS_FLAG, "BS"))
# the BIOS keeps the collision result of the last frame in internal RAM, at the address its
# symbol file publishes under this name (docs/bios.md, docs/hardware.md §9.1)
COLLISION_COPY_SYMBOL = "iram_collision"


# the legend of each character code (docs/hardware.md §14); codes 30-3F are pictures
GLYPHS = "0123456789:$ ?LP+WERTUIOQSDFGHJKAZXCVBM.-×÷=YN/█"
PICTURES = ("10", "ball", "man-right", "walk-right", "walk-left", "man-left", "arrow", "tree",
            "ramp-up", "ramp-down", "man-front", "\\", "ship1", "plane", "ship2", "ship3")


def glyph_of_pointer(pointer: int, y: int) -> str:
    """The character a major object shows: pointer + Y/2 is 8 × code + first row (§7.4)."""
    row0 = (pointer + y // 2) & 0x1FF
    code, cut = row0 >> 3, row0 & 7
    name = GLYPHS[code] if code < 0x30 else PICTURES[code - 0x30]
    name = "space" if name == " " else name
    return f"{code:02X}'{name}'" + (f"+{cut}" if cut else "")


def _register_base(cpu: CpuView) -> int:
    """The internal RAM address of R0 in the register bank ``cpu`` has selected (§2.2)."""
    return BANK1_R0 if cpu.bank else 0


class DebugError(Exception):
    """A command the debugger cannot carry out; the message is one sentence."""


@dataclass(frozen=True)
class Watchpoint:
    space: str          # "iram", "xram" or "vdc"
    first: int
    last: int

    def covers(self, space: str, address: int) -> bool:
        return space == self.space and self.first <= address <= self.last

    def __str__(self) -> str:
        span = f"{self.first:02X}" if self.first == self.last else f"{self.first:02X}-{self.last:02X}"
        return f"{self.space} {span}"


def _number(text: str) -> int:
    """An address or count as the user types it: 1A2, 0x1A2, $1A2, 1A2h are hexadecimal (as in
    MAME's debugger); #12 is decimal."""
    t = text.strip().lower()
    try:
        if t.startswith("#"):
            return int(t[1:], 10)
        for prefix in ("0x", "$"):
            if t.startswith(prefix):
                return int(t[len(prefix):], 16)
        if t.endswith("h"):
            t = t[:-1]
        return int(t, 16)
    except ValueError:
        raise DebugError(_("'{text}' is not a number (hexadecimal, or #decimal)").format(
            text=text)) from None


class Debugger:
    """The debugger's state and commands over one ``Machine``; ``out`` receives its text."""

    def __init__(self, machine: Machine, symbols: dict[str, int] | None = None,
                 out: Callable[[str], None] = print) -> None:
        self.machine = machine
        self.symbols = {k: v for k, v in (symbols or {}).items() if isinstance(v, int)}
        self._names = symbol_names(self.symbols)
        self._upper = {k.upper(): v for k, v in self.symbols.items()}
        self.out = out
        self.breakpoints: set[int] = set()
        self.watchpoints: list[Watchpoint] = []
        self.trace: TextIO | None = None
        self.trace_path = ""          # the file ``trace`` writes to, as the user named it

    # ---- what the machine holds ----------------------------------------------------------

    @property
    def pc(self) -> int:
        """The program counter."""
        return self.machine.pc

    def address(self, text: str) -> int:
        """A program address typed as a number or a symbol name."""
        if text.upper() in self._upper:
            return int(self._upper[text.upper()]) & 0xFFF
        value = _number(text)
        if not 0 <= value <= 0xFFF:
            raise DebugError(_("{value:X} is outside the 4 KB program space").format(value=value))
        return value

    def label(self, address: int) -> str:
        """The symbol at ``address`` as ' <name>', or '' where there is none."""
        name = self._names.get(address)
        return f" <{name}>" if name else ""

    def disassemble(self, address: int, count: int = 1) -> list[str]:
        """``count`` instructions from ``address``, one line each, the PC's marked with >."""
        prog = bytes(self.machine.program)
        lines = []
        for _i in range(count):
            if address > 0xFFF:
                break
            text, raw, _named = instruction(prog[address:], address, self._names)
            name = self._names.get(address)
            head = f"{name}:" if name else ""
            marker = ">" if address == self.pc else " "
            code = " ".join(f"{b:02X}" for b in raw)
            lines.append(f"{marker}{address:03X}  {code:<9}{head:<14}{text}")
            address += len(raw)
        return lines

    def registers(self) -> list[str]:
        """The CPU's registers, flags, stack and banks, and where the beam is."""
        c, m = self.machine.cpu, self.machine
        rb = _register_base(c)
        regs = " ".join(f"R{n}={int(m.iram[rb + n]):02X}" for n in range(8))
        flags = " ".join(name for bit, name in FLAG_NAMES if c.psw & bit) or "-"
        line, px = m.beam
        stack = []
        for level in range(c.sp - 1, -1, -1):      # docs/hardware.md §2.3
            at = STACK_BASE + STACK_ENTRY * level
            ret = (int(m.iram[at + 1]) & STACK_PC_HIGH) << 8 | int(m.iram[at])
            stack.append(f"{ret:03X}{self.label(ret)}")
        return [
            f"PC={c.pc:03X}{self.label(c.pc)}  A={c.a:02X}  PSW={c.psw:02X} [{flags}]  "
            f"SP={c.sp}  F1={c.f1}  TF={c.tf}  T={c.t:02X}",
            f"{regs}   (" + _("register bank {bank}").format(bank=c.bank) + ")",
            f"P1={c.p1:02X}  P2={c.p2:02X}  BUS={c.bus:02X}  MB={c.mb}  "
            + _("cartridge bank {bank}").format(bank=c.p1 & 3)
            + ("  " + _("in interrupt") if c.in_irq else ""),
            _("stack: {entries}").format(entries=", ".join(stack) or "-"),
            _("frame {frame}, line {line}, pixel {px}, cycle {cycle}").format(
                frame=m.frames, line=line, px=px, cycle=m.cycles),
        ]

    def hexdump(self, space: str, first: int = 0, length: int | None = None) -> list[str]:
        """16 bytes a line of the memory ``space`` (iram, xram or vdc) from ``first``."""
        memory = self._space(space)
        length = len(memory) - first if length is None else length
        if not 0 <= first < len(memory) or length < 1:
            raise DebugError(_("{space} has addresses 00 to {last:02X}").format(
                space=space, last=len(memory) - 1))
        last = min(first + length, len(memory))
        rows = []
        for row in range(first - first % 16, last, 16):
            cells = [f"{int(memory[a]):02X}" if first <= a < last else "  "
                     for a in range(row, row + 16) if a < len(memory)]
            rows.append(f"{space} {row:02X}: " + " ".join(cells))
        return rows

    def _space(self, space: str) -> np.ndarray:
        memories = {"iram": self.machine.iram, "xram": self.machine.xram,
                    "vdc": self.machine.vdc_regs}
        if space not in memories:
            raise DebugError(_("'{space}' is not a memory; use iram, xram or vdc").format(
                space=space))
        return memories[space]

    # ---- running -------------------------------------------------------------------------

    def _writes(self) -> list[tuple[str, int]]:
        """The (space, address) pairs the instruction at PC is about to write (docs/hardware.md §4.3:
        MOVX reaches the video chip with P13 = 0 and the RAM with P14 = 0, P16 = 0)."""
        m, c = self.machine, self.machine.cpu
        op = int(m.program[c.pc])
        rb = _register_base(c)

        def register(name: str) -> int:           # "R3" or "@R1" -> the register's address
            return rb + int(name[-1])

        found = []
        if op in MOVX_WRITES:
            target = int(m.iram[register(MOVX_WRITES[op])])
            if not c.p1 & P1_VDC:
                found.append(("vdc", target))
            if not c.p1 & P1_RAM and not c.p1 & P1_COPY and target < len(m.xram):
                found.append(("xram", target))
        if op in IRAM_WRITES:
            operand = IRAM_WRITES[op]
            where = register(operand)
            found.append(("iram", int(m.iram[where]) & 0x3F if operand[0] == "@" else where))
        return found

    def step_one(self) -> str:
        """Execute one instruction; the reason to stop, or "" to go on."""
        m = self.machine
        pc = self.pc
        watched = self.watchpoints
        before = {w: self._space(w.space)[w.first:w.last + 1].copy() for w in watched}
        writes = self._writes() if watched else []
        if self.trace is not None:
            c = m.cpu
            self.trace_line(f"{self.disassemble(pc)[0][1:]:<44} A={c.a:02X} PSW={c.psw:02X} "
                            f"P1={c.p1:02X} frame={m.frames}\n")
        m.step()
        for w in watched:
            hit = next((a for s, a in writes if w.covers(s, a)), None)
            if hit is None:
                now = self._space(w.space)[w.first:w.last + 1]
                changed = [i for i in range(len(now)) if now[i] != before[w][i]]
                hit = w.first + changed[0] if changed else None
            if hit is not None:
                value = int(self._space(w.space)[hit])
                return _("watchpoint {wp}: {space} {addr:02X} written ({value:02X}) by the "
                         "instruction at {pc:03X}").format(wp=str(w), space=w.space, addr=hit,
                                                           value=value, pc=pc)
        if self.pc in self.breakpoints:
            return _("breakpoint at {pc:03X}{label}").format(pc=self.pc, label=self.label(self.pc))
        return ""

    def start_trace(self, path: str) -> None:
        """Trace into ``path`` from now on, line-buffered, so that a full disk is found at the
        line that does not fit; DebugError naming the file when it cannot be opened."""
        self.stop_trace()
        try:
            self.trace = open_text_output(path)
        except OSError as exc:
            raise DebugError(_("cannot write {path}: {reason}").format(
                path=path, reason=os_reason(exc))) from None
        self.trace_path = path

    def trace_line(self, text: str) -> None:
        """One line into the trace; when it cannot be written the trace is off and a DebugError
        names the file."""
        assert self.trace is not None
        try:
            self.trace.write(text)
        except OSError as exc:
            self.stop_trace()
            raise DebugError(_("cannot write the trace {path}: {reason}; tracing is off").format(
                path=self.trace_path, reason=os_reason(exc))) from None

    def stop_trace(self) -> None:
        """Close the trace, if one is open (what could not be written was said already)."""
        trace, self.trace = self.trace, None
        if trace is not None:
            try:
                trace.close()
            except OSError:
                pass

    def _until(self, done: Callable[[], bool], limit: int | None = 10_000_000) -> str:
        """Step until ``done()`` or a breakpoint or watchpoint; the reason to stop. ``limit``
        bounds the steps (None: until stopped, for `go`)."""
        steps = itertools.count() if limit is None else range(limit)
        for _i in steps:
            reason = self.step_one()
            if reason:
                return reason
            if done():
                return ""
        raise DebugError(_("stopped after {n} instructions without reaching the goal").format(
            n=limit))

    def _fast(self) -> bool:
        """Whole frames may run compiled: nothing to stop on inside them."""
        return not self.breakpoints and not self.watchpoints and self.trace is None

    def run_frames(self, count: int) -> str:
        """Run ``count`` frames; the reason to stop early, or ""."""
        m = self.machine
        for _i in range(count):
            if self._fast():
                m.run_frame()
                continue
            start = m.frames
            reason = self._until(lambda: m.frames != start)
            if reason:
                return reason
        return ""

    def next_line(self, count: int) -> str:
        """Run until the beam has reached ``count`` more scanlines; the reason to stop early."""
        m = self.machine
        for _i in range(count):
            start = m.beam[0]
            reason = self._until(lambda: m.beam[0] != start)
            if reason:
                return reason
        return ""

    def step_over(self) -> str:
        """One instruction, a CALL with all it calls; the reason to stop early."""
        m = self.machine
        pc, sp = self.pc, m.cpu.sp
        if int(m.program[pc]) not in CALL_OPCODES:
            return self.step_one()
        back = (pc & 0x800) | ((pc + 2) & 0x7FF)
        return self._until(lambda: self.pc == back and m.cpu.sp == sp)

    def step_out(self) -> str:
        """Run until the current subroutine returns; the reason to stop early."""
        m = self.machine
        sp = m.cpu.sp
        if sp == 0:
            raise DebugError(_("the stack is empty: there is no subroutine to leave"))
        state = {"ret": False}

        def returned() -> bool:
            return state["ret"] and m.cpu.sp == sp - 1

        def watch() -> bool:
            done = returned()
            state["ret"] = int(m.program[self.pc]) in RETURN_OPCODES
            return done

        state["ret"] = int(m.program[self.pc]) in RETURN_OPCODES
        return self._until(watch)

    def go(self, until: int | None = None, frames: int | None = None) -> str:
        """Run until a breakpoint, a watchpoint or ``until``; ``frames`` bounds it (a script
        must end)."""
        m = self.machine
        if until is None and self._fast():
            if frames is None:
                raise DebugError(_("nothing would stop 'go': set a breakpoint or a watchpoint, "
                                   "or give a frame count (go FRAMES)"))
            for _i in range(frames):
                m.run_frame()
            return ""
        start = m.frames
        reason = self._until(lambda: self.pc == until or (frames is not None
                                                         and m.frames - start >= frames),
                             limit=None)
        if not reason and self.pc == until:
            return _("reached {pc:03X}{label}").format(pc=until, label=self.label(until))
        return reason

    # ---- the video chip, decoded (docs/hardware.md §7) ----------------------------------------

    def collision_copy(self) -> tuple[int, bool]:
        """The internal RAM address where the BIOS keeps the last collision result, and whether
        the BIOS's symbols said so. Without them (a BIOS of one's own, no --sym for it) it is
        the built-in BIOS's address, the one games expect (docs/hardware.md §9.1)."""
        address = self._upper.get(COLLISION_COPY_SYMBOL.upper())
        if address is not None and 0 <= address < len(self.machine.iram):
            return address, True
        return builtin_symbols("bios")[COLLISION_COPY_SYMBOL], False

    def video(self) -> list[str]:
        """The video chip's registers decoded: control, colour, collisions, sound, objects, grid
        (docs/hardware.md §7)."""
        v = self.machine.vdc_regs
        ctrl, colour = int(v[r.CONTROL]), int(v[r.COLOUR])
        on = [name for bit, name in r.CTRL_NAMES if ctrl & bit]
        copy, named = self.collision_copy()
        shift = 0
        for a in range(r.SOUND_SHIFT, r.SOUND_SHIFT_END + 1):      # bits 23-16, 15-8, 7-0
            shift = shift << 8 | int(v[a])
        bright = " bright" if colour & r.COLOUR_GRID_BRIGHT else ""
        out = [_("control A0={ctrl:02X} [{bits}]  colour A3={colour:02X}: background {bg}, grid "
                 "{grid}{bright}").format(ctrl=ctrl, bits=" ".join(on) or "-", colour=colour,
                                          bg=(colour >> r.COLOUR_BACKGROUND_SHIFT) & r.RGB,
                                          grid=colour & r.COLOUR_GRID, bright=bright),
               (_("collision mask A2={mask:02X}, last result copied by the BIOS (iram {addr:02X})="
                  "{res:02X}; sound A7-A9={s:06X} AA={snd:02X}") if named else
                _("collision mask A2={mask:02X}, iram {addr:02X} (where the built-in BIOS copies "
                  "the last result; no BIOS symbols)={res:02X}; sound A7-A9={s:06X} AA={snd:02X}")
                ).format(mask=int(v[r.COLLISION]), addr=copy, res=int(self.machine.iram[copy]),
                         s=shift, snd=int(v[r.SOUND_CONTROL]))]
        for n in range(r.SPRITES):
            base = r.SPRITE_BASE + r.SPRITE_SIZE * n
            y, x, attr = int(v[base + r.OBJ_Y]), int(v[base + r.OBJ_X]), int(v[base + r.SPRITE_ATTR])
            shape = " ".join(f"{int(v[r.SHAPE_BASE + r.SHAPE_ROWS * n + row]):02X}"
                             for row in range(r.SHAPE_ROWS))
            out.append(_("sprite {n}: y={y:02X} x={x:02X} colour {c}{zoom}  shape {shape}").format(
                n=n, y=y, x=x, c=(attr >> r.SPRITE_COLOUR_SHIFT) & r.RGB,
                zoom=" zoom" if attr & r.SPRITE_ZOOM else "", shape=shape))

        def glyph(base: int, y: int) -> str:      # the character one Y/pointer/attribute shows
            pointer = ((int(v[base + r.OBJ_ATTR]) & r.CHAR_POINTER_BIT8) << 8
                       | int(v[base + r.OBJ_POINTER]))
            return glyph_of_pointer(pointer, y)

        for n in range(r.CHARS):
            base = r.CHAR_BASE + r.CHAR_SIZE * n
            y, x = int(v[base + r.OBJ_Y]), int(v[base + r.OBJ_X])
            out.append(_("char {n}: y={y:02X} x={x:02X} glyph {g} colour {c}").format(
                n=n, y=y, x=x, g=glyph(base, y),
                c=(int(v[base + r.OBJ_ATTR]) >> r.CHAR_COLOUR_SHIFT) & r.RGB))
        for q in range(r.QUADS):
            base = r.QUAD_BASE + r.QUAD_SIZE * q
            y, x = int(v[base + r.OBJ_Y]), int(v[base + r.OBJ_X])
            glyphs = " ".join(glyph(base + r.CHAR_SIZE * j, y) for j in range(4))
            out.append(_("quad {n}: y={y:02X} x={x:02X} glyphs {g}").format(n=q, y=y, x=x,
                                                                             g=glyphs))
        horizontal = " ".join(
            f"{int(v[r.GRID_H + c]) | (int(v[r.GRID_H8 + c]) & r.GRID_H8_MASK) << 8:03X}"
            for c in range(r.GRID_H_COLUMNS))
        vertical = " ".join(f"{int(v[r.GRID_V + n]):02X}" for n in range(r.GRID_V_LINES))
        out.append(_("grid: horizontal columns {h}; vertical lines {v}").format(h=horizontal,
                                                                              v=vertical))
        return out


# ---- the command language ---------------------------------------------------------------

HELP = (
    ("s [N]", N_("step N instructions (default 1)")),
    ("o", N_("step over a CALL")),
    ("out", N_("run until the current subroutine returns")),
    ("nl [N]", N_("run to the next scanline (N lines)")),
    ("nf [N]", N_("run to the end of the frame (N frames)")),
    ("g [ADDR] [FRAMES]", N_("go until a breakpoint, a watchpoint or ADDR; FRAMES bounds it")),
    ("bp ADDR|SYMBOL", N_("set a breakpoint on the PC")),
    ("bpclear [ADDR|all]", N_("remove breakpoints")),
    ("bplist", N_("list the breakpoints")),
    ("wp iram|xram|vdc ADDR[-END]", N_("stop when the program writes there")),
    ("wpclear [all]", N_("remove the watchpoints")),
    ("wplist", N_("list the watchpoints")),
    ("r", N_("registers, flags, stack, banks, beam")),
    ("dasm [ADDR] [N]", N_("disassemble N instructions (default: 10 from the PC)")),
    ("mem iram|xram|vdc [ADDR] [LEN]", N_("hex view of a memory")),
    ("vdc", N_("the video chip's objects, colours, grid and collision registers decoded")),
    ("press KEY / release KEY", N_("hold or let go of a Videopac key")),
    ("joy 0|1 DIRS|none", N_("set a joystick, e.g. joy 0 up+fire")),
    ("trace FILE / trace off", N_("write every executed instruction to FILE")),
    ("shot FILE.png [SCALE]", N_("write the current frame as PNG")),
    ("q", N_("quit")),
)


# the largest count a command takes: steps or frames of about a day of play (as `videopac run
# --frames`), so that a count of 20 digits is refused instead of running for ever
MAX_COUNT = 5_000_000
PROGRAM_MEMORY = 4096         # lines `dasm` shows at most: every address of the 8048's
# watchpoints at once: each is compared after every instruction, so a script of a million `wp`
# lines made every step slow; a range covers many addresses in one
MAX_WATCHPOINTS = 64


class DebugPrompt:
    """Reads commands and carries them out on a ``Debugger``; also the window's pause console."""

    def __init__(self, debugger: Debugger, scripted: bool = False) -> None:
        self.debugger = debugger
        self.quit = False
        self.scripted = scripted       # commands of --script: each must end by itself

    def execute(self, line: str) -> bool:
        """Carry out one command line; False when it was refused (said in one sentence, never
        raised)."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        verb, rest = words[0].lower(), words[1:]
        handler = self.COMMANDS.get(verb)
        d = self.debugger
        try:
            if handler is None:
                raise DebugError(_("unknown command '{verb}'; 'help' lists the commands").format(
                    verb=verb))
            reason = handler(self, rest)
        except DebugError as exc:
            d.out(_("error: {message}").format(message=exc))
            return False
        except KeyboardInterrupt:
            reason = _("interrupted")
        if isinstance(reason, str) and reason:
            d.out(reason)
        if verb in self.MOVES:
            for text in d.disassemble(d.pc):
                d.out(text)
        return True

    # each handler returns a stop reason (or None) and prints through the debugger
    def _count(self, rest: list[str], default: int = 1, limit: int = MAX_COUNT) -> int:
        """A count: a decimal number from 1 to ``limit``."""
        if not rest:
            return default
        if not rest[0].isascii() or not rest[0].isdigit() or int(rest[0]) < 1:
            raise DebugError(_("'{text}' is not a count; give a decimal number of 1 or more")
                             .format(text=rest[0]))
        if len(rest[0]) > len(str(limit)) or int(rest[0]) > limit:
            raise DebugError(_("{text} is more than {limit}; give a smaller count").format(
                text=rest[0], limit=limit))
        return int(rest[0])

    def c_step(self, rest: list[str]) -> str:
        d = self.debugger
        for _i in range(self._count(rest)):
            reason = d.step_one()
            if reason:
                return reason
        return ""

    def c_over(self, rest: list[str]) -> str:
        return self.debugger.step_over()

    def c_out(self, rest: list[str]) -> str:
        return self.debugger.step_out()

    def c_line(self, rest: list[str]) -> str:
        return self.debugger.next_line(self._count(rest))

    def c_frame(self, rest: list[str]) -> str:
        return self.debugger.run_frames(self._count(rest))

    def c_go(self, rest: list[str]) -> str:
        d = self.debugger
        until = d.address(rest[0]) if rest and rest[0] != "-" else None
        frames = self._count(rest[1:]) if len(rest) > 1 else None
        if frames is None and self.scripted:
            raise DebugError(_("in a script, go needs a frame count so that it ends: "
                               "g ADDR FRAMES, or g - FRAMES"))
        return d.go(until, frames)

    def c_bp(self, rest: list[str]) -> None:
        d = self.debugger
        if len(rest) != 1:
            raise DebugError(_("say where: bp ADDR or bp SYMBOL"))
        address = d.address(rest[0])
        d.breakpoints.add(address)
        d.out(_("breakpoint at {pc:03X}{label}").format(pc=address, label=d.label(address)))

    def c_bpclear(self, rest: list[str]) -> None:
        d = self.debugger
        if not rest or rest[0].lower() == "all":
            d.breakpoints.clear()
        else:
            d.breakpoints.discard(d.address(rest[0]))

    def c_bplist(self, rest: list[str]) -> None:
        d = self.debugger
        for a in sorted(d.breakpoints):
            d.out(f"{a:03X}{d.label(a)}")
        if not d.breakpoints:
            d.out(_("no breakpoints"))

    def c_wp(self, rest: list[str]) -> None:
        d = self.debugger
        if len(rest) != 2:
            raise DebugError(_("say where: wp iram|xram|vdc ADDR or ADDR-END"))
        space = rest[0].lower()
        size = len(d._space(space))
        first_text, _sep, last_text = rest[1].partition("-")
        first = _number(first_text)
        last = _number(last_text) if last_text else first
        if not 0 <= first <= last < size:
            raise DebugError(_("{space} has addresses 00 to {last:02X}").format(space=space,
                                                                                last=size - 1))
        watchpoint = Watchpoint(space, first, last)
        if watchpoint not in d.watchpoints:
            if len(d.watchpoints) >= MAX_WATCHPOINTS:
                raise DebugError(_("{limit} watchpoints are set already; clear them with "
                                   "wpclear").format(limit=MAX_WATCHPOINTS))
            d.watchpoints.append(watchpoint)
        d.out(_("watchpoint on {wp}").format(wp=str(watchpoint)))

    def c_wpclear(self, rest: list[str]) -> None:
        self.debugger.watchpoints.clear()

    def c_wplist(self, rest: list[str]) -> None:
        d = self.debugger
        for w in d.watchpoints:
            d.out(str(w))
        if not d.watchpoints:
            d.out(_("no watchpoints"))

    def c_regs(self, rest: list[str]) -> None:
        for text in self.debugger.registers():
            self.debugger.out(text)

    def c_dasm(self, rest: list[str]) -> None:
        d = self.debugger
        start = d.address(rest[0]) if rest else d.pc
        for text in d.disassemble(start, self._count(rest[1:], 10, limit=PROGRAM_MEMORY)):
            d.out(text)

    def c_mem(self, rest: list[str]) -> None:
        d = self.debugger
        if not rest:
            raise DebugError(_("say which memory: mem iram|xram|vdc [ADDR] [LEN]"))
        first = _number(rest[1]) if len(rest) > 1 else 0
        length = _number(rest[2]) if len(rest) > 2 else None
        for text in d.hexdump(rest[0].lower(), first, length):
            d.out(text)

    def c_vdc(self, rest: list[str]) -> None:
        for text in self.debugger.video():
            self.debugger.out(text)

    def c_press(self, rest: list[str], down: bool = True) -> None:
        if len(rest) != 1:
            raise DebugError(_("say which key, e.g. press SPACE"))
        try:
            (self.debugger.machine.press if down else self.debugger.machine.release)(rest[0])
        except ValueError as exc:
            raise DebugError(str(exc)) from None

    def c_release(self, rest: list[str]) -> None:
        self.c_press(rest, down=False)

    def c_joy(self, rest: list[str]) -> None:
        if len(rest) != 2 or rest[0] not in ("0", "1"):
            raise DebugError(_("say which stick and directions, e.g. joy 0 up+fire or joy 1 none"))
        dirs = set() if rest[1].lower() == "none" else set(rest[1].lower().split("+"))
        if dirs - set(JOY_BITS):
            raise DebugError(_("unknown joystick direction; use up, down, left, right, fire "
                               "joined by '+', or none"))
        self.debugger.machine.set_joystick(int(rest[0]), **{k: True for k in dirs})

    def c_trace(self, rest: list[str]) -> None:
        d = self.debugger
        if not rest:
            raise DebugError(_("say where: trace FILE, or trace off"))
        d.stop_trace()
        if rest[0].lower() != "off":
            d.start_trace(rest[0])
            d.out(_("tracing into {path}").format(path=rest[0]))

    def c_shot(self, rest: list[str]) -> None:
        if not rest:
            raise DebugError(_("say where: shot FILE.png [SCALE]"))
        scale = self._count(rest[1:], 1)
        if scale > 16:
            raise DebugError(_("the scale must be between 1 and 16"))
        m = self.debugger.machine
        try:
            paths.write_atomically(rest[0], palette.to_png(palette.scale(
                palette.to_rgb(m.frame), scale)), parents=False)
        except OSError as exc:
            raise DebugError(_("cannot write {path}: {reason}").format(
                path=rest[0], reason=os_reason(exc))) from None
        self.debugger.out(_("frame written to {path}").format(path=rest[0]))

    def c_help(self, rest: list[str]) -> None:
        for usage, text in HELP:
            self.debugger.out(f"  {usage:<32} {_(text)}")

    def c_quit(self, rest: list[str]) -> None:
        self.quit = True

    COMMANDS: dict[str, Callable[[DebugPrompt, list[str]], str | None]] = {
        "s": c_step, "step": c_step, "o": c_over, "over": c_over, "out": c_out,
        "nl": c_line, "line": c_line, "nf": c_frame, "frame": c_frame, "g": c_go, "go": c_go,
        "bp": c_bp, "bpset": c_bp, "bpclear": c_bpclear, "bplist": c_bplist,
        "wp": c_wp, "wpset": c_wp, "wpclear": c_wpclear, "wplist": c_wplist,
        "r": c_regs, "regs": c_regs, "dasm": c_dasm, "mem": c_mem, "vdc": c_vdc,
        "press": c_press, "release": c_release, "joy": c_joy, "trace": c_trace,
        "shot": c_shot, "help": c_help, "q": c_quit, "quit": c_quit,
    }
    MOVES = frozenset({"s", "step", "o", "over", "out", "nl", "line", "nf", "frame", "g", "go"})


# ---- the names it knows ---------------------------------------------------------------

def symbols_of(cart: str | None, bios: str | None, sym: list[str],
               no_cart: bool = False) -> dict[str, int]:
    """The names the debugger knows: the files given with --sym, else the BIOS's (when it is
    the built-in one) and the cartridge's (CART.json beside CART.bin, or the built-in one's);
    SymbolFileError (a UsageError) for a file that cannot be read."""
    table: dict[str, int] = {}
    if not bios and not sym:
        table.update(builtin_symbols("bios"))
    if not no_cart and not sym:
        table.update(symbols_for(cart or None) or {})
    for path in sym:
        table.update(load_symbols(pathlib.Path(path)))
    return table


# ---- inside the play window -------------------------------------------------------------

class DebugHost(Protocol):
    """What the play window's debugger needs of the session that holds it
    (videopac/console/session.py): its machine, a message line, and a pause with the registers
    over the picture that the session itself keeps."""

    @property
    def machine(self) -> Machine: ...
    def say(self, text: str) -> None: ...
    def debug_pause(self) -> None: ...
    def debug_show(self, lines: list[str]) -> None: ...
    def debug_resume(self) -> None: ...


class PlayDebugger:
    """The debugger of `videopac play`: the debug key (Scroll Lock) pauses the game into it. Commands
    are typed in the terminal that started play (a reader thread queues them) and carried out on
    the window's thread between frames; the window shows the registers as an overlay. ``g``
    (or ``q``) plays on; while breakpoints or watchpoints are set, play runs the frames through
    the debugger and stops on them."""

    def __init__(self, session: DebugHost, symbols: dict[str, int] | None = None,
                 stdin: TextIO | None = None, out: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.out = out or (lambda text: print(text, flush=True))
        self.console = DebugPrompt(Debugger(session.machine, symbols, self.out))
        self.stdin = sys.stdin if stdin is None else stdin
        self.lines: queue.Queue[str] = queue.Queue()
        self.active = False
        self._reader: threading.Thread | None = None

    @property
    def armed(self) -> bool:
        d = self.console.debugger
        return bool(d.breakpoints or d.watchpoints or d.trace is not None)

    def available(self) -> bool:
        """Whether a terminal is there to type into."""
        try:
            return self.stdin is not None and self.stdin.isatty()
        except (ValueError, OSError):
            return False

    def _read(self) -> None:
        for line in self.stdin:
            self.lines.put(line)

    def enter(self, reason: str = "") -> None:
        """Pause the game and hand the terminal to the debugger."""
        if not self.available():
            self.session.say(_("the debugger needs the terminal that started 'videopac play'"))
            return
        if self._reader is None:
            self._reader = threading.Thread(target=self._read, name="debug-console", daemon=True)
            self._reader.start()
        self.active = True
        self.session.debug_pause()
        if reason:
            self.out(reason)
        self.out(_("debugger: the game is paused; 'help' lists the commands, 'g' plays on."))
        self._show()

    def _show(self) -> None:
        d = self.console.debugger
        lines = d.registers()
        self.session.debug_show(lines + d.disassemble(d.pc, 4))
        for text in lines + d.disassemble(d.pc):
            self.out(text)
        self.out("debug>")

    def poll(self) -> None:
        """Carry out the commands typed since the last tick (window thread)."""
        while self.active:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            words = line.split("#", 1)[0].split()
            verb = words[0].lower() if words else ""
            if verb in ("g", "go", "q", "quit"):
                if verb in ("g", "go") and len(words) > 1:
                    try:
                        self.console.debugger.breakpoints.add(
                            self.console.debugger.address(words[1]))
                    except DebugError as exc:
                        self.out(_("error: {message}").format(message=exc))
                        continue
                self.leave()
                return
            self.console.execute(line)
            self._show()

    def leave(self) -> None:
        self.active = False
        self.session.debug_resume()
        self.out(_("playing on"))

    def run_frame(self) -> None:
        """One frame of play through the debugger (breakpoints armed); stops into it on a hit."""
        try:
            reason = self.console.debugger.run_frames(1)
        except DebugError as exc:           # the trace cannot be written: pause and say so
            reason = _("error: {message}").format(message=exc)
        if reason:
            self.enter(reason)
