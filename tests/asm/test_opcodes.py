"""Every one of the 256 opcodes: encoded from its table spelling, disassembled, round-tripped."""
from __future__ import annotations

import pytest

from cartridge.asm48 import assemble
from cartridge.dis48 import disassemble
from cartridge.opcodes import ADDRESS, ENCODINGS, IMMEDIATE, OPCODES

ORG = 0x400
IMM = 0x5A


def source_line(code: int, pc: int) -> tuple[str, bytes]:
    """The table's spelling of opcode `code` at `pc` and the bytes it must produce."""
    op = OPCODES[code]
    words, expected = [], bytes([code])
    for operand in op.operands:
        if operand == IMMEDIATE:
            words.append(f"#0{IMM:X}h")
            expected += bytes([IMM])
        elif operand == ADDRESS:
            if op.long_address:           # same 2 KB bank, page from opcode bits 7-5
                target = (pc & 0x800) | ((code >> 5) << 8) | 0x33
            else:                         # same page as the operand byte
                target = ((pc + 1) & 0xF00) | 0x33
            words.append(f"0{target:X}h")
            expected += bytes([0x33])
        else:
            words.append(operand)
    return f"\t{op.mnemonic} {','.join(words)}", expected


def test_table_is_complete():
    assert [o.code for o in OPCODES] == list(range(256))
    assert sum(o.legal for o in OPCODES) == 230
    # every legal opcode is reachable through the encoder's table
    reachable = set()
    for forms in ENCODINGS.values():
        for f in forms:
            reachable |= {f.code | (p << 5) for p in range(8)} if f.long_address else {f.code}
    assert reachable == {o.code for o in OPCODES if o.legal}


@pytest.mark.parametrize("code", range(256), ids=lambda c: f"{c:02X}")
def test_opcode(code: int):
    op = OPCODES[code]
    if op.legal:
        line, expected = source_line(code, ORG)
        data = assemble(f"\torg 0{ORG:X}h\n{line}\n").data
        assert data == expected, line
        # lower case and extra blanks are the same instruction
        data_lc = assemble(f"\tORG 0{ORG:X}h\n{line.lower().replace(',', ' , ')}\n").data
        assert data_lc == expected
    else:
        expected = bytes([code])
    text = disassemble(expected, ORG)
    body = [l for l in text.splitlines() if l.startswith("\t") and "org" not in l
            and "cpu" not in l]
    assert len(body) == 1
    mnemonic = body[0].split()[0]
    assert mnemonic == (op.mnemonic.lower() if op.legal else "db")
    again = assemble(text)
    assert again.data == expected and again.origin == ORG


@pytest.mark.parametrize("mnemonic", ["JMP", "CALL"])
@pytest.mark.parametrize("page", range(8))
def test_long_jump_pages(mnemonic: str, page: int):
    """A10-A8 of the target go to opcode bits 7-5, in either 2 KB bank."""
    base = ENCODINGS[mnemonic][0].code
    for bank in (0, 0x800):
        target = bank | (page << 8) | 0xA5
        pc = bank | 0x40
        data = assemble(f"\torg 0{pc:X}h\n\t{mnemonic} 0{target:X}h\n").data
        assert data == bytes([base | (page << 5), 0xA5])


def test_all_opcodes_round_trip_in_one_rom():
    rom = bytes(range(256)) * 8
    text = disassemble(rom, 0x800)
    assert assemble(text).data == rom
