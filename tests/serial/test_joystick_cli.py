"""`videopac joystick test PORT` and `tools/fake_joystick.py`, run as users run them."""
from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import threading

import pytest

from joystick_test_support import Pty, wait_until
from videopac.joystick import render_line
from videopac.sticks.serial_line import RELEASED, JoystickState, LineCounters, encode_frame

ENV = dict(os.environ, PYTHONIOENCODING="utf-8")
FAKE = ["tools/fake_joystick.py"]


def spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


class Lines:
    """Collects a process's stdout lines in a thread, so the test can wait for one."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._collect, args=(proc.stdout,))
        self._thread.start()

    def _collect(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def join(self) -> list[str]:
        self._thread.join(timeout=5)
        return self.lines


def test_status_line_shows_both_sticks_and_counters():
    counters = LineCounters(frames=123, stray=2)
    line = render_line(JoystickState(up=True, fire=True), JoystickState(left=True), counters)
    assert line == "J0 ↑ · · · FIRE | J1 · · ← · ·  frames 123 bad 2"
    assert render_line(JoystickState(down=True, right=True), RELEASED, counters, ascii_only=True) \
        == "J0 . v . > . | J1 . . . . .  frames 123 bad 2"


def test_live_states_are_shown(root):
    pty = Pty()
    proc = spawn("-m", "videopac", "joystick", "test", pty.path, "--seconds", "1.5")
    out = Lines(proc)
    want = "J0 ↑ · · · FIRE | J1 · · ← · ·"
    try:
        frame = encode_frame(JoystickState(up=True, fire=True), JoystickState(left=True))
        # keep sending like the adapter until the command has opened the port and shows it
        assert wait_until(lambda: pty.write(frame) or any(want in l for l in out.lines), 5)
        assert proc.wait(timeout=5) == 0
    finally:
        proc.kill()
        proc.wait()
        pty.close()
    lines = out.join()
    assert any(line.startswith(want + "  frames ") and line.endswith(" bad 0") for line in lines)
    assert f"joystick adapter connected on {pty.path}" in lines
    assert proc.stderr.read() == ""


@pytest.mark.parametrize("name, reason", [
    ("ttyUSB7", "No such file or directory"),
    ("notes.txt", "Could not configure port: Inappropriate ioctl for device"),   # not a tty
])
def test_port_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path, name, reason):
    (tmp_path / "notes.txt").write_text("not a serial port")
    res = subprocess.run([sys.executable, "-m", "videopac", "joystick", "test",
                          str(tmp_path / name)], capture_output=True, text=True, env=ENV)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"videopac joystick: cannot open {tmp_path / name}: {reason}.\n"


def test_ctrl_c_stops_cleanly():
    pty = Pty()
    proc = spawn("-m", "videopac", "joystick", "test", pty.path)
    out = Lines(proc)
    try:
        assert wait_until(lambda: out.lines, 5)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=5) == 0
    finally:
        proc.kill()
        proc.wait()
        pty.close()
    out.join()
    assert proc.stderr.read() == ""


def test_fake_adapter_script_drives_the_reader(tmp_path):
    script = "uf l 500\n- - 300\nbadcrc r r\ngarbage 8\n- d 300\n"
    link = tmp_path / "ttyJOY"
    fake = spawn(*FAKE, "--wait", "0.6", "--link", str(link))
    fake.stdin.write(script)
    fake.stdin.close()
    try:
        path = fake.stdout.readline().strip()
        assert path.startswith("/dev/") and link.resolve() == pathlib.Path(path)
        viewer = spawn("-m", "videopac", "joystick", "test", str(link), "--seconds", "2.2")
        lines = Lines(viewer).join()
        assert viewer.wait(timeout=5) == 0
        assert fake.wait(timeout=5) == 0
        assert not link.exists() and not link.is_symlink()         # removed on exit
    finally:
        fake.kill()
        fake.wait()
    states = [line.split("  frames")[0] for line in lines if line.startswith("J0")]
    expected = ["J0 ↑ · · · FIRE | J1 · · ← · ·", "J0 · · · · · | J1 · · · · ·",
                "J0 · · · · · | J1 · ↓ · · ·"]
    remaining = iter(states)
    assert all(any(s == want for s in remaining) for want in expected), states   # in this order
    assert "J0 · · · → · | J1" not in "\n".join(lines)      # the bad-CRC frame never shows
    assert "bad 0" not in lines[-1]                              # ... but it was counted


def test_fake_adapter_reports_script_errors():
    fake = spawn(*FAKE)
    out, err = fake.communicate("uq -\n", timeout=5)
    assert fake.returncode == 2
    assert err == "fake_joystick: line 1: unknown switch letter(s) 'q' in 'uq' " \
                  "(use u d l r f, or - for none).\n"


def test_fake_adapter_keyboard_toggles_switches(make_reader):
    keyboard = Pty()                                   # the fake's stdin is a terminal
    fake = subprocess.Popen([sys.executable, *FAKE], stdin=keyboard.slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        path = fake.stdout.readline().strip()
        reader = make_reader(path).start(must_open=True)
        keyboard.write(b"w ")                          # stick 0: up, fire
        assert wait_until(lambda: reader.state(0) == JoystickState(up=True, fire=True))
        keyboard.write(b"jw")                          # stick 1 left; stick 0 up toggles off
        assert wait_until(lambda: reader.state(1) == JoystickState(left=True)
                          and reader.state(0) == JoystickState(fire=True))
        keyboard.write(b"x")
        assert wait_until(lambda: reader.state(0) == reader.state(1) == RELEASED
                          and reader.counters.frames > 4)
        keyboard.write(b"q")
        assert fake.wait(timeout=5) == 0
    finally:
        fake.kill()
        fake.wait()
        keyboard.close()
