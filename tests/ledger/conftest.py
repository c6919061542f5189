"""Fixtures of the ledger tests (the helpers themselves live in ledger_helpers.py)."""
from __future__ import annotations

import pathlib

import pytest

from ledger_helpers import SMALL_BOARD


@pytest.fixture
def small_board(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "small.csv"
    path.write_text(SMALL_BOARD)
    return path
