"""The joystick adapter's machine code, end to end: the sketch built with the Arduino core for the
ATmega328P runs in simavr (tools/adapter_sim.py), its UART on a pseudo-terminal and its switch
pins driven by the test. What the firmware sends is read by the reader's own decoder, by
`videopac joystick test` in a terminal, and by `videopac play --joystick` in a window under Xvfb:
each switch is seen there, debounced as the firmware reports it (issue 26 item 17)."""
from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
import tty
from pathlib import Path
from typing import Iterator

import pytest

from joystick_test_support import Pty
from tools.adapter_sim import SimulatedAdapter, build, missing_tools, switch_pins
from videopac.sticks.serial_line import RELEASED, FrameDecoder, JoystickState

SWITCHES = ("up", "down", "left", "right", "fire")
ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT), PYGLET_AUDIO="silent")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def firmware(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    missing = missing_tools()
    if missing:
        pytest.skip("the simulated adapter needs the Debian packages " + ", ".join(missing))
    return build(tmp_path_factory.mktemp("adapter_sim"))


@pytest.fixture(scope="module")
def xvfb() -> Iterator[str]:
    """A virtual X display (tools/xvfb.py) for the play window."""
    from tools.xvfb import virtual_display
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb)")
    with virtual_display() as display:
        yield display


@pytest.fixture
def adapter(firmware: tuple[Path, Path]) -> Iterator[SimulatedAdapter]:
    with SimulatedAdapter(*firmware) as board:
        yield board


class Terminal:
    """The PC's end of the adapter's line, read raw: every frame the firmware sent, decoded by
    the reader's FrameDecoder."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.decoder = FrameDecoder()

    def frames(self) -> list[tuple[JoystickState, JoystickState]]:
        out = []
        while select.select([self.fd], [], [], 0.05)[0]:
            out += self.decoder.feed(os.read(self.fd, 4096))
        return out

    def close(self) -> None:
        os.close(self.fd)


def changes(frames: list[tuple[JoystickState, JoystickState]]) -> list[tuple[JoystickState, ...]]:
    """The states in the order they were sent, repeats (keep-alives) left out."""
    out: list[tuple[JoystickState, ...]] = []
    for frame in frames:
        if not out or out[-1] != frame:
            out.append(frame)
    return out


def pressed(stick: int, switch: str) -> tuple[JoystickState, JoystickState]:
    state = JoystickState(**{switch: True})
    return (state, RELEASED) if stick == 0 else (RELEASED, state)


def test_the_sketchs_pin_table_is_the_readme_wiring():
    assert switch_pins() == {(stick, switch): 2 + 5 * stick + k
                             for stick in (0, 1)
                             for k, switch in enumerate(("up", "down", "left", "right", "fire"))}


def test_each_switch_is_sent_debounced_by_the_machine_code(adapter):
    """A 2 ms glitch of any switch is never sent; a press that bounces three times is sent once,
    as one change, and held (a keep-alive repeats it) until the switch opens. Simulated
    milliseconds: exact."""
    line = Terminal(adapter.path)
    try:
        adapter.wait(20)
        adapter.sync()
        line.frames()
        for (stick, switch) in adapter.pins:
            adapter.press(stick, switch)
            adapter.wait(2)                           # shorter than the 5 ms debounce
            adapter.release(stick, switch)
            adapter.wait(20)
        adapter.sync()
        assert changes(line.frames()) == [(RELEASED, RELEASED)]
        for (stick, switch) in adapter.pins:
            for _bounce in range(3):
                adapter.press(stick, switch)
                adapter.wait(1)
                adapter.release(stick, switch)
                adapter.wait(1)
            adapter.press(stick, switch)
            adapter.wait(150)                          # held past a keep-alive
            adapter.release(stick, switch)
            adapter.wait(30)
            adapter.sync()
            sent = line.frames()
            got = changes(sent)
            assert got[got[0] == (RELEASED, RELEASED):] == [pressed(stick, switch),
                                                             (RELEASED, RELEASED)]
            assert sent.count(pressed(stick, switch)) >= 2     # the change and a keep-alive
    finally:
        line.close()
    assert adapter.lines.count("led 1") == len(adapter.pins)    # the LED: one press each


def read_terminal(master: int, until: str, seconds: float = 10) -> str:
    """What a program wrote to its terminal, until ``until`` appears (or the time is up)."""
    text, deadline = "", time.monotonic() + seconds
    while until not in text and time.monotonic() < deadline:
        if select.select([master], [], [], 0.05)[0]:
            text += os.read(master, 65536).decode("utf-8", "replace")
    return text


def status(stick0: JoystickState, stick1: JoystickState) -> str:
    """The status line `videopac joystick test` draws for these states."""
    def stick(state: JoystickState) -> str:
        return " ".join(symbol if getattr(state, name) else "·" for name, symbol in
                        zip(SWITCHES, ("↑", "↓", "←", "→", "FIRE")))
    return f"J0 {stick(stick0)} | J1 {stick(stick1)}  frames "


def test_joystick_test_in_a_terminal_shows_each_switch_of_the_firmware(adapter):
    """`videopac joystick test PTY` as a user runs it, in a terminal: each switch closed on the
    simulated board is drawn in the live line, and drawn released again."""
    terminal = Pty()
    viewer = subprocess.Popen([sys.executable, "-m", "videopac", "joystick", "test", adapter.path,
                               "--seconds", "60"], stdin=terminal.slave, stdout=terminal.slave,
                              stderr=subprocess.PIPE, text=True, env=ENV, cwd=ROOT)
    try:
        seen = read_terminal(terminal.master, "joystick adapter connected")
        assert f"joystick adapter connected on {adapter.path}" in seen, seen
        for stick, switch in adapter.pins:
            adapter.press(stick, switch)
            want = status(*pressed(stick, switch))
            assert want in read_terminal(terminal.master, want), (stick, switch)
            adapter.release(stick, switch)
            want = status(RELEASED, RELEASED)
            assert want in read_terminal(terminal.master, want), (stick, switch)
        adapter.press(0, "up")
        adapter.press(0, "fire")
        adapter.press(1, "left")
        want = status(JoystickState(up=True, fire=True), JoystickState(left=True))
        assert want in read_terminal(terminal.master, want)
        viewer.send_signal(signal.SIGINT)
        assert viewer.wait(timeout=10) == 0
        assert viewer.stderr is not None and viewer.stderr.read() == ""
    finally:
        if viewer.poll() is None:
            viewer.kill()
            viewer.wait()
        terminal.close()


@pytest.mark.xvfb
def test_play_window_is_driven_by_the_firmware(adapter, xvfb, tmp_path):
    """`videopac play --joystick 0=serial:PTY --joystick 1=serial:PTY --record F` in a window:
    each switch the firmware reports reaches the console (the recording is written where the
    machine is given its joysticks), in order, and no other. On a loaded machine the reader may
    find the line silent for its 250 ms and release the stick until the next frame: the same
    press again right after its release is then one press (the glitches, never sent, are
    checked frame by frame above)."""
    from tests.app.test_play_cli import wait_for_window

    record = tmp_path / "played.txt"
    env = dict(ENV, DISPLAY=xvfb, XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    play = subprocess.Popen([sys.executable, "-m", "videopac", "play", "--joystick",
                             f"0=serial:{adapter.path}", "--joystick", f"1=serial:{adapter.path}",
                             "--record", str(record)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        wait_for_window(xvfb, "Videopac - conquest", play)
        adapter.press(0, "up")       # held until the console has it (a cold start compiles)
        assert _wait_for(lambda: " joy 0 up\n" in record.read_text(), 300)
        adapter.release(0, "up")
        assert _wait_for(lambda: " joy 0 none\n" in record.read_text())
        for stick, switch in adapter.pins:
            adapter.press(stick, switch)
            adapter.wait(2)                               # a glitch: never sent
            adapter.release(stick, switch)
            adapter.wait(100)
            adapter.press(stick, switch)
            adapter.wait(150)                             # several frames of the console
            adapter.release(stick, switch)
            adapter.wait(150)
        adapter.sync()
        time.sleep(0.3)
        play.send_signal(signal.SIGINT)
        _out, err = play.communicate(timeout=30)
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
    assert "Traceback" not in err
    events = [line.split(None, 1)[1] for line in record.read_text().splitlines()
              if re.match(r"\d+ joy ", line)]
    expected = ["joy 0 up", "joy 0 none"]
    for stick, switch in adapter.pins:
        expected += [f"joy {stick} {switch}", f"joy {stick} none"]
    assert presses(events) == presses(expected)


def presses(events: list[str]) -> list[str]:
    """``events`` with a press that follows its own release joined to it (one press)."""
    out: list[str] = []
    for event in events:
        if out[-2:] == [event, event.rsplit(" ", 1)[0] + " none"]:
            out.pop()                        # the release between them goes
            continue
        out.append(event)
    return out


def _wait_for(predicate, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.1)
    return False
