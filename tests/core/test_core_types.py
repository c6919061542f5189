"""The emulator's types: mypy passes on every o2em_core module (tests/typecheck.py), as far as
numba allows (pyproject.toml: numba read as untyped, the compositor's numpy scalars)."""
from __future__ import annotations

from tests.typecheck import assert_typed


def test_the_emulator_passes_mypy():
    assert_typed("o2em_core")
