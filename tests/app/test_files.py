"""Files the app writes (save states, screenshots, --dump/--state-out/--audio, exports, charts)
replace the old content only when the new content was written whole: a full disk leaves the old
file as it was, and no temporary file behind."""
from __future__ import annotations

import errno
import io
import os
import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from videopac import cli, paths


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
    """Each command names the file in one sentence, exits non-zero and leaves the old file."""
    game, db, old = tmp_path / "game.txt", tmp_path / "game.sqlite", tmp_path / "old.out"
    game.write_text("players Anna Bert\nstart Anna\n")
    assert cli.main(["ledger", "replay", str(game), "--db", str(db)]) == 0   # SQLite: own writes
    old.write_bytes(b"precious")
    capsys.readouterr()
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r": _FullDisk(fd))
    code = cli.main([a.format(old=old, db=db) for a in argv])
    err = capsys.readouterr().err.replace(FIRST_COMPILE_NOTICE + "\n", "")  # a cold numba cache
    assert code != 0
    assert err.startswith(f"videopac {argv[0]}: cannot write {old}: ")
    assert err.endswith("free some space\n") or err.endswith("free some space.\n")
    assert err.count("\n") == 1
    assert old.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sqlite", "game.txt", "old.out"]
