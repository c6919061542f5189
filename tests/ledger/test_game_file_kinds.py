"""A game file (`--db`) that is a device, a FIFO or a socket is called what it is, for every way
the ledger opens one (issue 26 item 13): /dev/zero was "an input/output error of the disk" or
"empty (0 bytes)", and a FIFO waited for a writer."""
from __future__ import annotations

import os
import socket

import pytest

from test_bad_input import ledger, one_sentence


def _special(tmp_path, kind: str) -> str:
    if kind == "fifo":
        os.mkfifo(tmp_path / "g.sqlite")
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(tmp_path / "g.sqlite"))
        return str(tmp_path / "g.sqlite")
    else:
        return kind
    return str(tmp_path / "g.sqlite")


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/null", "fifo", "socket"])
@pytest.mark.parametrize("args", [["status"], ["export"], [], ["replay", "g.txt"]],
                         ids=["status", "export", "repl", "replay"])
def test_a_game_file_that_is_no_regular_file_is_one_sentence(tmp_path, kind, args):
    (tmp_path / "g.txt").write_text("players Anna Bert\nstart Anna\n")
    path = _special(tmp_path, kind)
    argv = args[:1] + ["--db", path] + args[1:]
    one_sentence(ledger(*argv, stdin=b"", cwd=tmp_path), 2,
                 f"{path} is not a regular file (a device, a FIFO or a socket); give a game file")
