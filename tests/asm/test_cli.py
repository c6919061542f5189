"""The asm48 and dis48 commands: exit codes, outputs, no output file on error."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cartridge.asm48 import cli as asm_cli
from cartridge import dis48

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "\tcpu 8048\n\torg 400h\nstart:\tmov a,#12h\nloop:\tjnz loop\n\tjmp start\n"


def run(module: str, *args: str, cwd) -> subprocess.CompletedProcess:
    """Run `python -m module` from another directory, importing this checkout's code."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env=env)


@pytest.fixture
def src(tmp_path):
    path = tmp_path / "prog.a48"
    path.write_text(SOURCE)
    return path


def test_assemble_via_python_m(src, tmp_path):
    r = run("cartridge.asm48", "prog.a48", "-o", "prog.bin", cwd=tmp_path)
    assert (r.returncode, r.stderr) == (0, "")
    assert (tmp_path / "prog.bin").read_bytes() == bytes([0x23, 0x12, 0x96, 0x02, 0x84, 0x00])


def test_range_fill_sym_and_list(src, tmp_path, capsys):
    rc = asm_cli.main([str(src), "-o", str(tmp_path / "r.bin"), "--range", "0x3fe-0x407",
                       "--fill", "0", "--sym", str(tmp_path / "r.json"),
                       "--list", str(tmp_path / "r.lst")])
    assert rc == 0
    assert (tmp_path / "r.bin").read_bytes() == bytes([0, 0, 0x23, 0x12, 0x96, 0x02, 0x84,
                                                       0x00, 0, 0])
    assert json.loads((tmp_path / "r.json").read_text()) == {"start": 0x400, "loop": 0x402}
    listing = (tmp_path / "r.lst").read_text()
    assert "0402  96 02" in listing and "loop:\tjnz loop" in listing


def test_default_fill_is_ff(tmp_path):
    (tmp_path / "g.a48").write_text("\torg 10h\n\tnop\n\torg 13h\n\tnop\n")
    assert asm_cli.main([str(tmp_path / "g.a48"), "-o", str(tmp_path / "g.bin")]) == 0
    assert (tmp_path / "g.bin").read_bytes() == bytes([0, 0xFF, 0xFF, 0])
    assert asm_cli.main([str(tmp_path / "g.a48"), "-o", str(tmp_path / "h.bin"),
                         "--range", "$10-$11"]) == 0
    assert (tmp_path / "h.bin").read_bytes() == bytes([0, 0xFF])


def test_fill_byte_goes_into_gaps_and_around_the_code_with_a_range(tmp_path):
    (tmp_path / "g.a48").write_text("\torg 10h\n\tnop\n\torg 13h\n\tnop\n")
    assert asm_cli.main([str(tmp_path / "g.a48"), "-o", str(tmp_path / "g.bin"),
                         "--range", "0fh-14h", "--fill", "0x55"]) == 0
    assert (tmp_path / "g.bin").read_bytes() == bytes([0x55, 0, 0x55, 0x55, 0, 0x55])


def test_include_dir_option(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.h").write_text("value equ 42\n")
    (tmp_path / "m.a48").write_text('\tinclude "defs.h"\n\tdb value\n')
    r = run("cartridge.asm48", "m.a48", "-o", "m.bin", "-I", "inc", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "m.bin").read_bytes() == bytes([42])


def test_errors_exit_1_and_leave_no_output(tmp_path):
    (tmp_path / "bad.a48").write_text("\tnop\n\tmov a,#999\n\tbogus\n")
    (tmp_path / "bad.bin").write_bytes(b"old")          # an old output is not overwritten
    r = run("cartridge.asm48", "bad.a48", "-o", "bad.bin", "--sym", "bad.json",
            "--list", "bad.lst", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "bad.a48:2:8: error: immediate value 999 out of range -128..255",
        "bad.a48:3:2: error: unknown instruction or directive 'bogus'",
    ]
    assert "Traceback" not in r.stderr
    assert (tmp_path / "bad.bin").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.a48", "bad.bin"]


@pytest.mark.parametrize("args, fragment", [
    (["missing.a48", "-o", "x.bin"], "asm48: cannot read missing.a48"),
    (["/dev/zero", "-o", "x.bin"], "asm48: /dev/zero is larger than 16777216 bytes, the limit for source files"),
    (["prog.a48"], "asm48: the following arguments are required: -o/--output"),
    (["prog.a48", "-o", "x.bin", "--range", "400-"], "asm48: argument --range"),
    (["prog.a48", "-o", "x.bin", "--fill", "300"], "fill byte '300' must be 0..255"),
    (["prog.a48", "-o", "nodir/x.bin"], "asm48: cannot write"),
])
def test_bad_invocations_print_one_line(src, tmp_path, args, fragment):
    r = run("cartridge.asm48", *args, cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], r.stderr
    assert not (tmp_path / "x.bin").exists()


def test_dis48_with_org_and_symbols(src, tmp_path):
    assert asm_cli.main([str(src), "-o", str(tmp_path / "p.bin"),
                         "--sym", str(tmp_path / "p.json")]) == 0
    r = run("cartridge.dis48", "p.bin", "--org", "0x400", "--sym", "p.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "loop:" in lines and any(l.startswith("\tjnz   loop") and "; 402  96 02" in l
                                    for l in lines)
    assert any(l.startswith("\tjmp   start") for l in lines)
    (tmp_path / "again.a48").write_text(r.stdout)
    assert asm_cli.main([str(tmp_path / "again.a48"), "-o", str(tmp_path / "again.bin")]) == 0
    assert (tmp_path / "again.bin").read_bytes() == (tmp_path / "p.bin").read_bytes()


def test_dis48_without_symbols_prints_numbers(tmp_path, capsys):
    (tmp_path / "r.bin").write_bytes(bytes([0x96, 0x00, 0x14, 0x55]))
    assert dis48.main([str(tmp_path / "r.bin")]) == 0
    out = capsys.readouterr().out
    assert "jnz   000h" in out and "call  055h" in out


@pytest.mark.parametrize("args, fragment", [
    (["nothere.bin"], "dis48: cannot read nothere.bin"),
    (["r.bin", "--org", "zz"], "dis48: argument --org: invalid address 'zz'"),
    (["r.bin", "--org", "0xfff"], "do not fit the 4 KB program memory"),
    (["r.bin", "--sym", "bad.json"], "dis48: bad.json is not a symbol file"),
    (["r.bin", "--sym", "none.json"], "dis48: cannot read none.json: No such file or directory"),
    (["r.bin", "--sym", "/dev/zero"], "dis48: /dev/zero is not a symbol file: /dev/zero is larger than"),
    (["/dev/zero"], "dis48: /dev/zero is larger than 4096 bytes, the limit for the 4 KB program memory"),
])
def test_dis48_bad_input(tmp_path, args, fragment):
    (tmp_path / "r.bin").write_bytes(bytes([0, 0]))
    (tmp_path / "bad.json").write_text("[1, 2")
    r = run("cartridge.dis48", *args, cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], r.stderr


def test_strict_by_default_and_relaxed_warns(tmp_path):
    """A form asl refuses fails with asl's reason and no output; --relaxed writes the image
    and prints one warning naming the asl form."""
    (tmp_path / "x.a48").write_text("\tcpu 8048\n\tmov a,#$12\n")
    r = run("cartridge.asm48", "x.a48", "-o", "x.bin", cwd=tmp_path)
    assert r.returncode == 1 and not (tmp_path / "x.bin").exists()
    assert r.stderr.startswith("x.a48:2:9: error: '$' hex number is not asl syntax")
    assert '(asl: "invalid symbol name"); write 0FFh' in r.stderr
    r = run("cartridge.asm48", "x.a48", "-o", "x.bin", "--relaxed", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "x.bin").read_bytes() == bytes([0x23, 0x12])
    assert r.stderr.count("\n") == 1 and "x.a48:2:9: warning: '$' hex number" in r.stderr
    assert "accepted by --relaxed" in r.stderr
