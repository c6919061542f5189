"""`videopac roms`: one line per built-in image (NAME SIZE CRC32 PATH) and `export DIR`."""
from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

from cartridge.images import ROMS

ROOT = Path(__file__).resolve().parents[2]


def roms(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "videopac", "roms", *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=60, env=env)


def test_lists_every_shipped_image_with_size_and_crc():
    done = roms()
    assert done.returncode == 0, done.stderr
    lines = dict((line.split()[0], line.split()[1:]) for line in done.stdout.splitlines())
    assert set(lines) == {p.stem for p in ROMS.glob("*.bin")} and "bios" in lines
    data = (ROMS / "bios.bin").read_bytes()
    assert lines["bios"] == [str(len(data)), f"{zlib.crc32(data):08X}", str(ROMS / "bios.bin")]


def test_export_copies_the_images(tmp_path):
    done = roms("export", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "bios.bin").read_bytes() == (ROMS / "bios.bin").read_bytes()


def test_export_into_a_file_is_one_clear_error(tmp_path):
    target = tmp_path / "file"
    target.write_text("keep me")
    done = roms("export", str(target))
    assert done.returncode == 2 and target.read_text() == "keep me"
    assert done.stderr.startswith("videopac roms: ") and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_export_into_an_unwritable_place_is_one_clear_error():
    done = roms("export", "/proc/videopac-roms-test")   # /proc refuses new folders, even to root
    assert done.returncode == 1
    assert done.stderr.startswith("videopac roms: cannot write to /proc/videopac-roms-test")
    assert len(done.stderr.splitlines()) == 1


def test_export_without_a_folder_and_unknown_action():
    done = roms("export")
    assert done.returncode == 2 and "needs a folder" in done.stderr
    done = roms("burn")
    assert done.returncode == 2 and "Traceback" not in done.stderr
