"""The package as a user installs it: a wheel built from this tree carries the LICENSE, the SPDX
licence and every shipped source (and no project URL: the project has no public home yet), and
the open BIOS and the battle program assemble from the installed package data alone (the include
file vars.inc was missing once), byte for byte as the shipped images."""
from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

from tools.build_roms import IMAGES

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Assembles every piece of every image with the installed asm48 command module from the
# installed sources (the source tree is not on the path) and prints what it found as JSON.
BUILD = """
import json, pathlib, subprocess, sys
import cartridge, mcs48, safefiles
from o2em_core import cpu
site = pathlib.Path(sys.argv[1])
assert pathlib.Path(cartridge.__file__).is_relative_to(site), cartridge.__file__
assert pathlib.Path(mcs48.__file__).is_relative_to(site), mcs48.__file__
assert pathlib.Path(safefiles.__file__).is_relative_to(site), safefiles.__file__
assert sorted(set(cpu.CYCLES.tolist())) == [1, 2]    # the CPU found the opcode table too
images = json.loads(sys.argv[2])
out = {}
for name, pieces in images.items():
    data = b""
    for piece, source, first, last in pieces:
        target = pathlib.Path(f"{piece}.bin")
        res = subprocess.run([sys.executable, "-m", "cartridge.asm48", str(site / source), "-o",
                              str(target), "--range", f"{first:#x}-{last:#x}"],
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        data += target.read_bytes()
    shipped = (site / "cartridge" / "roms" / f"{name}.bin").read_bytes()
    out[name] = [len(data), data == shipped]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> pathlib.Path:
    """A wheel built as from a fresh clone: only the files git tracks (a leftover egg-info in the
    working tree would otherwise list files the package data leaves out)."""
    clone = tmp_path_factory.mktemp("clone")
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    out = tmp_path_factory.mktemp("wheel")
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                          str(out), str(clone)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    (built,) = out.glob("videopac-*.whl")
    return built


@pytest.mark.slow
def test_wheel_holds_licence_and_every_source(wheel) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {str(p.relative_to(ROOT)) for p in (ROOT / "cartridge").rglob("*")
               if p.suffix in (".a48", ".inc")}
    assert shipped and shipped <= names, sorted(shipped - names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "License-Expression: MIT" in text
    assert "Project-URL" not in text      # pyproject.toml: no public home to point at yet
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


@pytest.mark.slow
def test_bios_and_battle_program_assemble_from_the_installed_package(wheel, tmp_path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    work = tmp_path / "work"
    work.mkdir()
    res = subprocess.run([sys.executable, "-c", BUILD, str(site), json.dumps(IMAGES)],
                         capture_output=True, text=True, cwd=work, timeout=600,
                         env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(res.stdout) == {"bios": [1024, True], "conquest": [8192, True]}
