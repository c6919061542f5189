"""Inputs of `videopac run` and `videopac play` from a hostile or careless user: each one ends in
one sentence on stderr and exit status 2, reads at most a bounded number of bytes, and writes
nothing."""
from __future__ import annotations

import subprocess
import sys

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from videopac import cli


@pytest.fixture
def display(monkeypatch):
    """A DISPLAY value: play reads its files before it connects to the display."""
    monkeypatch.setenv("DISPLAY", ":4711")


@pytest.fixture
def roms(tmp_path):
    bios, cart = tmp_path / "b.bin", tmp_path / "c.bin"
    bios.write_bytes(bytes(1024))
    cart.write_bytes(bytes(2048))
    return ["--bios", str(bios), str(cart)]


def one_sentence(capsys, argv: list[str]) -> str:
    """Run the command; assert status 2 and one line on stderr; return that line."""
    code = cli.main(argv)
    err = capsys.readouterr().err.replace(FIRST_COMPILE_NOTICE + "\n", "")
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("spec, words", [
    ("0=serial:X@²", "with the digits 0-9"),
    ("0=serial:X@" + "9" * 5000, "out of range"),
    ("0=gamepad:²", "the gamepad number must be"),
    ("1=gamepad:" + "1" * 5000, "the gamepad number must be"),
])
def test_joystick_spec_with_odd_digits(capsys, spec, words):
    err = one_sentence(capsys, ["play", "--joystick", spec])
    assert err.startswith("videopac play: --joystick") and words in err and len(err) < 300


def test_screenshot_scale_is_bounded(capsys, tmp_path):
    shot = tmp_path / "x.png"
    err = one_sentence(capsys, ["run", "--no-cart", "--frames", "1", "--screenshot", str(shot),
                                "--scale", "1000"])
    assert "--scale must be a whole number from 1 to 16" in err
    assert not shot.exists()


@pytest.mark.parametrize("content, words", [
    (b'[keyboard]\nA = "\xff"\n', "is not UTF-8 text"),
    (None, "the limit for keymaps"),
])
def test_keymap_that_is_no_utf8_text_or_endless(capsys, display, roms, tmp_path, content, words):
    keymap = tmp_path / "k.toml"
    if content is None:
        keymap = "/dev/zero"
    else:
        keymap.write_bytes(content)
    err = one_sentence(capsys, ["play", *roms, "--keymap", str(keymap)])
    assert err.startswith("videopac play: ") and words in err


@pytest.mark.parametrize("argv, words", [
    (["run", "/dev/zero", "--frames", "1"], "/dev/zero is larger than 12288 bytes"),
    (["run", "--bios", "/dev/zero", "--frames", "1"], "a BIOS image must be 1 KB"),
    (["run", "--frames", "1", "--state-in", "/dev/zero"], "the limit for save states"),
    (["run", "--frames", "1", "--input", "/dev/zero"], "the limit for input scripts"),
    (["run", "--frames", "1", "--input", "/dev/urandom"], "the limit for input scripts"),
])
def test_endless_files_are_refused_after_a_bounded_read(capsys, argv, words):
    assert words in one_sentence(capsys, argv)


def test_play_refuses_an_endless_rom(capsys, display):
    err = one_sentence(capsys, ["play", "/dev/zero"])
    assert "a cartridge image must be" in err


def test_input_script_that_is_no_utf8_text(capsys, tmp_path):
    script = tmp_path / "s.txt"
    script.write_bytes(b"0 press 1\n\xfe\xff\n")
    assert "is not UTF-8 text" in one_sentence(capsys, ["run", "--no-cart", "--frames", "1",
                                                         "--input", str(script)])


def test_a_two_gigabyte_rom_is_not_read_whole(tmp_path):
    """A sparse 2 GB file (no disk space): the loader refuses it having read 12 KB + 1 byte."""
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.truncate(2 << 30)
    code = ("import pathlib\n"
            "from cartridge.romfile import RomFileError, load_cart\n"
            "try:\n"
            f"    load_cart({str(big)!r})\n"
            "except RomFileError as exc:\n"
            "    print(exc)\n"
            "status = pathlib.Path('/proc/self/status').read_text()\n"   # this process's peak
            "print(status.split('VmHWM:')[1].split()[0])\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    message, peak_kib = res.stdout.splitlines()
    assert message == "big.bin is 2147483648 bytes; a cartridge image must be 2, 3, 4, 6, 8 or 12 KB"
    assert int(peak_kib) < 200_000
