"""The project skeleton: the command dispatches and the shipped data copies stay in sync."""
import subprocess
import sys

from videopac import cli


def test_unknown_command_is_one_line_and_nonzero(capsys):
    assert cli.main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown command 'frobnicate'" in err


def test_help_lists_every_subcommand(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in cli.SUBCOMMANDS:
        assert name in out


def test_module_entry_point_runs():
    res = subprocess.run([sys.executable, "-m", "videopac", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "commands:" in res.stdout


def test_opcode_table_copies_are_identical(root):
    a = (root / "o2em_core/data/mcs48_opcodes.tsv").read_bytes()
    b = (root / "cartridge/data/mcs48_opcodes.tsv").read_bytes()
    assert a == b and a.count(b"\n") > 256
