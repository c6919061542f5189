"""asl rules that Sören Gust's KTAA sources rely on and asm48 lacked: `!` before a mnemonic
(the machine instruction although a macro of that name exists), VAL("expression"), a label
in front of IF/IFDEF, and a label field holding only a colon.  Every snippet is written for
these tests (no KTAA text)."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble


def code(src: str, org: int = 0) -> bytes:
    a = assemble(src)
    return a.image(org, max(a.memory))


# CALL/JMP redefined as macros that mask the address into the current 2 KB half, calling
# the real instruction with `!`, as a bank-switching program does it.
FAR = """
call    macro   addr
        !call   addr & 07ffh
        endm
jmp     macro   addr
        !jmp    addr & 07ffh
        endm
"""


def test_bang_selects_the_machine_instruction_inside_a_same_named_macro():
    src = FAR + """
        org     0
        call    0a05h       ; macro: !call 205h = 54 05
        jmp     0b10h       ; macro: !jmp 310h  = 64 10
        !call   0123h       ; direct: 34 23
"""
    assert code(src) == bytes([0x54, 0x05, 0x64, 0x10, 0x34, 0x23])


def test_bang_works_without_any_macro_and_keeps_the_label():
    a = assemble("start   !jmp    start\n        !ret\n")
    assert a.data[:3] == bytes([0x04, 0x00, 0x83])
    assert a.symbols["start"] == 0


def test_bang_before_a_non_instruction_is_an_error():
    with pytest.raises(AsmError):
        assemble("        !nosuchop 1\n")


def test_val_evaluates_the_expression_in_a_string():
    src = """
        include "bitfuncs.inc"
        org     10h
here    db      val("here + 2"), val("hi(0345h) == 3"), val("lo($)")
"""
    assert code(src, 0x10) == bytes([0x12, 0x01, 0x10])   # $ = start of the DB line


def test_assert_macro_with_val_passes_and_fails():
    amacro = """
        include "bitfuncs.inc"
assert  macro   expr
        if      (~~val(expr))
        error   expr
        endif
        endm
"""
    ok = amacro + '        org 0F0h\nlab     nop\n        assert "hi(lab) == hi($)"\n'
    assert code(ok, 0xF0) == bytes([0x00])
    bad = amacro + '        org 0FFh\nlab     nop\n        assert "hi(lab) == hi($)"\n'
    with pytest.raises(AsmError, match="hi"):
        assemble(bad)


def test_label_in_front_of_ifdef_is_defined_at_the_current_address():
    src = """
        org     20h
        jz      .skip
.skip   ifdef   NOSUCH
        nop
        else
        ret
        endif
"""
    a = assemble(src)
    assert a.symbols[".skip"] == 0x22
    assert a.image(0x20, 0x22) == bytes([0xC6, 0x22, 0x83])    # JZ 22h, RET


def test_label_in_front_of_an_if_inside_a_false_block_is_not_defined():
    src = """
        if      0
inner   if      1
        endif
        endif
        nop
"""
    assert "inner" not in assemble(src).symbols


def test_label_field_holding_only_a_colon_is_ignored():
    src = "; comment\n:\n; more\n        nop\n"
    assert code(src) == bytes([0x00])
