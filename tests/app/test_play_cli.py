"""`videopac play` as a command: no display, missing ROMs, bad files; and the real event loop."""
import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from videopac import play


def parse(*argv):
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_no_display_is_one_sentence_and_status_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    cart = tmp_path / "c.bin"
    cart.write_bytes(bytes(2048))
    res = subprocess.run([sys.executable, "-m", "videopac", "play", str(cart)],
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert res.stderr.startswith("videopac play: no display was found")
    assert "videopac run --headless" in res.stderr


def test_unreachable_display_is_the_same_sentence(tmp_path):
    env = dict(os.environ, DISPLAY=":4711", PYGLET_AUDIO="silent")
    bios, cart = tmp_path / "b.bin", tmp_path / "c.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    res = subprocess.run([sys.executable, "-m", "videopac", "play", str(cart), "--bios", str(bios)],
                         capture_output=True, text=True, env=env, timeout=120)
    err = res.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "")
    assert res.returncode == 2 and "Traceback" not in err
    assert err.startswith("videopac play: no display was found") and err.count("\n") == 1


@pytest.fixture
def display(monkeypatch):
    monkeypatch.setenv("DISPLAY", os.environ.get("DISPLAY") or ":4711")


def test_a_missing_builtin_image_is_a_broken_installation(display, monkeypatch, capsys, tmp_path):
    import cartridge.images
    from videopac import cli
    monkeypatch.setattr(cartridge.images, "ROMS", tmp_path / "roms")
    bios = tmp_path / "b.bin"
    bios.write_bytes(bytes(1024))
    assert cli.main(["play", "--bios", str(bios)]) == 1
    assert capsys.readouterr().err == (f"videopac play: cannot use {tmp_path / 'roms' / 'conquest.bin'}"
                                       ": a file of the installation is missing; install videopac "
                                       "again.\n")


def test_wrong_rom_size_is_one_sentence(display, capsys, tmp_path):
    bios, cart = tmp_path / "b.bin", tmp_path / "c.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(100))
    assert play.main(parse(str(cart), "--bios", str(bios))) == 2
    err = capsys.readouterr().err
    assert err.startswith("videopac play: ") and "100 bytes" in err and err.count("\n") == 1


def test_bad_keymap_is_one_sentence(display, capsys, tmp_path):
    bios, cart, keys = tmp_path / "b.bin", tmp_path / "c.bin", tmp_path / "k.toml"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    keys.write_text('[keyboard]\nSHIFTLOCK = "A"\n')
    assert play.main(parse(str(cart), "--bios", str(bios), "--keymap", str(keys))) == 2
    err = capsys.readouterr().err
    assert "unknown PC key name 'SHIFTLOCK'" in err and err.count("\n") == 1


@pytest.mark.xvfb
def test_event_loop_plays_and_closes(xvfb, fake):
    """The real pyglet event loop for one second: frames run, sound flows, exit is clean."""
    import pyglet
    from videopac.console import keymap
    from videopac.console.session import Session
    from videopac.console.window import PlayWindow
    session = Session(fake, keymap.load(), "conquest")
    window = PlayWindow(session, "pal", scale=1)
    pyglet.clock.schedule_once(lambda dt: window.dispatch_event("on_close"), 1.0)
    assert play.run(session, window) == 0
    # frames ran, and never ahead of real time (a busy machine may run fewer: no lower bound on
    # speed here; the pacer's timing is tested with a fake clock in test_pacing.py)
    assert 1 <= fake.frames <= 1.3 * fake.fps


@pytest.mark.xvfb
def test_window_scale_is_reduced_to_fit_the_screen(xvfb, fake):
    from videopac.console import keymap
    from videopac.console.session import Session
    session = Session(fake, keymap.load(), "conquest")
    import pyglet
    screen = pyglet.display.get_display().get_default_screen()
    window = play.open_window(session, parse("--scale", "9"), screen)
    try:    # the Xvfb screen is 1280x1024: scale 3 (1080x729) fits, scale 4 (1440 wide) does not
        assert window.get_size() == (1080, 729)
    finally:
        window.close()


def window_titles(display: str) -> list[str]:
    """Titles of the top-level windows on an X display (Xlib through pyglet's ctypes binding)."""
    import ctypes
    from pyglet.libs.x11 import xlib
    dpy = xlib.XOpenDisplay(display.encode())
    try:
        root, parent = xlib.Window(), xlib.Window()
        children, count = ctypes.POINTER(xlib.Window)(), ctypes.c_uint()
        xlib.XQueryTree(dpy, xlib.XDefaultRootWindow(dpy), ctypes.byref(root), ctypes.byref(parent),
                        ctypes.byref(children), ctypes.byref(count))
        titles = []
        for i in range(count.value):
            name = ctypes.c_char_p()
            if xlib.XFetchName(dpy, children[i], ctypes.byref(name)) and name.value:
                titles.append(name.value.decode())
        return titles
    finally:
        xlib.XCloseDisplay(dpy)


@contextlib.contextmanager
def play_process(argv: list[str], env: dict[str, str]):
    """`python -m videopac play ARGV` with stderr piped; killed at the end if still running."""
    proc = subprocess.Popen([sys.executable, "-m", "videopac", "play", *argv],
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def wait_for_window(display: str, title: str, proc, seconds: float = 90) -> None:
    """Until the window is up (a cold numba cache compiles the core first)."""
    deadline = time.monotonic() + seconds
    while title not in window_titles(display):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.1)


def stop_with_ctrl_c(proc) -> str:
    """Send SIGINT (Ctrl-C) and return what the process wrote on stderr."""
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)[1]


@pytest.mark.xvfb
def test_command_opens_the_window_and_stops_on_ctrl_c(xvfb, tmp_path):
    """`python -m videopac play CART --bios FILE` with the real machine: its window appears and
    stays (the loop runs), and Ctrl-C ends it with status 130 and no traceback."""
    bios, cart = tmp_path / "b.bin", tmp_path / "c.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    env = dict(os.environ, PYGLET_AUDIO="silent")
    with play_process([str(cart), "--bios", str(bios)], env) as proc:
        wait_for_window(xvfb, "Videopac - c", proc)
        time.sleep(1.0)
        assert proc.poll() is None and "Videopac - c" in window_titles(xvfb)
        err = stop_with_ctrl_c(proc)
    assert proc.returncode == 130 and "Traceback" not in err
    assert "Videopac - c" not in window_titles(xvfb)


def test_user_keymap_in_the_config_folder_is_read(display, capsys, tmp_path, user_dirs):
    from videopac.console import paths
    bios, cart = tmp_path / "b.bin", tmp_path / "c.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    paths.user_keymap().parent.mkdir(parents=True)
    paths.user_keymap().write_text('[controls]\nF2 = "save-all"\n')
    assert play.main(parse(str(cart), "--bios", str(bios))) == 2
    err = capsys.readouterr().err
    assert str(paths.user_keymap()) in err and "unknown control 'save-all'" in err


def test_write_keymap_gives_the_default_to_edit_once(capsys, user_dirs, monkeypatch):
    from videopac.console import keymap, paths
    monkeypatch.delenv("DISPLAY", raising=False)          # works without a display
    assert play.main(parse("--write-keymap")) == 0
    assert paths.user_keymap().read_text(encoding="utf-8") == keymap.default_text()
    assert keymap.load(paths.user_keymap()).bindings == keymap.load().bindings   # every table in it
    assert capsys.readouterr().out == f"wrote {paths.user_keymap()}\n"
    assert play.main(parse("--write-keymap")) == 2        # never over the player's own file
    assert "exists already" in capsys.readouterr().err
