"""asl expression semantics: number formats, operators and their asl precedence, functions."""
from __future__ import annotations

import pytest

from cartridge.asm48 import AsmError, assemble


def value(expr: str, pc: int = 0x400, relaxed: bool = False) -> int:
    """The word an expression assembles to (DW stores 16 bits, low byte first)."""
    data = assemble(f"\torg 0{pc:X}h\n\tdw {expr}\n", relaxed=relaxed).data
    return int.from_bytes(data, "little")


# asm48's extensions: asl refuses them (the $/0x/%/0b numbers unless RELAXED ON); asm48 too,
# with asl's reason, unless relaxed=True, which takes them with a warning
EXTENSIONS = [("$ff", 0xFF, "invalid symbol name"), ("0xff", 0xFF, "invalid symbol name"),
              ("%0101", 5, "invalid symbol name"), ("0b0110", 6, "invalid symbol name"),
              ("123d", 123, "invalid symbol name"), ("100%7", 2, "invalid symbol name"),
              ("!0", 1, "wrong number of operands"), ("!7", 0, "wrong number of operands"),
              ("1!=1", 0, "wrong number of operands"), ("hi(1234h)", 0x12, "unknown function"),
              ("lo(1234h)", 0x34, "unknown function"),
              ("HI($abcd)+LO($abcd)", 0xAB + 0xCD, "invalid symbol name"),
              ("*", 0x400, "wrong number of operands"), ("*-1", 0x3FF, "wrong number of operands")]


@pytest.mark.parametrize("expr, expected, reason", EXTENSIONS)
def test_extensions_refused_with_asls_reason_or_warned_when_relaxed(expr, expected, reason):
    with pytest.raises(AsmError) as err:
        value(expr)
    assert f'(asl: "{reason}")' in str(err.value) and "write " in str(err.value)
    asm = assemble(f"\torg 400h\n\tdw {expr}\n", relaxed=True)
    assert int.from_bytes(asm.data, "little") == expected
    assert asm.warnings and all(w.severity == "warning" for w in asm.warnings)
    assert "accepted by --relaxed" in str(asm.warnings[0])


@pytest.mark.parametrize("expr, expected", [
    ("$ff", 0xFF), ("0xff", 0xFF), ("%0101", 5), ("0b0110", 6), ("x'12'", 0x12),
    ("h'1f'", 0x1F), ("b'101'", 5), ("o'17'", 15), ("@17", 15)])
def test_relaxed_on_numbers_as_asl(expr, expected):
    """asl takes the other assemblers' number formats after RELAXED ON, without warning."""
    asm = assemble(f"\trelaxed on\n\torg 400h\n\tdw {expr}\n")
    assert int.from_bytes(asm.data, "little") == expected and not asm.warnings
    with pytest.raises(AsmError, match="RELAXED ON"):
        assemble(f"\trelaxed on\n\trelaxed off\n\tdw {expr}\n")


@pytest.mark.parametrize("expr, expected", [
    ("0ffh", 0xFF), ("0FFH", 0xFF), ("01010101b", 0x55),
    ("377o", 0xFF), ("377q", 0xFF), ("123", 123),
    ("'A'", 0x41), ("'AB'", 0x4142), ("'\\n'", 10), ("\"A\"", 0x41),
])
def test_number_formats(expr, expected):
    assert value(expr) == expected


@pytest.mark.parametrize("expr, expected", [
    ("1+2*3", 7), ("(1+2)*3", 9), ("10-2-3", 5), ("100/7", 14), ("100#7", 2),
    ("1<<4", 16), ("256>>4", 16), ("0f0h&3ch", 0x30), ("0f0h|0fh", 0xFF), ("0ffh!0fh", 0xF0),
    ("2^10", 1024),                       # asl: ^ is power
    ("~0&0ffffh", 0xFFFF), ("~~5", 0), ("~~0", 1),
    ("1+2&3", 3),                         # asl: & binds tighter than +  -> 1+(2&3)
    ("2*3<<1", 12),                       # asl: << binds tighter than *  -> 2*(3<<1)
    ("1==1", 1), ("1=2", 0), ("1<>2", 1), ("2>1", 1), ("2<=1", 0),
    ("1&&0", 0), ("1||0", 1), ("1!!1", 0), ("3><2", 3 & ~3 | 0b11),
    ("(-7/2)&0ffh", 0xFD), ("(-7#2)&0ffh", 0xFF), ("-7/2", 0xFFFD),
    ("-1&0fh", 0xFFFF),                   # asl: unary minus ranks with +/-  -> -(1&0fh)
    ("$", 0x400), ("$+2", 0x402), ("2*$", 0x800),
])
def test_operators(expr, expected):
    assert value(expr) == expected


def test_mirror_operator():
    assert value("1><4") == 0b1000 and value("0f1h><4") == 0xF8


def test_symbols_are_case_insensitive_and_keep_their_spelling():
    asm = assemble("Speed equ 3\n\torg 10h\nLoop: mov a,#SPEED\n\tjnz loop\n")
    assert asm.symbols == {"Speed": 3, "Loop": 0x10}
    assert asm.data == bytes([0x23, 3, 0x96, 0x10])


@pytest.mark.parametrize("expr, message", [
    ("1/0", "division by zero"), ("(1+2", "')' expected"), ("1+", "expression ends too early"),
    ("0fz", "invalid number"), ("3 4", "unexpected '4'"), ("bitcnt(1,2)", "takes 1 argument"),
])
def test_expression_errors(expr, message):
    with pytest.raises(AsmError) as e:
        assemble(f"\tdw {expr}\n")
    assert message in str(e.value)
    assert str(e.value).startswith("<string>:1:")


def test_abs_follows_the_manual_not_the_bld_148_bug():
    """asl's manual: ABS is the absolute value; asl 1.42 Bld 148 returns the sign instead
    (abs(-5) = -1 there), a bug asm48 does not copy (docs/asm48.md)."""
    assert value("abs(-5)") == 5 and value("abs(7)") == 7 and value("sgn(-5)") == 0xFFFF
