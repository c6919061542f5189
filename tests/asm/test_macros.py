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


def test_argcount_counts_the_arguments_written_and_extra_arguments_allowed():
    # asl 1.42 Bld 148 (tests/asm/asl_golden/argcount.a48); its manual says 3, 3, 5
    src = """
cnt     macro   a,b,c
        db      ARGCOUNT
        endm
        cnt
        cnt     1
        cnt     1,2,3,4,5
"""
    assert code(src) == bytes([0, 1, 5])


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
    # {GLOBALSYMBOLS} publishes the labels (asl keeps labels in a macro local otherwise)
    src = """
mk      macro   x,{GLOBALSYMBOLS}
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
    published = assemble("\tirp v,{GLOBALSYMBOLS},1,2\nl_v\tdb v\n\tendm\n").symbols
    assert set(published) == {"l_1", "l_2"}


# ---- labels local to an expansion (asl's manual, MACRO: "Labels defined in macros always
# are regarded as being local, unless the GLOBALSYMBOLS was used"; REPT, IRP and IRPC make
# every iteration local the same way) ------------------------------------------------------

DELAY = """
delay   macro   n
        mov     r7,#n
loop:   djnz    r7,loop
        endm
"""


def test_a_macro_with_a_loop_label_can_be_called_twice():
    # MOV R7,#n = BF n; DJNZ R7 = EF target; each DJNZ jumps to its own expansion's loop
    asm = assemble(DELAY + "\tdelay 3\n\tdelay 5\n")
    assert asm.data == bytes([0xBF, 3, 0xEF, 2, 0xBF, 5, 0xEF, 6])
    assert asm.symbols == {}            # local labels are not published


def test_a_local_label_is_invisible_outside_its_expansion():
    with pytest.raises(AsmError, match="undefined symbol 'loop'"):
        assemble(DELAY + "\tdelay 3\n\tjmp loop\n")


def test_a_local_label_hides_a_global_one_of_the_same_name_inside_only():
    src = """
loop    nop
        delay   1
        jmp     loop
"""
    # the DJNZ goes to the expansion's loop (3), the JMP outside to the global one (0)
    assert code(DELAY + src) == bytes([0x00, 0xBF, 1, 0xEF, 3, 0x04, 0x00])


def test_forward_reference_to_a_local_label():
    src = """
skip    macro
        jmp     over
        db      0AAh
over:   nop
        endm
        skip
        skip
"""
    assert code(src) == bytes([0x04, 3, 0xAA, 0, 0x04, 7, 0xAA, 0])


def test_globalsymbols_publishes_the_labels():
    src = DELAY.replace("delay   macro   n", "delay   macro   n,{GLOBALSYMBOLS}")
    asm = assemble(src + "\tdelay 3\n\tjmp loop\n")
    assert asm.symbols == {"loop": 2} and asm.data[-2:] == bytes([0x04, 2])
    with pytest.raises(AsmError, match="duplicate definition of symbol 'loop'"):
        assemble(src + "\tdelay 3\n\tdelay 5\n")


def test_equ_and_set_in_a_macro_stay_global():
    src = """
count   set     0
tick    macro
count   set     count+1
last    equ     $
here:   nop
        endm
        tick
        db      count, last
"""
    asm = assemble(src)
    assert asm.data == bytes([0, 1, 0]) and asm.symbols == {"count": 1, "last": 0}


def test_nested_macro_sees_the_enclosing_expansions_labels():
    src = """
back    macro
        jmp     top
        endm
outer   macro
top:    nop
        back
        endm
        outer
        outer
"""
    assert code(src) == bytes([0x00, 0x04, 0x00, 0x00, 0x04, 0x03])


def test_label_on_the_call_line_is_defined_outside_the_expansion():
    asm = assemble(DELAY + "\tnop\nwait\tdelay 2\n\tjmp wait\n")
    assert asm.symbols == {"wait": 1} and asm.data[-2:] == bytes([0x04, 1])


def test_rept_and_irp_iterations_are_local_each():
    rept = "\trept 2\nl:\tdjnz r2,l\n\tendm\n"
    assert code(rept) == bytes([0xEA, 0, 0xEA, 2])
    irp = "\tirp r,r2,r3\nl:\tdjnz r,l\n\tendm\n"
    assert code(irp) == bytes([0xEA, 0, 0xEB, 2])
    irpc = "\tirpc c,\"12\"\nl:\tdb c, l\n\tendm\n"
    assert code(irpc) == bytes([1, 0, 2, 2])
    with pytest.raises(AsmError, match="duplicate definition"):
        assemble("\trept {GLOBALSYMBOLS},2\nl:\tnop\n\tendm\n")
    assert assemble("\trept 1,{GLOBALSYMBOLS}\nl:\tnop\n\tendm\n").symbols == {"l": 0}


def test_exitm_ends_the_whole_rept():
    src = """
n       set     0
        rept    5
n       set     n+1
        if      n = 2
        exitm
        endif
        db      n
        endm
"""
    assert code(src) == bytes([1])


def test_intlabel_hands_the_call_label_to_the_body():
    src = """
entry   macro   {INTLABEL},{GLOBALSYMBOLS}
        nop
__LABEL__ dec   a
        endm
        nop
go      entry
        jmp     go
"""
    asm = assemble(src)
    # the label is not placed on the call line (address 1) but on the DEC A (2)
    assert asm.symbols == {"go": 2} and asm.data == bytes([0, 0, 0x07, 0x04, 2])
    # without {INTLABEL}, __LABEL__ is an ordinary name and the call line keeps its label
    plain = assemble(src.replace("{INTLABEL},", ""))
    assert plain.symbols == {"go": 1, "__LABEL__": 2} and plain.data[-1] == 1


def test_intlabel_without_globalsymbols_is_local_and_may_be_empty():
    src = """
entry   macro   {INTLABEL}
__LABEL__ dec   a
        jmp     __LABEL__
        endm
x       entry
y       entry
"""
    asm = assemble(src)
    assert asm.data == bytes([0x07, 0x04, 0, 0x07, 0x04, 3]) and asm.symbols == {}
    assert code("e macro {INTLABEL}\n__LABEL__ dec a\n endm\n e\n") == bytes([0x07])


def test_shift_walks_a_variable_argument_list():
    # the recursion of asl's manual: each call stores the first argument, shifts, and
    # calls itself with the rest
    src = """
bytes   macro   v
        if      "V" <> ""
        db      v
        shift
        bytes   ALLARGS
        endif
        endm
        bytes   1,2,3
"""
    assert code(src) == bytes([1, 2, 3])


def test_shift_changes_only_the_lines_after_it():
    src = """
m       macro   a,b
        db      a, b, ARGCOUNT
        shift
        db      a, b, ARGCOUNT
        endm
        m       1,2,3
"""
    # after SHIFT asl 1.42 sets ARGCOUNT to the declared parameters left (2 - 1)
    assert code(src) == bytes([1, 2, 3, 2, 3, 1])
    with pytest.raises(AsmError, match="SHIFT outside a macro"):
        assemble("\trept 1\n\tshift\n\tendm\n")


def test_noexpand_leaves_the_expanded_lines_out_of_the_listing():
    quiet = DELAY.replace("delay   macro   n", "delay   macro   n,{NOEXPAND}")
    listing = assemble(quiet + "\tdelay 3\n").listing
    assert "delay 3" in listing and "djnz" not in listing
    assert "djnz" in assemble(DELAY + "\tdelay 3\n").listing
    loud = quiet.replace("{NOEXPAND}", "{EXPAND}")
    assert "djnz" in assemble(loud + "\tdelay 3\n").listing


def test_unknown_control_parameter_is_an_error():
    with pytest.raises(AsmError, match="unknown control parameter"):
        assemble("m macro {LOCALS}\n nop\n endm\n")
    with pytest.raises(AsmError, match="unknown control parameter"):
        assemble("\trept {INTLABEL},1\n\tnop\n\tendm\n")
    assert code("m macro {NOINTLABEL},{NOEXPIF},{EXPORT}\n nop\n endm\n m\n") == bytes(1)
