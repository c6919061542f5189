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

from ..opcodes import ADDRESS, ENCODINGS, IMMEDIATE, Encoding
from .errors import SourceError
from .lexer import Operand

BANK = 0x800           # 2 KB: what the 11-bit program counter covers
PAGE = 0x100
CODE_END = 0xFFF       # 4 KB program memory (12 address bits)
SWAPPABLE = frozenset({"XCH", "XCHD"})

Evaluator = Callable[[Operand, str], "tuple[int, bool]"]
"""evaluate(operand, text) -> (value, known); `known` is False while a forward reference is
still unresolved (then range and page checks are skipped for this pass)."""


def keyword(text: str) -> str:
    """Operand text normalised for keyword comparison: no blanks, upper case."""
    return re.sub(r"\s+", "", text).upper()


def is_instruction(mnemonic: str) -> bool:
    return mnemonic.upper() in ENCODINGS or mnemonic.upper() == "JB"


def _matches(pattern: str, operand: Operand, aliases: dict[str, str]) -> bool:
    word = keyword(operand.text)
    word = aliases.get(word, word)
    if pattern == IMMEDIATE:
        return word.startswith("#")
    if pattern == ADDRESS:
        return not word.startswith(("#", "@"))
    return word == pattern.upper()


def select(mnemonic: str, operands: list[Operand], aliases: dict[str, str]
           ) -> tuple[Encoding, list[Operand]]:
    """The table row for this mnemonic and operands (operands reordered if swapped)."""
    forms = ENCODINGS[mnemonic]
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
        want = " or ".join(str(c) for c in counts)
        raise SourceError(f"{mnemonic} takes {want} operand(s), got {len(operands)}")
    shapes = "; ".join(f"{mnemonic} {','.join(f.operands)}".strip() for f in forms)
    raise SourceError(f"invalid operands for {mnemonic} (valid forms: {shapes})")


def encode(mnemonic: str, operands: list[Operand], pc: int, evaluate: Evaluator,
           aliases: dict[str, str]) -> bytes:
    """Machine code of one instruction at address `pc`."""
    mnemonic = mnemonic.upper()
    if mnemonic == "JB":
        mnemonic, operands = _jb_alias(operands, evaluate)
    form, operands = select(mnemonic, operands, aliases)
    code = bytearray([form.code])
    for pattern, operand in zip(form.operands, operands):
        if pattern == IMMEDIATE:
            value, known = evaluate(operand, operand.text.lstrip()[1:])
            if known and not -128 <= value <= 255:
                raise SourceError(f"immediate value {value} out of range -128..255",
                                  column=operand.column)
            code.append(value & 0xFF)
        elif pattern == ADDRESS:
            target, known = evaluate(operand, operand.text)
            try:
                if form.long_address:
                    return _long_jump(form, pc, target, known)
                code.append(_page_target(mnemonic, pc, target, known))
            except SourceError as e:
                e.column = e.column or operand.column
                raise
    _check_bank_crossing(pc, len(code))
    return bytes(code)


def _jb_alias(operands: list[Operand], evaluate: Evaluator) -> tuple[str, list[Operand]]:
    if len(operands) != 2:
        raise SourceError(f"JB takes 2 operands (bit, address), got {len(operands)}")
    bit, known = evaluate(operands[0], operands[0].text)
    if known and not 0 <= bit <= 7:
        raise SourceError(f"bit number {bit} out of range 0..7", column=operands[0].column)
    return f"JB{bit & 7}", operands[1:]


def _page_target(mnemonic: str, pc: int, target: int, known: bool) -> int:
    if not known:
        return target & 0xFF
    if not 0 <= target <= CODE_END:
        raise SourceError(f"jump target {target:#x} outside program memory 0x000..0xFFF")
    operand_byte = pc + 1
    page = operand_byte & ~(PAGE - 1)
    if target & ~(PAGE - 1) != page:
        distance = target - operand_byte
        raise SourceError(
            f"{mnemonic} target {target:03X}h is outside the 256-byte page "
            f"{page:03X}h-{page + PAGE - 1:03X}h of its operand byte at {operand_byte:03X}h "
            f"(distance {distance:+d} bytes)")
    return target & 0xFF


def _long_jump(form: Encoding, pc: int, target: int, known: bool) -> bytes:
    if known and not 0 <= target <= CODE_END:
        raise SourceError(f"{form.mnemonic} target {target:#x} outside program memory "
                          "0x000..0xFFF")
    if (pc & (BANK - 2)) == BANK - 2:
        raise SourceError(f"{form.mnemonic} must not start in the last two bytes of a 2 KB "
                          f"bank (at {pc:03X}h)")
    prefix = b""
    if known and (target ^ pc) & BANK:
        # Target in the other 2 KB bank: select it first, as asl does.
        sel = ENCODINGS["SEL"]
        want = "MB1" if target & BANK else "MB0"
        prefix = bytes(f.code for f in sel if f.operands == (want,))
    code = prefix + bytes([form.code | ((target >> 3) & 0xE0), target & 0xFF])
    _check_bank_crossing(pc, len(code))
    return code


def _check_bank_crossing(pc: int, size: int) -> None:
    if (pc % BANK) + size > BANK:
        end = (pc | (BANK - 1)) + 1
        raise SourceError(f"instruction at {pc:03X}h runs across the 2 KB boundary at "
                          f"{end:03X}h (the program counter wraps inside its bank)")
