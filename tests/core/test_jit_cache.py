"""Where the compiled core is kept (o2em_core/jit_cache.py) and what a first start shows."""
from __future__ import annotations

import os
import pathlib
import pty
import select
import subprocess
import sys

import pytest

from o2em_core import jit_cache
from o2em_core.machine import FIRST_COMPILE_NOTICE

ROOT = pathlib.Path(__file__).resolve().parents[2]
RUN_ONE_FRAME = ("from o2em_core import Machine, jit_cache; "
                 "from cartridge.images import builtin_image; "
                 "m = Machine(builtin_image('bios'), builtin_image('conquest')); m.run_frame(); "
                 "print(jit_cache.cache_dir())")


def _child(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, env=dict(os.environ, PYTHONPATH=str(ROOT),
                                                           **env))


def test_the_cache_folder_is_named_after_the_sources(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    [folder] = jit_cache.candidates()
    assert folder == tmp_path / f"o2em_core-{jit_cache.sources_digest()[:16]}"


def test_a_read_only_install_keeps_its_cache_in_the_users_cache_folder(monkeypatch,
                                                                       tmp_path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(jit_cache, "_chosen", None)
    in_tree, user = jit_cache.candidates()
    assert in_tree.parent == jit_cache.PACKAGE / "__pycache__"
    assert user.parent == tmp_path / "numba"
    monkeypatch.setattr(jit_cache, "_writable",
                        lambda folder: not str(folder).startswith(str(jit_cache.PACKAGE)))
    assert jit_cache.cache_dir() == user


@pytest.mark.slow
def test_numba_cache_dir_is_used_and_importing_deletes_nothing(tmp_path) -> None:
    stale = tmp_path / "o2em_core-0000000000000000" / "cpu.run-1.py311.nbi"
    stale.parent.mkdir()
    stale.write_bytes(b"another version's cache")
    first = _child(RUN_ONE_FRAME, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert first.returncode == 0, first.stderr
    folder = pathlib.Path(first.stdout.split()[-1])
    assert folder.parent == tmp_path and any(folder.rglob(jit_cache.ENTRY))
    assert first.stderr == FIRST_COMPILE_NOTICE + "\n"      # not a terminal: one line
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    second = _child(RUN_ONE_FRAME, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert second.returncode == 0, second.stderr
    assert second.stderr == ""                          # warm: nothing to announce
    assert stale.exists()                               # nothing was deleted
    assert set(files) <= set(p for p in tmp_path.rglob("*") if p.is_file())


@pytest.mark.slow
def test_a_first_start_on_a_terminal_shows_a_progress_bar(tmp_path) -> None:
    pid, fd = pty.fork()
    if pid == 0:                                         # the child: stderr is the terminal
        os.chdir(ROOT)
        os.environ.update(NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
        os.execv(sys.executable, [sys.executable, "-c", RUN_ONE_FRAME])
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 900)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:                                  # the child has exited
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, out.decode(errors="replace")
    frames = out.decode().split("\r")
    bars = [f for f in frames if f.startswith(FIRST_COMPILE_NOTICE)]
    assert len(bars) > 20                               # redrawn as it goes
    assert any("vdc.run_events" in f for f in bars)     # it says what is being compiled
    assert any("raster." in f for f in bars)
    shares = [int(f.split("]")[1].split("%")[0]) for f in bars]
    assert shares == sorted(shares) and shares[0] < 10 and shares[-1] == 100


@pytest.mark.slow
def test_python_m_o2em_core_builds_the_cache_a_start_then_uses(tmp_path) -> None:
    """What ``make play`` runs during its set-up: afterwards a start compiles nothing."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    build = subprocess.run([sys.executable, "-m", "o2em_core"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stderr
    assert build.stderr == FIRST_COMPILE_NOTICE + "\n"
    assert any(tmp_path.rglob(jit_cache.ENTRY))
    again = subprocess.run([sys.executable, "-m", "o2em_core"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and again.stderr == ""
    start = _child(RUN_ONE_FRAME, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert start.returncode == 0 and start.stderr == ""      # warm: nothing to compile


DRAW_A_LINE = ("import numpy as np; from o2em_core import raster; "
               "v = np.zeros(256, np.uint8); v[0xA0] = 0x28; v[0xA3] = 0x3F; v[0xC0] = 0xFF; "
               "v[0x10:0x14] = (40, 20, 0x41, 0x0E); w = raster.new_work(); "
               "print(raster.draw_into(v, False, 40, 0, 360, False, w, 40 * 360, "
               "w[raster.SCRATCH_AT:], 0, True), w[40 * 360:41 * 360].tobytes().hex())")


@pytest.mark.slow
def test_the_compositor_called_from_python_links_its_units_also_from_the_cache(tmp_path) -> None:
    """raster.draw_into calls the unit _compose_line by symbol (linkage.py): compiled afresh
    in one process, loaded from the cache in the next (which compiles nothing), it draws the
    same line."""
    first = _child(DRAW_A_LINE, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert first.returncode == 0, first.stderr
    second = _child(DRAW_A_LINE, {"NUMBA_CACHE_DIR": str(tmp_path)})
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout and len(set(first.stdout.split()[-1])) > 2
