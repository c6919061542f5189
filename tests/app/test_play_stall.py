"""`videopac play` survives a stalled process (SIGSTOP, a busy machine): when it wakes up, the
audio player finds its buffer run dry, which must be a silent gap and never the end of play."""
import os
import shutil
import signal
import subprocess
import time

import pytest

from tests.app.test_play_cli import play_process, stop_with_ctrl_c, wait_for_window, window_titles
from tools.xvfb import virtual_display

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]


def press(display: str, window: str, key: str) -> None:
    """A real key press and release in the play window (XTEST through xdotool)."""
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{window}$", "windowfocus", "--sync"],
                   env=env, check=True, capture_output=True, timeout=30)
    subprocess.run(["xdotool", "key", "--clearmodifiers", key], env=env, check=True,
                   capture_output=True, timeout=30)


def saved_frames(path) -> int:
    """The frame counter of a save state written by F2."""
    from o2em_core import savestate, state
    return int(savestate.read(path.read_bytes()).sections["regs"][state.FRAMES])


def wait_for(condition, seconds: float, proc) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
@pytest.mark.parametrize("audio", ["silent", None])   # None: pyglet's own choice of device
def test_play_goes_on_after_a_three_second_stop(tmp_path, audio):
    """SIGSTOP for 3 s, SIGCONT: the window stays, F2 saves states whose frame counter keeps
    growing, and nothing is printed but the compile notice. On an X display of its own, so
    that no window or grab left by another test stands in the way."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian package xvfb)")
    with virtual_display() as xvfb:
        _stop_and_go_on(xvfb, tmp_path, audio)


def _stop_and_go_on(xvfb: str, tmp_path, audio: str | None) -> None:
    bios, cart = tmp_path / "b.bin", tmp_path / "stall.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    data = tmp_path / "data"
    env = dict(os.environ, DISPLAY=xvfb, XDG_DATA_HOME=str(data),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("PYGLET_AUDIO", None)
    if audio:
        env["PYGLET_AUDIO"] = audio
    slot = data / "videopac" / "states" / "stall" / "slot0.state"
    with play_process([str(cart), "--bios", str(bios), "--scale", "1"], env) as proc:
        wait_for_window(xvfb, "Videopac - stall", proc)
        time.sleep(1.0)
        for _ in range(2):          # two stalls: the second after the player recovered once
            proc.send_signal(signal.SIGSTOP)
            time.sleep(3.0)
            proc.send_signal(signal.SIGCONT)
            time.sleep(1.5)
            assert proc.poll() is None, proc.stderr.read()
        press(xvfb, "Videopac - stall", "F2")
        wait_for(slot.exists, 30, proc)
        first = saved_frames(slot)
        time.sleep(1.0)
        press(xvfb, "Videopac - stall", "F2")
        wait_for(lambda: saved_frames(slot) > first, 30, proc)
        assert proc.poll() is None and "Videopac - stall" in window_titles(xvfb)
        err = stop_with_ctrl_c(proc)
    assert proc.returncode == 130
    assert "Traceback" not in err and "Exception" not in err, err
