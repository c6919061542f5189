"""Each asl directive asm48 supports, checked on the bytes and symbols it produces."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble


def code(src: str) -> bytes:
    return assemble(src).data


def test_labels_with_and_without_colon_and_indented():
    asm = assemble("\torg 20h\nfirst\tnop\nsecond: nop\n  third: nop\n\tjmp first\n")
    assert asm.symbols == {"first": 0x20, "second": 0x21, "third": 0x22}
    assert asm.data == bytes([0, 0, 0, 0x04, 0x20])


def test_org_and_gaps():
    asm = assemble("\torg 400h\n\tnop\n\torg 404h\n\tret\n")
    assert asm.origin == 0x400
    assert asm.data == bytes([0x00, 0xFF, 0xFF, 0xFF, 0x83])
    assert asm.image(0x3FE, 0x405, fill=0) == bytes([0, 0, 0x00, 0, 0, 0, 0x83, 0])


def test_equ_set_and_equals():
    asm = assemble("a equ 5\nb set 1\nb set b+1\nc = 7\nc = c*2\n\tdb a,b,c\n")
    assert asm.data == bytes([5, 2, 14])
    assert asm.symbols == {"a": 5, "b": 2, "c": 14}


def test_db_byte_numbers_strings_and_dup():
    assert code('\tdb 1,-1,0ffh,"Hi",\'x\'\n\tdb 2\n') == bytes([1, 0xFF, 0xFF, 0x48, 0x69,
                                                                    0x78, 2])
    assert code("\tdb 3 dup (7), 1\n") == bytes([7, 7, 7, 1])
    assert code('\tdb "a;b", "q\\"x"\n') == b'a;bq"x'


def test_dw_word_little_endian():
    assert code("\tdw 1234h, -1\n\tdw 0abcdh\n") == bytes([0x34, 0x12, 0xFF, 0xFF,
                                                            0xCD, 0xAB])


def test_ds_and_align_reserve_without_code():
    asm = assemble("\torg 10h\n\tnop\n\tds 3\nx\tnop\n\talign 8\ny\tnop\n")
    assert asm.symbols == {"x": 0x14, "y": 0x18}
    assert asm.data == bytes([0, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0xFF, 0])


def test_end_stops_assembly():
    assert code("\tnop\n\tend\n\tret\n") == bytes([0])


def test_cpu_accepts_mcs48_family():
    assert code("\tcpu 8048\n\tcpu 8039\n\tnop\n") == bytes([0])


def test_include_relative_then_include_dirs(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "sub" / "inner.inc").write_text("inner_val equ 7\n\tinclude \"deeper.inc\"\n")
    (tmp_path / "sub" / "deeper.inc").write_text("\tdb 9\n")         # next to inner.inc
    (tmp_path / "lib" / "lib.inc").write_text("\tdb 8\n")
    main = tmp_path / "main.a48"
    main.write_text('\tinclude "sub/inner.inc"\n\tinclude "lib.inc"\n\tdb inner_val\n')
    asm = assemble(main.read_text(), str(main), [tmp_path / "lib"])
    assert asm.data == bytes([9, 8, 7])


def test_conditionals():
    src = """
flag equ 1
  if flag
    db 1
  elseif 1
    db 2
  else
    db 3
  endif
  if flag == 0
    db 4
  elseif flag == 1
    db 5
  endif
  ifdef flag
    db 6
  endif
  ifndef nothing
    db 7
  else
    db 8
  endif
  if 0
    if 1
      db 9
    endif
    this line is never assembled
  endif
"""
    assert code(src) == bytes([1, 5, 6, 7])


def test_macro_with_parameters_and_label():
    src = """
setreg macro reg, val
        mov reg,#val
        endm
start   setreg r3, 12h
        setreg A, 'a'
"""
    asm = assemble(src)
    assert asm.data == bytes([0xBB, 0x12, 0x23, 0x61])
    assert asm.symbols == {"start": 0}


def test_macro_exitm_and_ifb():
    src = """
opt macro x
      ifb x
        exitm
      endif
      db x
    endm
    opt
    opt 4
"""
    assert code(src) == bytes([4])


def test_rept_and_irp():
    assert code("\trept 3\n\tnop\n\tendm\n") == bytes(3)
    assert code("\tirp v, 1, 2, 3\n\tdb v*2\n\tendm\n") == bytes([2, 4, 6])


def test_sections_make_labels_local():
    src = """
        section one
loop:   djnz r2,loop
        endsection one
        section two
loop:   djnz r3,loop
        public entry
entry:  jmp loop
        endsection two
        jmp entry
"""
    asm = assemble(src)
    assert asm.data == bytes([0xEA, 0x00, 0xEB, 0x02, 0x04, 0x02, 0x04, 0x04])
    assert asm.symbols == {"one.loop": 0, "two.loop": 2, "entry": 4}


def test_codepage_and_charset():
    src = """
        codepage videopac
        charset 'A', 'Z', 12h
        charset ' ', 0eh
        db "AB Z"
        db 'C'
        mov a,#'Y'
        codepage standard
        db "A"
        codepage videopac
        charset
        db "A"
"""
    assert code(src) == bytes([0x12, 0x13, 0x0E, 0x2B, 0x14, 0x23, 0x2A, 0x41, 0x41])


def test_reg_alias():
    assert code("ptr reg r1\n\tmov a,@ptr\n\tinc ptr\n") == bytes([0xF1, 0x19])


def test_binclude(tmp_path):
    (tmp_path / "blob.bin").write_bytes(bytes(range(10)))
    main = tmp_path / "m.a48"
    main.write_text('\tbinclude "blob.bin", 2, 3\n')
    assert assemble(main.read_text(), str(main)).data == bytes([2, 3, 4])


def test_jb_with_bit_operand_and_swapped_xch():
    assert code("l: jb 5,l\n\txch @r0,a\n\txchd @r1,a\n") == bytes([0xB2, 0, 0x20, 0x31])


def test_cross_bank_jump_gets_sel_mb_like_asl():
    """asl inserts SEL MB1/MB0 before a JMP/CALL into the other 2 KB bank."""
    src = "\torg 400h\n\tcall far\n\tjmp near\nnear\tnop\n\torg 0c00h\nfar\tjmp near\n"
    asm = assemble(src)
    assert asm.image(0x400, 0x405) == bytes([0xF5, 0x94, 0x00, 0x84, 0x05, 0x00])
    assert asm.image(0xC00, 0xC02) == bytes([0xE5, 0x84, 0x05])


def test_forward_references_settle():
    src = "\torg 7f0h\n\tjmp later\n\tds 0ch\nlater\tnop\n"
    asm = assemble(src)
    assert asm.symbols["later"] == 0x7FE
    assert asm.image(0x7F0, 0x7F1) == bytes([0xE4, 0xFE])


def test_listing_shows_address_bytes_and_source():
    listing = assemble("\torg 400h\nstart:\tmov a,#12h\n\tdb 1,2,3,4,5\n").listing
    assert "0400  23 12" in listing and "start:\tmov a,#12h" in listing
    assert "0402  01 02 03 04" in listing and "0406  05" in listing


def test_single_quoted_text_in_db_and_characters_in_expressions():
    assert code("\tdb 'H', 'A'+1, \"\"\n\tmov a,#'z'-'a'\n") == b"HB" + bytes([0x23, 25])
    # 'Hello' in DB: asl says "range overflow"; --relaxed stores the text, with a warning
    with pytest.raises(AsmError, match='range overflow.*"string" in double quotes'):
        code("\tdb 'Hello'\n")
    asm = assemble("\tdb 'Hello'\n", relaxed=True)
    assert asm.data == b"Hello" and "accepted by --relaxed" in str(asm.warnings[0])


@pytest.mark.parametrize("name, size", [("byte", 1), ("defb", 1), ("fcb", 1), ("dc.b", 1),
                                        ("word", 2), ("defw", 2), ("fdb", 2), ("dc.w", 2)])
def test_other_data_names_are_asm48_extensions(name, size):
    with pytest.raises(AsmError, match='unknown instruction.*write DB, DW or DS'):
        code(f"\t{name} 1\n")
    asm = assemble(f"\t{name} 1\n", relaxed=True)
    assert asm.data == (1).to_bytes(size, "little") and len(asm.warnings) == 1


def test_function_directive_and_builtin_bitfuncs():
    src = ('\tinclude "bitfuncs.inc"\nsquare function x, x*x\nscale function a, b, a*b+1\n'
           "\tdb lo(1234h), hi(1234h), square(5), scale(2, 3), getbit(4,2), mask(4,2)\n")
    assert code(src) == bytes([0x34, 0x12, 25, 7, 1, 0x30])


def test_own_bitfuncs_file_takes_precedence(tmp_path):
    (tmp_path / "bitfuncs.inc").write_text("lo function x, 42\n")
    main = tmp_path / "m.a48"
    main.write_text('\tinclude "bitfuncs.inc"\n\tdb lo(1234h)\n')
    assert assemble(main.read_text(), str(main)).data == bytes([42])


def test_dot_labels_are_composed_with_the_last_ordinary_symbol():
    # asl's composed temporary symbols: .loop after loop is loop.loop
    asm = assemble("loop nop\n.loop djnz r1,.loop\n\tjmp loop\n")
    assert asm.symbols == {"loop": 0, "loop.loop": 1}
    assert asm.data == bytes([0, 0xE9, 1, 0x04, 0])


def test_irpc_ifexist_and_dot_pseudo_ops(tmp_path):
    assert code("\tirpc c, 123\n\tdb c*2\n\tendm\n") == bytes([2, 4, 6])
    (tmp_path / "here.inc").write_text("")
    main = tmp_path / "m.a48"
    main.write_text('\tifexist "here.inc"\n\tdb 1\n\tendif\n\tifnexist "gone.inc"\n\tdb 2\n'
                    "\tendif\n\t.org 10h\nx\t.equ 3\n\t.db x\n")
    asm = assemble(main.read_text(), str(main))
    assert asm.image(0, 1) == bytes([1, 2]) and asm.image(0x10, 0x10) == bytes([3])


def test_global_exports_to_the_enclosing_section_under_the_section_name():
    # asl: GLOBAL keeps g in inner and enters inner_g in the section above
    src = ("\tsection outer\n\tsection inner\n\tglobal g\ng\tnop\nl\tnop\n\tendsection inner\n"
           "\tjmp inner_g\n\tendsection outer\n")
    asm = assemble(src)
    assert asm.symbols == {"outer.inner.g": 0, "outer.inner_g": 0, "outer.inner.l": 1}
    assert asm.data == bytes([0, 0, 0x04, 0x00])


def test_align_with_fill_byte_stores_it():
    assert code("\tnop\n\talign 4, 0eah\n\tret\n") == bytes([0, 0xEA, 0xEA, 0xEA, 0x83])


def test_indented_definitions_and_operands_named_like_directives():
    asm = assemble("   width equ 3\n   count = 2\n\tjmp set\n\tcall equ\nset\tnop\nequ\tnop\n")
    assert asm.symbols == {"width": 3, "count": 2, "set": 4, "equ": 5}
    assert asm.data == bytes([0x04, 0x04, 0x14, 0x05, 0, 0])


def test_dot_name_from_another_area_is_refused_as_asl_or_warned():
    # asl 1.42: `.x` under proc1 is proc1.x, so a jump to it from under another label is
    # "symbol undefined"; --relaxed takes the plain .x, as older asl versions did
    src = "proc1:\n\tjmp .x\nother:\n.x:\tnop\n"
    with pytest.raises(AsmError, match='symbol undefined|undefined symbol'):
        assemble(src)
    asm = assemble(src, relaxed=True)
    assert asm.data == bytes([0x04, 0x02, 0x00]) and len(asm.warnings) == 1
    assert asm.symbols == {"proc1": 0, "other": 2, "other.x": 2}


def test_the_result_is_read_by_its_names_not_unpacked_as_a_tuple():
    asm = assemble("\torg 400h\nstart:\tnop\n")
    assert (asm.data, asm.symbols, asm.origin) == (b"\x00", {"start": 0x400}, 0x400)
    with pytest.raises(TypeError):
        data, symbols = asm  # noqa: F841 - one object, not a (data, symbols) pair
