"""`videopac play --record` on a full disk (issue 26 item 15): the recording stops, the terminal
and the screen say so naming the file, and the game goes on; it used to end the session at the
first key press."""
from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.app.fake_machine import FakeMachine
from videopac import play
from videopac.console.keymap import load
from videopac.console.record import Recorder
from videopac.console.session import Session

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = ("the recording {path} cannot be written (No space left on device); it stopped here, "
            "the game goes on")


class FullDisk(io.StringIO):
    """A file on a full disk: writing is fine until the buffer goes to the disk."""

    def flush(self) -> None:
        raise OSError(28, "No space left on device")


def test_a_recording_that_cannot_be_written_stops_once_and_the_machine_goes_on(capsys):
    machine = FakeMachine()
    session = Session(machine, load(), "conquest")
    said: list[str] = []

    def failed(sentence: str) -> None:
        said.append(sentence)
        play.say_everywhere(session, sentence)

    recorder = Recorder(machine, FullDisk(), "game.txt", failed)
    recorder.press("SPACE")
    assert machine.pressed == {"SPACE"}
    recorder.release("SPACE")
    recorder.set_joystick(0, up=True)
    machine.run_frame()
    recorder.close()
    assert said == [SENTENCE.format(path="game.txt")]            # once, naming the file
    assert session.current_message() == SENTENCE.format(path="game.txt")     # on the screen
    assert capsys.readouterr().err == f"videopac play: {SENTENCE.format(path='game.txt')}.\n"
    assert recorder.stopped and machine.pressed == set() and machine.sticks[0]["up"]


@pytest.mark.xvfb
@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is installed by make test")
def test_play_records_onto_a_full_disk_and_plays_on(xvfb, tmp_path):
    """The window as a person uses it (real key events through xdotool): the first key press
    finds the disk full; the sentence is said once, the window stays and takes more keys."""
    from tests.app.test_play_cli import wait_for_window, window_titles

    env = dict(os.environ, PYGLET_AUDIO="silent", PYTHONPATH=str(ROOT), LANGUAGE="",
               LC_ALL="C.UTF-8", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "videopac", "play", "--record", "/dev/full",
                             "--scale", "1"], stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_for_window(xvfb, "Videopac - conquest", proc, 300)

        def key(name: str) -> None:
            subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Videopac - conquest$",
                            "windowfocus", "--sync", "key", "--delay", "80", name], env=env,
                           capture_output=True, timeout=30)

        deadline = time.monotonic() + 300                 # a cold numba cache compiles first
        while proc.poll() is None and time.monotonic() < deadline:
            key("1")                                      # until one is recorded: then it fails
            time.sleep(1.0)
            if _said(proc):
                break
        for name in ("2", "space", "a"):                  # the game takes keys still
            key(name)
        time.sleep(1.0)
        assert proc.poll() is None and "Videopac - conquest" in window_titles(xvfb)
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=30)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if line.startswith("videopac play: ")]
    assert lines == ["videopac play: " + SENTENCE.format(path="/dev/full") + "."]
    assert "Traceback" not in err


def _said(proc: subprocess.Popen[str]) -> bool:
    """Whether the process has written to stderr yet (without blocking)."""
    import select
    assert proc.stderr is not None
    return bool(select.select([proc.stderr], [], [], 0)[0])


@pytest.mark.xvfb
def test_a_recording_into_a_fifo_nobody_reads_is_refused_before_play_starts(xvfb, tmp_path):
    """Opening it waited for a reader: play hung before its window opened."""
    os.mkfifo(tmp_path / "fifo")
    env = dict(os.environ, PYGLET_AUDIO="silent", PYTHONPATH=str(ROOT), LANGUAGE="",
               LC_ALL="C.UTF-8", XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "videopac", "play", "--record", "fifo"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert (r.returncode, r.stderr) == (
        1, "videopac play: cannot write fifo: No such device or address.\n")
