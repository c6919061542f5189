"""Property: any byte stream, disassembled by dis48 and assembled by asm48, comes back."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cartridge.asm48 import assemble
from cartridge.dis48 import disassemble


@settings(max_examples=150, deadline=None)
@given(data=st.binary(min_size=1, max_size=300), org=st.integers(0, 0xFFF))
def test_disassemble_then_assemble_gives_the_same_bytes(data, org):
    data = data[:0x1000 - org]
    asm = assemble(disassemble(data, org))
    assert asm.image(org, org + len(data) - 1) == data
    assert asm.origin == org


# symbol names as users write them, including ones spelled like directives and registers
NAMES = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
                  st.sampled_from(["set", "equ", "db", "end", "if", "macro", "org", "a", "r0",
                                   "hi", "lo", "defined", "section", "function", "p1", "t"]))


@settings(max_examples=40, deadline=None)
@given(data=st.binary(min_size=2, max_size=64),
       names=st.dictionaries(NAMES, st.integers(0x7E0, 0x81F), max_size=12))
def test_round_trip_with_symbols(data, names):
    org = 0x7E0          # straddles the 2 KB boundary
    asm = assemble(disassemble(data, org, names))
    assert asm.image(org, org + len(data) - 1) == data
