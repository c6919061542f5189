"""The emulator's types: ``mypy --strict`` passes on every o2em_core module (tests/typecheck.py),
as far as numba allows (pyproject.toml: numba read as untyped, njit an untyped decorator, the
compositor's numpy scalars)."""
from __future__ import annotations

from tests.typecheck import assert_typed


def test_the_emulator_passes_mypy_strict():
    assert_typed("o2em_core")
