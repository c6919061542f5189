"""The application's types: mypy passes on every videopac module, and ``mypy --strict`` on those
pyproject.toml lists as strict (tests/typecheck.py), with pyglet and pyserial read as untyped."""
from __future__ import annotations

from tests.typecheck import assert_typed


def test_the_application_passes_mypy():
    assert_typed("videopac")
