"""asm48 against asl 1.42 Beta [Bld 148] without asl: each tests/asm/asl_golden/NAME.a48 was
assembled by asl (tools/asl_golden.py) and its bytes kept in NAME.bin; each refused/NAME.a48
is refused by asl with the error kept in refused/NAME.err.  asm48 must give the same bytes,
and refuse the same sources on the same line with asl's reason."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cartridge.asm48 import AsmError, assemble

GOLDEN = Path(__file__).parent / "asl_golden"
SOURCES = sorted(GOLDEN.glob("*.a48"))
REFUSED = sorted((GOLDEN / "refused").glob("*.a48"))


def test_every_golden_source_has_asls_output():
    assert SOURCES and REFUSED
    for source in SOURCES:
        assert source.with_suffix(".bin").is_file(), source.name
    for source in REFUSED:
        assert source.with_suffix(".err").is_file(), source.name


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_same_bytes_as_asl(source):
    asm = assemble(source.read_text("latin-1"), str(source), [GOLDEN])
    assert asm.data == source.with_suffix(".bin").read_bytes()
    assert not asm.warnings


@pytest.mark.parametrize("source", REFUSED, ids=lambda p: p.stem)
def test_refused_like_asl(source):
    first = source.with_suffix(".err").read_text().splitlines()[0]
    m = re.match(r".*?\((\d+)\)(?::\d+)?: error: (.*)$", first)
    line, reason = int(m.group(1)), m.group(2).strip()
    with pytest.raises(AsmError) as err:
        assemble(source.read_text("latin-1"), str(source), [GOLDEN])
    first_error = err.value.diagnostics[0]
    assert first_error.line == line
    assert f'(asl: "{reason}")' in first_error.message
