"""The cartridge package's types (the assembler, the disassembler, ROM files): ``mypy --strict``
passes on every module (tests/typecheck.py)."""
from __future__ import annotations

from tests.typecheck import assert_strict


def test_the_cartridge_package_passes_mypy_strict():
    assert_strict("cartridge")
