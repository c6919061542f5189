"""The application's types: mypy passes on every videopac module (tests/typecheck.py), with
pyglet and pyserial read as untyped (pyproject.toml)."""
from __future__ import annotations

from tests.typecheck import assert_typed


def test_the_application_passes_mypy():
    assert_typed("videopac")
