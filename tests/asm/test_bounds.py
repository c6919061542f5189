"""asm48 and dis48 take only what they can do in bounded time and without losing a file
(issue 26): command-line addresses in ASCII digits, an image range of at most 64 KB, an output
that cannot be written found before any file is replaced, and an include or binary file that
is there but is not a regular file called what it is."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.asm.test_cli import ROOT, run

SOURCE = "\tcpu 8048\n\torg 0\n\tnop\n\tmov a,#12h\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "p.a48").write_text(SOURCE)
    (tmp_path / "r.bin").write_bytes(bytes(4))
    return tmp_path


@pytest.mark.parametrize("args, text", [
    (["cartridge.asm48", "p.a48", "-o", "x.bin", "--range", "0-\u0663"], "\u0663"),  # Arabic 3
    (["cartridge.asm48", "p.a48", "-o", "x.bin", "--range", "\uff11-4"], "\uff11"),  # fullwidth 1
    (["cartridge.asm48", "p.a48", "-o", "x.bin", "--range", "0-1_0"], "1_0"),
    (["cartridge.asm48", "p.a48", "-o", "x.bin", "--range", "0x_1-0x10"], "0x_1"),
    (["cartridge.asm48", "p.a48", "-o", "x.bin", "--fill", "\u0665"], "\u0665"),
    (["cartridge.dis48", "r.bin", "--org", "\u0663"], "\u0663"),
    (["cartridge.dis48", "r.bin", "--org", "1_0"], "1_0"),
    (["cartridge.dis48", "r.bin", "--org", "-1"], "-1"),
])
def test_an_address_in_other_than_ascii_digits_is_refused(folder, args, text):
    r = run(*args, cwd=folder)
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert f"invalid address '{text}'" in line
    assert not (folder / "x.bin").exists()


@pytest.mark.parametrize("spec, image", [("$0-$3", bytes([0, 0x23, 0x12, 0xFF])),
                                         ("0h-1h", bytes([0, 0x23])),
                                         ("0x0-0b11", bytes([0, 0x23, 0x12, 0xFF])),
                                         ("0-65535", bytes([0, 0x23, 0x12]) + b"\xff" * 65533)])
def test_ascii_addresses_in_every_form_still_work(folder, spec, image):
    r = run("cartridge.asm48", "p.a48", "-o", "x.bin", "--range", spec, cwd=folder)
    assert (r.returncode, r.stderr) == (0, "")
    assert (folder / "x.bin").read_bytes() == image


def test_a_range_beyond_64_kb_is_refused_at_once(folder):
    """`--range 0-0xFFFFFFFFFF` asked for a terabyte of fill bytes, built one by one."""
    r = run("cartridge.asm48", "p.a48", "-o", "x.bin", "--range", "0-0xFFFFFFFFFF", cwd=folder)
    assert r.returncode == 2
    assert r.stderr == ("asm48: argument --range: range '0-0xFFFFFFFFFF' ends beyond FFFFh, the "
                        "largest address space (see asm48 --help)\n")
    assert not (folder / "x.bin").exists()


@pytest.mark.parametrize("option", ["--sym", "--list", "--share"])
def test_an_output_that_is_a_folder_replaces_no_other_output(folder, option):
    """The image could be written, the symbol file cannot (a folder is in its place): the old
    image stays as it was and the folder is named."""
    (folder / "p.bin").write_bytes(b"old")
    (folder / "out").mkdir()
    r = run("cartridge.asm48", "p.a48", "-o", "p.bin", option, "out", cwd=folder)
    assert r.returncode == 1
    assert r.stderr == ("asm48: cannot write out: Is a directory; choose another file or free "
                        "some space\n")
    assert (folder / "p.bin").read_bytes() == b"old"
    assert sorted(p.name for p in folder.iterdir()) == ["out", "p.a48", "p.bin", "r.bin"]


@pytest.mark.parametrize("kind", ["folder", "fifo", "/dev/zero"])
@pytest.mark.parametrize("directive, described", [("include", "include file"),
                                                  ("binclude", "binary file")])
def test_an_include_that_is_not_a_regular_file_is_called_so(folder, kind, directive, described):
    """A folder, a FIFO (which would wait for a writer) or a device is there, but cannot be
    included: the error says so instead of "not found"."""
    name = kind
    if kind == "folder":
        (folder / name).mkdir()
    elif kind == "fifo":
        os.mkfifo(folder / name)
    (folder / "main.a48").write_text(f'\torg 0\n\t{directive} "{name}"\n')
    r = run("cartridge.asm48", "main.a48", "-o", "main.bin", cwd=folder)
    assert r.returncode == 1
    assert r.stderr == (f"main.a48:2:{len(directive) + 3}: error: {described} '{name}' is not a "
                        "regular file\n")
    assert not (folder / "main.bin").exists()


def test_a_regular_file_in_the_include_path_wins_over_a_folder_of_its_name(folder):
    (folder / "defs.inc").mkdir()
    (folder / "inc").mkdir()
    (folder / "inc" / "defs.inc").write_text("\tdb 42\n")
    (folder / "main.a48").write_text('\torg 0\n\tinclude "defs.inc"\n')
    r = run("cartridge.asm48", "main.a48", "-o", "main.bin", "-I", "inc", cwd=folder)
    assert (r.returncode, r.stderr) == (0, "")
    assert (folder / "main.bin").read_bytes() == bytes([42])


def _tool(module: str, *args: str, cwd: Path, stdout: str, **env: str) -> tuple[int, str]:
    """(exit code, standard error) of ``python -m module args`` whose standard output is the
    file ``stdout``, or closed before the tool starts (``"closed"``, as `>&-` does)."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT), **env)
    if stdout == "closed":
        command = [sys.executable, "-c", "import os, runpy, sys; os.close(1); sys.argv[1:] = "
                   f"{list(args)!r}; runpy.run_module({module!r}, run_name='__main__')"]
        r = subprocess.run(command, cwd=cwd, stderr=subprocess.PIPE, text=True, timeout=60,
                           env=environ)
    else:
        with open(str(stdout), "wb") as out:
            r = subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, stdout=out,
                               stderr=subprocess.PIPE, text=True, timeout=60, env=environ)
    return r.returncode, r.stderr


@pytest.mark.parametrize("stdout, reason", [("closed", "Bad file descriptor"),
                                            ("/dev/full", "No space left on device")])
def test_dis48_says_when_its_standard_output_cannot_be_written(folder, stdout, reason):
    assert _tool("cartridge.dis48", "r.bin", cwd=folder, stdout=stdout) == (
        1, f"dis48: cannot write the standard output: {reason}\n")


def test_dis48_says_so_in_german(folder):
    assert _tool("cartridge.dis48", "r.bin", cwd=folder, stdout="closed", LANGUAGE="de") == (
        1, "dis48: die Standardausgabe kann nicht geschrieben werden: Ungültiger "
           "Dateideskriptor\n")


@pytest.mark.parametrize("stdout, reason", [("closed", "Bad file descriptor"),
                                            ("/dev/full", "No space left on device")])
def test_an_image_to_a_standard_output_that_cannot_take_it_is_one_sentence(folder, stdout,
                                                                           reason):
    assert _tool("cartridge.asm48", "p.a48", "-o", "-", cwd=folder, stdout=stdout) == (
        1, f"asm48: cannot write -: {reason}; choose another file or free some space\n")


def test_dis48_into_a_pipe_nobody_reads_ends_quietly(folder):
    """`dis48 rom.bin | head -1`: the reader leaves; no traceback, not even Python's own at
    exit."""
    (folder / "big.bin").write_bytes(bytes(4096))
    child = subprocess.Popen([sys.executable, "-m", "cartridge.dis48", "big.bin"], cwd=folder,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    assert child.wait(timeout=60) == 1
    assert child.stderr.read() == b""
