"""The i18n helper's types: ``mypy --strict`` passes on every i18n module (tests/typecheck.py)."""
from __future__ import annotations

from tests.typecheck import assert_strict


def test_i18n_passes_mypy_strict():
    assert_strict("i18n")
