"""The application's types: mypy passes on every videopac module (tests/typecheck.py), with
pyglet and pyserial read as untyped (pyproject.toml); the modules already typed to ``mypy --strict``
are held to it."""
from __future__ import annotations

import pytest

from tests.typecheck import assert_strict, assert_typed


def test_the_application_passes_mypy():
    assert_typed("videopac")


@pytest.mark.parametrize("module", ["videopac/ledger_panel.py", "videopac/ledger_view.py"])
def test_the_ledger_panel_and_the_web_view_pass_mypy_strict(module):
    assert_strict(module)
