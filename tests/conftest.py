"""Shared fixtures: paths of the project and of the documents beside it."""
from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT
