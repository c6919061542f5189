"""Macro parameters bound and substituted the way asl (the Macroassembler AS) does it:
defaults, keyword arguments, ARGCOUNT/ALLARGS, the underscore rule and upper-cased
arguments.  The rules are those of asl's manual (section MACRO) and its expansion code;
every snippet here is written for these tests."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble


def code(src: str) -> bytes:
    return assemble(src).data


PUT = """
put     macro   val=7,reg=r2
        mov     reg,#val
        endm
"""


def test_default_used_when_argument_missing_or_empty():
    # MOV R2,#7 = BA 07; MOV R3,#1 = BB 01
    assert code(PUT + "\tput\n") == bytes([0xBA, 7])
    assert code(PUT + "\tput 5\n") == bytes([0xBA, 5])
    assert code(PUT + "\tput ,r3\n") == bytes([0xBB, 7])
    assert code(PUT + "\tput 1,r3\n") == bytes([0xBB, 1])


def test_keyword_arguments_in_any_order():
    assert code(PUT + "\tput reg=r3\n") == bytes([0xBB, 7])
    assert code(PUT + "\tput reg=r4,val=2\n") == bytes([0xBC, 2])
    assert code(PUT + "\tput 9,REG=r5\n") == bytes([0xBD, 9])


def test_keyword_argument_may_set_a_parameter_empty():
    src = """
opt     macro   x=3
        ifb     x
        db      0eeh
        else
        db      x
        endif
        endm
        opt
        opt     x=
        opt     ,
"""
    # empty positional -> default 3; empty keyword -> really empty
    assert code(src) == bytes([3, 0xEE, 3])


def test_argcount_never_below_declared_parameters_and_extra_arguments_allowed():
    src = """
cnt     macro   a,b,c
        db      ARGCOUNT
        endm
        cnt
        cnt     1
        cnt     1,2,3,4,5
"""
    assert code(src) == bytes([3, 3, 5])


def test_allargs_lists_the_arguments_as_written():
    src = """
all     macro   first
        irp     v,ALLARGS
        db      v
        endm
        endm
        all     1,2,3
"""
    assert code(src) == bytes([1, 2, 3])


def test_underscore_ends_a_parameter_name():
    src = """
mk      macro   x
lbl_x   db      x
x_end   db      0
        dw      lbl_x, x_end
        endm
w       equ     7
        mk      w
"""
    asm = assemble(src)
    # the argument arrives upper-cased, as in asl
    assert asm.symbols["lbl_W"] == 0 and asm.symbols["W_end"] == 1
    assert asm.data == bytes([7, 0, 0, 0, 1, 0])


def test_letters_and_digits_around_a_name_keep_it_whole():
    src = """
m       macro   x
xy      equ     1
        db      xy, x1, 0x, x
        endm
x1      equ     2
0x      equ     3
"""
    # `xy`, `x1`, `0x` are other names: only the lone `x` is the parameter
    with pytest.raises(AsmError):
        assemble(src + "\tm 9\n")      # 0x is no valid label: proves no substitution in it
    ok = """
m       macro   x
xy      equ     1
        db      xy, x1, x
        endm
x1      equ     2
        m       9
"""
    assert code(ok) == bytes([1, 2, 9])


def test_parameters_are_replaced_inside_quotes_too():
    src = """
txt     macro   c
        db      "c-C"
        endm
        txt     Z
"""
    assert code(src) == b"Z-Z"


def test_arguments_are_upper_cased_outside_quotes():
    src = """
txt     macro   s
        db      "s"
        endm
        txt     ab
        txt     'q'
"""
    # asl upper-cases the call's arguments (outside quotes) in case-insensitive mode
    assert code(src) == b"AB'q'"


def test_control_parameters_in_braces_are_skipped():
    src = """
m       macro   {NOEXPAND},v
        db      v, ARGCOUNT
        endm
        m       4
"""
    assert code(src) == bytes([4, 1])


def test_irp_parameter_follows_the_same_rules():
    assert code("\tirp v,1,2\nl_v\tdb v\n\tendm\n") == bytes([1, 2])
    assert set(assemble("\tirp v,1,2\nl_v\tdb v\n\tendm\n").symbols) == {"l_1", "l_2"}
