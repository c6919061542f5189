"""Fixtures of the app tests: a virtual X display (Xvfb) for the whole session, pyglet on the
silent audio driver, a private user data folder, and a fake machine."""
from __future__ import annotations

import shutil

import pyglet
import pytest

from tools.xvfb import virtual_display

pyglet.options["shadow_window"] = False   # key names can load before a display exists
pyglet.options["audio"] = ("silent",)
pyglet.options["debug_gl"] = False


@pytest.fixture(scope="session")
def xvfb():
    """A virtual X display for the whole session (tools/xvfb.py), stopped at the end."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb)")
    with virtual_display() as display:
        yield display


@pytest.fixture(autouse=True)
def user_dirs(tmp_path, monkeypatch):
    """Keep states, screenshots and keymaps of the tests out of the real home folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


@pytest.fixture
def fake():
    from tests.app.fake_machine import FakeMachine
    return FakeMachine()
