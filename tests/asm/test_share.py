"""SHARED and the share file (asl's -a): a multi-bank program (KTAA) assembles bank 0 with
`shared` names and includes the resulting NAME EQU value file in the other banks."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble
from cartridge.asm48 import cli as asm_cli

BANK0 = """\tcpu 8048
\torg 0676h
tune_a\tdb 086h, 010h
tune_b\tdb 021h, 0
value\tequ 12h
\tshared tune_a
\tshared tune_b, value
"""


def test_shared_symbols_in_source_order() -> None:
    result = assemble(BANK0)
    assert result.shared == {"tune_a": 0x676, "tune_b": 0x678, "value": 0x12}


def test_share_file_is_includable_by_another_bank(tmp_path) -> None:
    (tmp_path / "b0.a48").write_text(BANK0)
    assert asm_cli.main([str(tmp_path / "b0.a48"), "-o", str(tmp_path / "b0.bin"),
                         "--share", str(tmp_path / "b0.inc")]) == 0
    text = (tmp_path / "b0.inc").read_text()
    assert text.splitlines()[1:] == ["tune_a\tEQU\t0676H", "tune_b\tEQU\t0678H",
                                     "value\tEQU\t012H"]
    bank1 = '\tcpu 8048\n\tinclude "b0.inc"\n\tinclude "bitfuncs.inc"\n\torg 400h\n\tmov r4,#lo(tune_b)\n'
    (tmp_path / "b1.a48").write_text(bank1)
    result = assemble(bank1, str(tmp_path / "b1.a48"))
    assert result.image(0x400, 0x401) == bytes([0xBC, 0x78])


def test_a_shared_string_symbol_is_written_as_a_string_and_read_back(tmp_path) -> None:
    # asl's share file: `s equ "abc"` (the command crashed on a string once)
    source = '\tcpu 8048\ntext\tequ "say \\"hi\\" \\\\ bye"\nn\tequ 5\n\tshared text, n\n'
    (tmp_path / "s.a48").write_text(source)
    assert asm_cli.main([str(tmp_path / "s.a48"), "-o", str(tmp_path / "s.bin"),
                         "--share", str(tmp_path / "s.inc")]) == 0
    assert (tmp_path / "s.inc").read_text().splitlines()[1:] == [
        'text\tEQU\t"say \\"hi\\" \\\\ bye"', "n\tEQU\t05H"]
    again = assemble('\tinclude "s.inc"\n\torg 0\n\tdb text\n', str(tmp_path / "t.a48"))
    assert again.data == b'say "hi" \\ bye'


def test_shared_undefined_symbol_is_an_error() -> None:
    with pytest.raises(AsmError, match="SHARED names the undefined symbol 'nothere'"):
        assemble("\tcpu 8048\n\tshared nothere\n")


def test_shared_without_share_file_changes_no_byte() -> None:
    assert assemble(BANK0).image(0x676, 0x679) == bytes([0x86, 0x10, 0x21, 0x00])


def test_label_pseudo_instruction_is_global_inside_a_macro() -> None:
    # KTAA common.h: switchtable defines NAME_bank with LABEL inside the macro; bcall NAME
    # elsewhere calls NAME_bank, so the symbol must outlive the expansion
    source = """\tcpu 8048
switchtable macro name
name_bank label $
\tnop
\tendm
\torg 400h
\tswitchtable title
\tcall title_bank
"""
    result = assemble(source)
    # (macro arguments are upper-cased outside quotes, as in asl; symbols ignore case)
    assert result.symbols["TITLE_bank"] == 0x400
    assert result.image(0x400, 0x402) == bytes([0x00, 0x94, 0x00])   # CALL 400h
