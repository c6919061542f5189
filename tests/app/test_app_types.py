"""The application's types: ``mypy --strict`` passes on every videopac module (tests/typecheck.py),
with pyglet and pyserial read as untyped (pyproject.toml)."""
from __future__ import annotations

from tests.typecheck import assert_typed


def test_the_application_passes_mypy_strict():
    assert_typed("videopac")
