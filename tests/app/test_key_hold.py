"""A key tapped for less than a frame is seen by the cartridge (issue 26 item 16): the console's
key stays down at least HOLD_FRAMES frames, and up as long before it goes down again, however
short the PC key press; tested on the session and in the play window with real X events."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pyglet.window import key as pc

from tests.app.fake_machine import FakeMachine
from videopac.console.keyhold import HOLD_FRAMES, MAX_QUEUED, KeyHold
from videopac.console.keymap import load
from videopac.console.record import Recorder
from videopac.console.session import Session

ROOT = Path(__file__).resolve().parents[2]


class Frames:
    """A session on a machine whose key changes are written down by frame (a Recorder)."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "keys.txt"
        self.machine = Recorder(FakeMachine(), self.path.open("w", encoding="utf-8"))
        self.session = Session(self.machine, load(), "conquest")

    def run(self, frames: int = 1) -> None:
        for _frame in range(frames):
            self.session.before_frame()
            self.machine.run_frame()

    def changes(self) -> list[str]:
        self.machine.close()
        return [line for line in self.path.read_text().splitlines() if line[0].isdigit()]


def test_a_tap_between_two_frames_holds_the_key_for_the_bios(tmp_path):
    f = Frames(tmp_path)
    f.run(3)
    f.session.key_press(pc._1)
    f.session.key_release(pc._1)              # before any frame ran with it down
    f.run(6)
    assert f.changes() == ["3 press 1", f"{3 + HOLD_FRAMES} release 1", f"{6 + 3} end"]


def test_typing_faster_than_the_bios_scans_keeps_every_key_and_their_order(tmp_path):
    f = Frames(tmp_path)
    for symbol in (pc._1, pc._1, pc._2):       # "112" within one frame
        f.session.key_press(symbol)
        f.session.key_release(symbol)
    f.run(12)
    assert f.changes() == ["0 press 1", "0 press 2", f"{HOLD_FRAMES} release 1",
                           f"{HOLD_FRAMES} release 2", f"{2 * HOLD_FRAMES} press 1",
                           f"{3 * HOLD_FRAMES} release 1", "12 end"]


def test_a_key_held_longer_is_released_when_it_goes_up(tmp_path):
    f = Frames(tmp_path)
    f.session.key_press(pc.A)
    f.run(10)
    f.session.key_release(pc.A)
    f.run(1)
    assert f.changes() == ["0 press A", "10 release A", "11 end"]


def test_a_key_hit_very_fast_queues_a_bounded_number_of_changes():
    hold = KeyHold()
    taken = [hold.change("A", down, 0) for _ in range(100) for down in (True, False)]
    assert taken[:2] == [True, False] and len(hold.queued["A"]) == MAX_QUEUED
    applied = [change for frame in range(1, 100) for change in hold.due(frame)]
    assert applied == [("A", False), ("A", True)] * (MAX_QUEUED // 2)   # alternating, ending up


@pytest.mark.xvfb
@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is installed by make test")
def test_keys_typed_in_the_window_faster_than_a_frame_reach_the_console(xvfb, tmp_path):
    """xdotool types with 1 ms between the X key events: each press and its release arrive
    between two frames. The recording (the machine's key changes by frame) shows each key down
    for HOLD_FRAMES frames and up as long, in the order typed."""
    from tests.app.test_play_cli import wait_for_window

    record = tmp_path / "typed.txt"
    env = dict(os.environ, PYGLET_AUDIO="silent", PYTHONPATH=str(ROOT), LANGUAGE="",
               LC_ALL="C.UTF-8", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "videopac", "play", "--record", str(record),
                             "--scale", "1"], stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_for_window(xvfb, "Videopac - conquest", proc, 300)
        focus = ["xdotool", "search", "--onlyvisible", "--name", "^Videopac - conquest$",
                 "windowfocus", "--sync"]
        deadline = time.monotonic() + 300              # a cold numba cache compiles first
        while " press 9" not in record.read_text() and time.monotonic() < deadline:
            subprocess.run(focus + ["key", "9"], env=env, capture_output=True, timeout=30)
            time.sleep(1.0)                            # until frames run and keys are taken
        time.sleep(0.5)
        subprocess.run(focus + ["type", "--delay", "1", "1a2b"], env=env, capture_output=True,
                       timeout=30)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    typed = [(int(frame), action, key) for frame, action, key in
             re.findall(r"^(\d+) (press|release) (\S+)$", record.read_text(), re.M)
             if key in "1A2B"]
    assert [key for _f, action, key in typed if action == "press"] == ["1", "A", "2", "B"]
    down = {key: frame for frame, action, key in typed if action == "press"}
    assert all(frame - down[key] >= HOLD_FRAMES for frame, action, key in typed
               if action == "release")
