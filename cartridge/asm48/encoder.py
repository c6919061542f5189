"""Instruction encoding, generated from the opcode table (`cartridge.opcodes.ENCODINGS`).

An operand matches a table pattern when it is the same keyword (`A`, `@R0`, `P1`, ...,
case-insensitive), or an immediate `#expr` for `#data`, or any expression for `addr`.
Added on top of the table, each as asl does it (asl source code48.c):
  * `JB n,addr` is another spelling of `JBn addr`; `XCH`/`XCHD` accept their operands swapped.
  * Immediates must lie in -128..255 (asl's Int8 range).
  * Conditional jumps and DJNZ reach only the 256-byte page holding their operand byte
    (the 8048 replaces PC bits 7-0 after fetching it; asl checks (PC+1) & 0xF00).
  * JMP/CALL carry 11 address bits; bit 11 comes from the MB flip-flop.  When the target
    lies in the other 2 KB bank, asl puts `SEL MB0`/`SEL MB1` before the jump, so do we
    (the listing shows it).  A JMP/CALL starting in the last two bytes of a bank is an error.
  * No instruction may run across a 2 KB boundary: the program counter only counts 11 bits,
    so the next byte would be fetched from the start of the same bank."""
from __future__ import annotations

import re
from typing import Callable

from i18n import _

from ..opcodes import ADDRESS, ALL_MNEMONICS, CPU_ENCODINGS, ENCODINGS, IMMEDIATE, Encoding
from .errors import SourceError
from .lexer import Operand

BANK = 0x800           # 2 KB: what the 11-bit program counter covers
PAGE = 0x100
CODE_END = 0xFFF       # 4 KB program memory (12 address bits)
SWAPPABLE = frozenset({"XCH", "XCHD"})

Evaluator = Callable[[Operand, str], "tuple[int, bool]"]
"""evaluate(operand, text) -> (value, known); `known` is False while a forward reference is
still unresolved (then range and page checks are skipped for this pass)."""
Reporter = Callable[[SourceError], None]


def keyword(text: str) -> str:
    """Operand text normalised for keyword comparison: no blanks, upper case."""
    return re.sub(r"\s+", "", text).upper()


def is_instruction(mnemonic: str) -> bool:
    """A machine instruction of any MCS-48 CPU (the selected CPU is checked on encoding)."""
    return mnemonic.upper() in ALL_MNEMONICS or mnemonic.upper() == "JB"


def _matches(pattern: str, operand: Operand, aliases: dict[str, str]) -> bool:
    word = keyword(operand.text)
    word = aliases.get(word, word)
    if pattern == IMMEDIATE:
        return word.startswith("#")
    if pattern == ADDRESS:
        return not word.startswith(("#", "@"))
    return word == pattern.upper()


def select(mnemonic: str, operands: list[Operand], aliases: dict[str, str], cpu: str = "8048"
           ) -> tuple[Encoding, list[Operand]]:
    """The table row for this mnemonic and operands on `cpu` (operands reordered if
    swapped).  A form another MCS-48 CPU has is refused with asl's message."""
    own = CPU_ENCODINGS.get(cpu, CPU_ENCODINGS["8048"]).get(mnemonic, [])
    everywhere = {(f.mnemonic, f.operands): f for table in CPU_ENCODINGS.values()
                  for f in table.get(mnemonic, [])}
    form, ops = _match(mnemonic, list(everywhere.values()), operands, aliases)
    mine = next((f for f in own if f.operands == form.operands), None)
    if mine is None:
        written = f"{mnemonic} {','.join(form.operands)}".strip()
        raise SourceError(_('{written} is not in the instruction set of the {cpu} '
                            '(asl: "instruction not supported on {cpu}")').format(written=written,
                                                                                  cpu=cpu))
    return mine, ops


def _match(mnemonic: str, forms: list[Encoding], operands: list[Operand],
           aliases: dict[str, str]) -> tuple[Encoding, list[Operand]]:
    orders = [operands]
    if mnemonic in SWAPPABLE and len(operands) == 2:
        orders.append([operands[1], operands[0]])
    for ops in orders:
        # keyword-only patterns first, so that e.g. `MOV A,T` never reads T as an address
        for form in sorted(forms, key=lambda f: ADDRESS in f.operands):
            if len(form.operands) == len(ops) and all(
                    _matches(p, o, aliases) for p, o in zip(form.operands, ops)):
                return form, ops
    counts = sorted({len(f.operands) for f in forms})
    if len(operands) not in counts:
        want = str(counts[0]) if len(counts) == 1 else _("{some} or {last}").format(
            some=", ".join(str(c) for c in counts[:-1]), last=counts[-1])
        raise SourceError(_("{mnemonic} takes {want} operand(s), got {got}").format(
            mnemonic=mnemonic, want=want, got=len(operands)))
    shapes = "; ".join(f"{mnemonic} {','.join(f.operands)}".strip() for f in forms)
    raise SourceError(_("invalid operands for {mnemonic} (valid forms: {shapes})").format(
        mnemonic=mnemonic, shapes=shapes))


def encode(mnemonic: str, operands: list[Operand], pc: int, evaluate: Evaluator,
           aliases: dict[str, str], report: Reporter, cpu: str = "8048") -> bytes:
    """Machine code of one instruction at address `pc`.  Operands that do not fit an
    instruction form raise SourceError; a value out of range or a target outside the reach
    of the instruction is passed to `report` and the instruction is still produced (with
    the value cut to its field), so that the addresses after it do not move."""
    mnemonic = mnemonic.upper()
    if mnemonic == "JB":
        mnemonic, operands = _jb_alias(operands, evaluate, report)
    form, operands = select(mnemonic, operands, aliases, cpu)
    code = bytearray([form.code])
    for pattern, operand in zip(form.operands, operands):
        if pattern == IMMEDIATE:
            value, known = evaluate(operand, operand.text.lstrip()[1:])
            if known and not -128 <= value <= 255:
                report(SourceError(_("immediate value {value} out of range "
                                     "-128..255").format(value=value),
                                   column=operand.column))
            code.append(value & 0xFF)
        elif pattern == ADDRESS:
            target, known = evaluate(operand, operand.text)
            def located(err: SourceError, column: int = operand.column) -> None:
                err.column = err.column or column
                report(err)
            if form.long_address:
                return _long_jump(form, pc, target, known, located)
            code.append(_page_target(mnemonic, pc, target, known, located))
    _check_bank_crossing(pc, len(code), report)
    return bytes(code)


def _jb_alias(operands: list[Operand], evaluate: Evaluator, report: Reporter
              ) -> tuple[str, list[Operand]]:
    if len(operands) != 2:
        raise SourceError(_("JB takes 2 operands (bit, address), got "
                            "{got}").format(got=len(operands)))
    bit, known = evaluate(operands[0], operands[0].text)
    if known and not 0 <= bit <= 7:
        report(SourceError(_("bit number {bit} out of range 0..7").format(bit=bit),
                           column=operands[0].column))
    return f"JB{bit & 7}", operands[1:]


def _page_target(mnemonic: str, pc: int, target: int, known: bool, report: Reporter) -> int:
    if not known:
        return target & 0xFF
    if not 0 <= target <= CODE_END:
        report(SourceError(_("jump target {target:#x} outside program "
                             "memory 0x000..0xFFF").format(target=target)))
        return target & 0xFF
    operand_byte = pc + 1
    page = operand_byte & ~(PAGE - 1)
    if target & ~(PAGE - 1) != page:
        distance = target - operand_byte
        report(SourceError(
            _("{mnemonic} target {target:03X}h is outside the 256-byte page "
              "{page:03X}h-{page_end:03X}h of its operand byte at {operand_byte:03X}h (distance "
              "{distance:+d} bytes)").format(mnemonic=mnemonic, target=target, page=page,
                                             page_end=page + PAGE - 1, operand_byte=operand_byte,
                                             distance=distance)))
    return target & 0xFF


def _long_jump(form: Encoding, pc: int, target: int, known: bool, report: Reporter) -> bytes:
    if known and not 0 <= target <= CODE_END:
        report(SourceError(_("{mnemonic} target {target:#x} outside program memory 0x000..0xFFF"
                             ).format(mnemonic=form.mnemonic, target=target)))
        target &= CODE_END
    if (pc & (BANK - 2)) == BANK - 2:
        report(SourceError(_("{mnemonic} must not start in the last two bytes of a 2 KB bank (at "
                             "{pc:03X}h)").format(mnemonic=form.mnemonic, pc=pc)))
    prefix = b""
    if known and (target ^ pc) & BANK:
        # Target in the other 2 KB bank: select it first, as asl does.
        sel = ENCODINGS["SEL"]
        want = "MB1" if target & BANK else "MB0"
        prefix = bytes(f.code for f in sel if f.operands == (want,))
    code = prefix + bytes([form.code | ((target >> 3) & 0xE0), target & 0xFF])
    _check_bank_crossing(pc, len(code), report)
    return code


def _check_bank_crossing(pc: int, size: int, report: Reporter) -> None:
    if (pc % BANK) + size > BANK:
        end = (pc | (BANK - 1)) + 1
        report(SourceError(_("instruction at {pc:03X}h runs across the 2 KB boundary at {end:03X}h "
                             "(the program counter wraps inside its bank)").format(pc=pc, end=end)))
