"""`videopac run`, the headless runner: input scripts, the JSON dump, save states, and one-line
errors for everything a user can get wrong."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from videopac import cli, run as runner
from videopac.console.inputs import read_text

from .programs import ROOT, images


@pytest.fixture()
def roms(tmp_path):
    keys, _ = images("keys")
    banks_bios, banks_cart = images("banks")
    (tmp_path / "keys.bin").write_bytes(keys)
    (tmp_path / "banks_bios.bin").write_bytes(banks_bios)
    (tmp_path / "banks_cart.bin").write_bytes(banks_cart)
    return tmp_path


def _run(capsys, *argv: str) -> tuple[int, str]:
    """Run `videopac run` in-process; stderr without the notice a cold numba cache prints."""
    code = cli.main(["run", *map(str, argv)])
    return code, capsys.readouterr().err.replace(FIRST_COMPILE_NOTICE + "\n", "")


def test_script_and_dump(roms, capsys) -> None:
    (roms / "in.txt").write_text("# keys for the scanner\n0 press A\n0 joy 0 up+fire\n"
                                 "1 joy 1 left\n2 release a   # lower case works\n")
    code, err = _run(capsys, "--no-cart", "--bios", roms / "keys.bin", "--headless",
                     "--frames", 2, "--input", roms / "in.txt", "--dump", roms / "d.json")
    assert (code, err) == (0, "")
    d = json.loads((roms / "d.json").read_text())
    assert d["frames"] == 2 and d["region"] == "pal" and abs(d["cycles"] - 2 * 7929.3) < 2
    assert set(d["cpu"]) >= {"a", "pc", "psw", "p1", "p2", "t", "f1", "mb", "bank"}
    assert len(d["iram"]) == 128 and len(d["xram"]) == 256 and len(d["vdc"]) == 512
    xram = bytes.fromhex(d["xram"])
    assert xram[4] == 0xE4                              # row 4: A down (column 0)
    assert xram[6:8] == bytes([0xEE, 0xF7])             # joystick 0 up+fire, 1 left


def test_a_script_saved_by_notepad_is_read(roms) -> None:
    """A UTF-8 byte order mark and CRLF line ends, as Windows editors write them."""
    (roms / "in.txt").write_bytes(b"\xef\xbb\xbf0 press A\r\n1 joy 0 up\r\n")
    events = runner.parse_script(read_text(str(roms / "in.txt")), "in.txt")
    assert [(e.frame, e.action) for e in events] == [(0, "press"), (1, "joy")]
    assert events[0].key == "A" and events[1].directions == {"up"}


def test_state_out_then_in_continues_exactly(roms, capsys) -> None:
    base = ["--bios", roms / "banks_bios.bin", roms / "banks_cart.bin", "--region", "ntsc"]
    assert _run(capsys, *base, "--frames", 4, "--dump", roms / "whole.json")[0] == 0
    assert _run(capsys, *base, "--frames", 1, "--state-out", roms / "s.bin")[0] == 0
    assert _run(capsys, *base, "--frames", 3, "--state-in", roms / "s.bin",
                "--dump", roms / "split.json")[0] == 0
    assert (roms / "whole.json").read_text() == (roms / "split.json").read_text()


@pytest.mark.parametrize("script, message", [
    ("x press A", "line 1: 'x' is not a frame number"),
    ("0 press F1", "line 1: unknown key 'F1'; keys are 0-9, A-Z, SPACE, ENTER, CLEAR, "
                   "?, ., +, -, *, /, =, YES, NO"),
    ("\n\n0 joy 2 up", "line 3: expected 'FRAME press KEY', 'FRAME release KEY', "
                       "'FRAME joy 0|1 DIRECTIONS', 'FRAME reset' or 'FRAME end', not '0 joy 2 up'"),
    ("0 joy 0 up+jump", "line 1: unknown joystick direction 'jump'; use up, down, left, "
                        "right, fire joined by '+', or none"),
    ("-1 press A", "line 1: the frame number must not be negative"),
])
def test_bad_script_lines(roms, capsys, script, message) -> None:
    (roms / "in.txt").write_text(script)
    code, err = _run(capsys, "--no-cart", "--bios", roms / "keys.bin", "--frames", 1,
                     "--input", roms / "in.txt")
    assert (code, err) == (2, f"videopac run: {roms / 'in.txt'} {message}\n")


def test_bad_files(roms, capsys) -> None:
    (roms / "odd.bin").write_bytes(bytes(3000))
    cases = [
        (("odd.bin", "--bios", "keys.bin"), "odd.bin is 3000 bytes; a cartridge image must be "
                                            "2, 3, 4, 6, 8 or 12 KB"),
        (("--no-cart", "--bios", "odd.bin"), "odd.bin is 3000 bytes; a BIOS image must be 1 KB "
                                             "(1024 bytes)"),
        (("--no-cart", "--bios", "missing.bin"),
         f"cannot read {roms / 'missing.bin'}: No such file or directory"),
        (("keys.bin", "--no-cart", "--bios", "keys.bin"), "give either CART.bin or --no-cart, "
                                                          "not both"),
        (("--no-cart", "--bios", "keys.bin", "--state-in", "odd.bin"),
         f"{roms / 'odd.bin'}: this is not a Videopac save state; give a state written by "
         "--state-out with the same BIOS, cartridge and region"),
    ]
    for args, message in cases:
        argv = [str(roms / a) if a.endswith(".bin") else a for a in args]
        assert _run(capsys, *argv, "--frames", 1) == (2, f"videopac run: {message}\n"), args


def test_frames_come_from_the_option_or_the_scripts_end_line(capsys, tmp_path) -> None:
    assert _run(capsys, "--no-cart") == (2, "videopac run: say how long to run: --frames N, or an "
                                            "--input script with an 'end' line\n")
    script = tmp_path / "rec.txt"
    script.write_text("0 press A\n3 release A\n7 end\n")
    assert _run(capsys, "--no-cart", "--input", str(script)) == (0, "")


@pytest.mark.parametrize("argv, message", [
    (["--frames", "x"], "argument --frames: invalid int value: 'x'"),
    (["--frames", "1", "--region", "secam"],
     "argument --region: invalid choice: 'secam' (choose from 'pal', 'ntsc')"),
])
def test_bad_arguments(capsys, argv, message) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["run", *argv])
    assert stop.value.code == 2
    assert capsys.readouterr().err == f"videopac run: {message}; see 'videopac run --help'\n"


def test_a_missing_builtin_image_is_a_broken_installation(monkeypatch, capsys, roms,
                                                          tmp_path) -> None:
    import cartridge.images
    shipped = tmp_path / "shipped"
    monkeypatch.setattr(cartridge.images, "ROMS", shipped)
    broken = ": a file of the installation is missing; install videopac again.\n"
    code, err = _run(capsys, "--no-cart", "--frames", 1)
    assert (code, err) == (1, f"videopac run: cannot use {shipped / 'bios.bin'}{broken}")
    code, err = _run(capsys, "--bios", roms / "keys.bin", "--frames", 1)
    assert (code, err) == (1, f"videopac run: cannot use {shipped / 'conquest.bin'}{broken}")


def test_a_missing_builtin_symbol_table_names_its_file(monkeypatch, tmp_path) -> None:
    import cartridge.images
    (tmp_path / "conquest.bin").write_bytes(cartridge.images.builtin_image("conquest"))
    monkeypatch.setattr(cartridge.images, "ROMS", tmp_path)
    assert len(cartridge.images.builtin_image("conquest")) == 8192
    with pytest.raises(FileNotFoundError) as missing:
        cartridge.images.builtin_symbols("conquest")
    assert missing.value.filename == str(tmp_path / "conquest.json")


def test_command_line_entry(roms) -> None:
    out = subprocess.run([sys.executable, "-m", "videopac", "run", "--no-cart", "--bios",
                          str(roms / "keys.bin"), "--frames", "1", "--dump",
                          str(roms / "d.json")], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads((roms / "d.json").read_text())["frames"] == 1
    assert runner.PROG == "videopac run"
