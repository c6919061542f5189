"""Files the app writes (save states, screenshots, --dump/--state-out/--audio, exports, charts)
replace the old content only when the new content was written whole: a full disk leaves the old
file as it was, and no temporary file behind."""
from __future__ import annotations

import errno
import io
import os
import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from videopac import cli
from videopac.console import paths


class _FullDisk(io.RawIOBase):
    """A file on a disk that fills up after a few bytes."""

    def __init__(self, fd: int) -> None:
        os.close(fd)

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def full_disk(monkeypatch):
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r": _FullDisk(fd))


def test_a_full_disk_keeps_the_old_file(tmp_path, full_disk):
    target = tmp_path / "slot0.state"
    target.write_bytes(b"the old state")
    with pytest.raises(OSError) as info:
        paths.write_atomically(target, b"a new state" * 1000)
    assert info.value.errno == errno.ENOSPC
    assert target.read_bytes() == b"the old state"
    assert [p.name for p in tmp_path.iterdir()] == ["slot0.state"]


def test_the_new_content_replaces_the_old(tmp_path):
    target = tmp_path / "deeper" / "slot0.state"
    paths.write_atomically(target, b"first")
    paths.write_atomically(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in target.parent.iterdir()] == ["slot0.state"]


@pytest.mark.parametrize("argv", [
    ["run", "--headless", "--no-cart", "--frames", "1", "--state-out", "{old}"],
    ["run", "--headless", "--no-cart", "--frames", "1", "--dump", "{old}"],
    ["ledger", "export", "--db", "{db}", "-o", "{old}"],
    ["ledger", "chart", "--db", "{db}", "-o", "{old}"],
], ids=["state-out", "dump", "ledger-export", "ledger-chart"])
def test_commands_keep_an_old_file_on_a_full_disk(tmp_path, capsys, argv, monkeypatch):
    """Each command names the file in one sentence, exits with 1 (disk trouble, not the user's
    input) and leaves the old file."""
    game, db, old = tmp_path / "game.txt", tmp_path / "game.sqlite", tmp_path / "old.out"
    game.write_text("players Anna Bert\nstart Anna\n")
    assert cli.main(["ledger", "replay", str(game), "--db", str(db)]) == 0   # SQLite: own writes
    old.write_bytes(b"precious")
    capsys.readouterr()
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r": _FullDisk(fd))
    code = cli.main([a.format(old=old, db=db) for a in argv])
    err = capsys.readouterr().err.replace(FIRST_COMPILE_NOTICE + "\n", "")  # a cold numba cache
    assert code == 1
    assert err.startswith(f"videopac {argv[0]}: cannot write {old}: ")
    assert err.endswith("free some space\n") or err.endswith("free some space.\n")
    assert err.count("\n") == 1
    assert old.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sqlite", "game.txt", "old.out"]


def test_a_symlinked_target_stays_a_link_and_its_file_gets_the_content(tmp_path):
    real = tmp_path / "real" / "out.json"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    paths.write_atomically(link, b"new", parents=False)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new" and link.read_bytes() == b"new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["out.json"]


def test_a_device_is_written_to_not_replaced():
    before = os.stat("/dev/null")
    paths.write_atomically("/dev/null", b"into the void", parents=False)
    after = os.stat("/dev/null")
    assert (after.st_ino, after.st_mode, after.st_rdev) == (before.st_ino, before.st_mode,
                                                            before.st_rdev)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_of_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        paths.write_atomically(tmp_path / "new.png", b"png")
    finally:
        os.umask(old)
    assert (tmp_path / "new.png").stat().st_mode & 0o777 == mode


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "shared.json"
    target.write_bytes(b"old")
    target.chmod(0o640)
    paths.write_atomically(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640 and target.read_bytes() == b"new"


@pytest.mark.parametrize("target", ["-", "/dev/stdout"])
def test_dump_to_standard_output(tmp_path, target):
    """`--dump -` and `--dump /dev/stdout` print the JSON; neither makes a file named '-' nor
    replaces /dev/stdout (the command runs as root here)."""
    import json
    import subprocess
    import sys
    link = os.readlink("/dev/stdout")
    res = subprocess.run([sys.executable, "-m", "videopac", "run", "--no-cart", "--frames", "1",
                          "--dump", target], capture_output=True, text=True, cwd=tmp_path,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["frames"] == 1
    assert list(tmp_path.iterdir()) == []
    assert os.path.islink("/dev/stdout") and os.readlink("/dev/stdout") == link
