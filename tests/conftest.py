"""Shared fixtures: paths of the project and of the documents beside it."""
from __future__ import annotations

import os
import pathlib

import pytest

import i18n

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The suite reads English unless a test asks for another language (with --lang, an environment
# of its own, or i18n.set_language): a tester's German locale must not change what tests see.
# LANGUAGE comes first in the locale variables, so it decides for subprocesses too.
os.environ["LANGUAGE"] = "en"
i18n.set_language(None)


@pytest.fixture(autouse=True)
def _source_language():
    """Every test starts in English and leaves the language as it found it."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(scope="session")
def root() -> pathlib.Path:
    return ROOT
