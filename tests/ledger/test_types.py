"""The ledger's types: ``mypy --strict`` passes on every board_ledger module (tests/typecheck.py)."""
from __future__ import annotations

from tests.typecheck import assert_strict


def test_the_ledger_passes_mypy_strict():
    assert_strict("board_ledger")
