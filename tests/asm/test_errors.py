"""Every kind of error: reported as file:line:column: error: message, all of them per run."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble


def errors(src: str, filename: str = "<string>", **kw) -> list[str]:
    with pytest.raises(AsmError) as e:
        assemble(src, filename, **kw)
    return [str(d) for d in e.value.diagnostics]


def one_error(src: str) -> str:
    errs = errors(src)
    assert len(errs) == 1, errs
    return errs[0]


def test_all_errors_of_a_run_are_reported_in_order():
    errs = errors("\tfoo\n\tmov a,#300\n\tnop\n\tjmp nowhere\n")
    assert errs == [
        "<string>:1:2: error: unknown instruction or directive 'foo'",
        "<string>:2:8: error: immediate value 300 out of range -128..255",
        "<string>:4:6: error: undefined symbol 'nowhere'",
    ]


def test_undefined_symbol_column_points_at_the_name():
    assert one_error("\tdb 1, 2+missing\n") == "<string>:1:10: error: undefined symbol 'missing'"


def test_duplicate_label():
    err = one_error("x: nop\nx: nop\n")
    assert err.startswith("<string>:2:1: error: duplicate definition of symbol 'x'")
    assert "first defined at <string>:1" in err


def test_duplicate_equ_but_set_may_change():
    assert "duplicate definition" in one_error("a equ 1\na equ 2\n")
    assemble("a set 1\na set 2\n")          # no error


@pytest.mark.parametrize("src, message", [
    ("\tmov a,#256", "immediate value 256 out of range -128..255"),
    ("\tmov r0,#-129", "immediate value -129 out of range -128..255"),
    ("\tdb 256", "byte value 256 out of range -128..255"),
    ("\tdb -129", "byte value -129 out of range -128..255"),
    ("\tdw 10000h", "word value 65536 out of range -32768..65535"),
    ("\tjmp 1000h", "JMP target 0x1000 outside program memory 0x000..0xFFF"),
    ("\tcall -1", "CALL target -0x1 outside program memory"),
    ("\tjb 8,0", "bit number 8 out of range 0..7"),
    ("\torg 0fffh\n\tdb 1,2", "code at 1000h is beyond program memory"),
    ("\tds -1", "negative size -1"),
])
def test_values_out_of_range(src, message):
    assert message in one_error(src)


def test_conditional_jump_outside_page_names_the_distance():
    err = one_error("\torg 4f0h\n\tjnz 510h\n")
    assert err == ("<string>:2:6: error: JNZ target 510h is outside the 256-byte page "
                   "400h-4FFh of its operand byte at 4F1h (distance +31 bytes)")


def test_page_of_the_operand_byte_decides():
    """Opcode at 4FFh, operand byte at 500h: the jump stays in page 500h (8048 and asl)."""
    assert assemble("\torg 4ffh\n\tjz 5f0h\n").data == bytes([0xC6, 0xF0])
    assert "distance -" in one_error("\torg 4ffh\n\tjz 4f0h\n")


def test_djnz_outside_page():
    err = one_error("\torg 300h\nback\tnop\n\torg 400h\n\tdjnz r5,back\n")
    assert "DJNZ target 300h is outside the 256-byte page 400h-4FFh" in err
    assert "(distance -257 bytes)" in err


def test_jmp_in_last_two_bytes_of_a_bank():
    assert "must not start in the last two bytes of a 2 KB bank" in one_error(
        "\torg 7feh\n\tjmp 0\n")


def test_instruction_across_2k_boundary():
    assert "runs across the 2 KB boundary at 800h" in one_error("\torg 7ffh\n\tmov a,#1\n")


def test_overlapping_code():
    assert "overlaps code assembled earlier" in one_error("\tnop\n\torg 0\n\tret\n")


@pytest.mark.parametrize("src, message", [
    ("\tmov a,r8", "invalid operands for MOV"),
    ("\tmov a", "MOV takes 2 operand(s), got 1"),
    ("\tnop a", "NOP takes 0 operand(s), got 1"),
    ("\tdb \"abc", "unterminated string"),
    ("\tdb 1+", "expression ends too early"),
    ("\torg", "ORG takes 1 operand(s), got 0"),
    ("\tcpu z80", "unsupported CPU 'z80'"),
    ("\tendif", "ENDIF without IF"),
    ("\telse", "ELSE without IF"),
    ("\tendm", "ENDM without MACRO"),
    ("m macro\n\tnop\n", "MACRO without ENDM"),
    ("\tif 1\n\tnop\n", "IF without ENDIF"),
    ("\tendsection", "ENDSECTION without SECTION"),
    ("\tsection a\n\tendsection b", "does not close SECTION a"),
    ("\tsection a\n", "without ENDSECTION"),
    ("\terror \"stop here\"", "ERROR: stop here"),
    ("\tequ 5", "EQU needs a symbol name"),
    ("m macro a,b\n\tendm\n\tm b=1,2", "positional macro argument after a keyword"),
    ("m macro a\n\tendm\n\tm c=1", "macro m has no parameter 'C'"),
    ("m macro x_y\n\tendm", "invalid macro parameter 'x_y'"),
    ("m macro a,A\n\tendm", "macro parameter 'A' declared twice"),
    ("\tif undefined_thing\n\tendif", "undefined symbol 'undefined_thing'"),
    ("\trept -1\n\tendm", "negative repeat count"),
])
def test_bad_syntax(src, message):
    errs = errors(src + "\n")
    assert any(message in e for e in errs), errs


def test_include_cycle(tmp_path):
    (tmp_path / "a.inc").write_text('\tinclude "b.inc"\n')
    (tmp_path / "b.inc").write_text('\tinclude "a.inc"\n')
    main = tmp_path / "main.a48"
    main.write_text('\tinclude "a.inc"\n')
    errs = errors(main.read_text(), str(main))
    assert errs == [f"{tmp_path / 'b.inc'}:1:10: error: include cycle: "
                    "main.a48 -> a.inc -> b.inc -> a.inc"]


def test_self_include(tmp_path):
    main = tmp_path / "main.a48"
    main.write_text('\tinclude "main.a48"\n')
    assert "include cycle: main.a48 -> main.a48" in errors(main.read_text(), str(main))[0]


def test_missing_include(tmp_path):
    main = tmp_path / "main.a48"
    main.write_text('\n\tinclude "nothere.h"\n')
    assert errors(main.read_text(), str(main))[0].startswith(
        f"{main}:2:10: error: include file 'nothere.h' not found")


def test_error_inside_macro_names_the_call():
    errs = errors("m macro v\n\tmov a,#v\n\tendm\n\tm 1000\n")
    assert errs == ["<string>:2:8: error: immediate value 1000 out of range -128..255 "
                    "(in macro m called at <string>:4)"]


def test_jmpp_table_entry_outside_page():
    src = ("\tinclude \"bitfuncs.inc\"\n\torg 4f0h\n\tjmpp @a\n\tdb c0 & 0ffh, lo(c1)\n\tdb c2 & 0ffh\nc0\tnop\nc1\tnop\n"
           "\torg 510h\nc2\tnop\n")
    assert errors(src) == ["<string>:5:5: error: JMPP table entry c2 (510h) is outside the "
                           "page 400h-4FFh of the JMPP at 4F0h (distance +31 bytes)"]


def test_jmpp_table_in_page_is_fine_and_only_db_right_after_counts():
    src = ("\torg 480h\n\tjmpp @a\ntab:\tdb c0 & 0ffh, c1 & 0ffh\nc0\tnop\nc1\tnop\n"
           "\tdb far & 0ffh\n\torg 520h\nfar\tret\n")
    assert assemble(src).image(0x480, 0x486) == bytes([0xB3, 0x83, 0x84, 0, 0, 0x20, 0xFF])


def test_values_that_never_settle():
    assert "symbol values do not settle after" in errors("a\tds b-a+1\nb\tnop\n")[-1]


def test_errors_keep_addresses_stable():
    """A rejected value still takes its bytes, so only the real error is reported."""
    errs = errors("\torg 4f0h\n\tjnz 600h\nx\tjnz x\n\tdb 300, x & 0ffh\n")
    assert len(errs) == 2 and "JNZ target 600h" in errs[0] and "byte value 300" in errs[1]


@pytest.mark.parametrize("src, message", [
    ("\tdb " + "(" * 3000 + "1" + ")" * 3000, "expression nested too deeply"),
    ("f function x, f(x)\n\tdb f(1)", "in function f: f() calls itself too deeply"),
    ("m macro\n\tm\n\tendm\n\tm", "nesting deeper than 64 levels"),
    ("\tcharset 'a'", "CHARSET takes a character and its code"),
])
def test_runaway_input_is_an_error_not_a_crash(src, message):
    assert any(message in e for e in errors(src + "\n"))


def test_line_numbers_count_only_line_ends():
    """A form feed or a Latin-1 byte 85h inside a line does not start a new line."""
    assert errors("\tnop ; page\x0c break \x85 here\r\n\tbogus\r\n") == [
        "<string>:2:2: error: unknown instruction or directive 'bogus'"]


@pytest.mark.parametrize("directive, described", [("include", "include file 'big.inc'"),
                                                  ("binclude", "binary file 'big.inc'")])
def test_an_include_over_the_file_limit_is_one_error_not_read_whole(tmp_path, directive, described):
    from cartridge.asm48.source import FILE_LIMIT

    big = tmp_path / "big.inc"
    with open(big, "wb") as f:
        f.truncate(FILE_LIMIT + 1)            # sparse: costs no disk
    main = tmp_path / "main.a48"
    main.write_text(f'\t{directive} "big.inc"\n')
    assert errors(main.read_text(), str(main)) == [
        f"{main}:1:{len(directive) + 3}: error: {described} is larger than {FILE_LIMIT} bytes, "
        "the limit for a file asm48 reads"]


def test_an_include_at_the_file_limit_is_read(tmp_path, monkeypatch):
    from cartridge.asm48 import source

    monkeypatch.setattr(source, "FILE_LIMIT", 8)
    (tmp_path / "eight.inc").write_text("\tdb 7\n\n\n")      # 8 bytes
    main = tmp_path / "main.a48"
    main.write_text('\tinclude "eight.inc"\n\tbinclude "eight.inc", 0, 2\n')
    assert assemble(main.read_text(), str(main)).image(0, 2) == b"\x07\td"
