"""Fixtures of the app tests: a virtual X display (Xvfb) for the whole session, pyglet on the
silent audio driver, a private user data folder, and a fake machine."""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import time

import pytest

import pyglet

pyglet.options["shadow_window"] = False   # key names can load before a display exists
pyglet.options["audio"] = ("silent",)
pyglet.options["debug_gl"] = False


def _free_display() -> int:
    for n in range(90, 200):
        if not pathlib.Path(f"/tmp/.X{n}-lock").exists() and not pathlib.Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number between :90 and :199")


@pytest.fixture(scope="session")
def xvfb():
    """Start `Xvfb :N -screen 0 1280x1024x24`, point DISPLAY at it, stop it at the end."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb)")
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    socket = pathlib.Path(f"/tmp/.X11-unix/X{n}")
    deadline = time.monotonic() + 10
    while not socket.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"Xvfb :{n} did not start")
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    yield f":{n}"
    proc.terminate()
    proc.wait(5)
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old


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
