"""The commands as users expect them: --version everywhere, bare `videopac` prints its help,
every usage or input error is one sentence and exit status 2."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest

import cartridge
import videopac
from videopac import cli

COMMANDS = {"videopac": [sys.executable, "-m", "videopac"],
            "asm48": [sys.executable, "-m", "cartridge.asm48"],
            "dis48": [sys.executable, "-m", "cartridge.dis48"]}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_version(name):
    res = subprocess.run([*COMMANDS[name], "--version"], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0 and res.stdout == f"{name} {version('videopac')}\n"


def test_version_attribute_is_the_package_version():
    assert videopac.__version__ == cartridge.__version__ == version("videopac")


def test_bare_videopac_prints_its_help(capsys):
    assert cli.main([]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "commands:" in out and "videopac --version" in out
    assert out == (cli.main(["--help"]), capsys.readouterr().out)[1]


@pytest.mark.parametrize("argv", [
    ["run", "--frames"], ["run", "--frames", "x"], ["run", "--region", "secam", "--frames", "1"],
    ["play", "--scale", "big"], ["roms", "burn"], ["ledger", "replay"], ["ledger", "nonsense"],
    ["joystick", "--nope"], ["run", "--frames", "1", "--bogus"],
])
def test_usage_errors_are_one_line_and_status_2(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert err.count("\n") == 1 and err.startswith(f"videopac {argv[0]}") and "--help" in err


@pytest.mark.parametrize("argv, words", [
    ([*COMMANDS["videopac"], "run", "missing.bin", "--frames", "1"], "cannot read missing.bin"),
    ([*COMMANDS["asm48"], "missing.a48", "-o", "x.bin"], "cannot read missing.a48"),
    ([*COMMANDS["dis48"], "missing.bin"], "cannot read missing.bin"),
    ([*COMMANDS["dis48"], "/dev/zero"], "the limit for the 4 KB program memory"),
    ([*COMMANDS["asm48"], "/dev/zero", "-o", "x.bin"], "the limit for source files"),
])
def test_a_missing_or_impossible_input_file_is_status_2(tmp_path, argv, words):
    res = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    err = res.stderr.splitlines()
    assert res.returncode == 2 and words in err[-1] and "Traceback" not in res.stderr
    assert not (tmp_path / "x.bin").exists()


@pytest.mark.parametrize("argv", [
    ["joystick", "test", "/dev/null", "--baud", "0"],
    ["joystick", "test", "/no/such/port"],
    ["roms", "export", __file__],
])
def test_app_input_errors_are_status_2(capsys, argv):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"videopac {argv[0]}: ")
