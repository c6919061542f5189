"""Helpers for the ledger tests: play notation text, expect refusals, compare states."""
from __future__ import annotations

import dataclasses
import pathlib
from typing import Any

import pytest

from board_ledger import notation, report
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.state import State
from board_ledger.store import Store

# three players; Anna completes zone 1 at once (2000 chips), Carla chose last and begins (rule 8)
SETUP3 = """
players Anna Bert Carla
start Anna
homeland Anna "United States"
homeland Bert "West Germany"
homeland Carla USSR
allies Anna Canada Mexico
allies Bert Spain Italy Greece
allies Carla -
"""

SMALL_BOARD = """zone,position,country,pbu
1,1,Atlantis,10
1,2,Lemuria,2
2,1,Borealis,10
2,2,Cyrene,4
3,1,Dorado,3
3,2,Elysium,2
"""


def play(text: str, base: pathlib.Path | None = None, game: Game | None = None) -> Game:
    """Play every line of ``text``; any refusal fails the test with its line."""
    game = game or Game()
    for line in text.splitlines():
        event = notation.parse_line(line)
        if event is not None:
            try:
                game.play(notation.attach_board(event, base or pathlib.Path(".")))
            except LedgerError as exc:
                raise AssertionError(f"{line.strip()!r} refused: {exc}") from None
    return game


def stored(db: str, lines: tuple[str, ...] | list[str]) -> None:
    """A game file at ``db`` holding these lines of notation, as a table left it."""
    store = Store(db)
    try:
        _gid, game = store.load()
        for line in lines:
            game.play(notation.parse_line(line))
    finally:
        store.close()


def refused(game: Game, line: str) -> LedgerError:
    """Assert that ``line`` is refused and changes nothing; return the error."""
    before = snapshot(game.state), len(game.events)
    with pytest.raises(LedgerError) as info:
        game.play(notation.parse_line(line))
    assert (snapshot(game.state), len(game.events)) == before
    return info.value


def snapshot(s: State) -> dict[str, Any]:
    """Everything in a state that matters, comparable with ==."""
    out = {f.name: getattr(s, f.name) for f in dataclasses.fields(State) if f.name != "board"}
    out["board"] = s.board.countries
    out["status"] = report.status(s)
    return out


def player(game: Game, name: str) -> dict[str, Any]:
    return next(p for p in report.status(game.state)["players"] if p["name"] == name)


class Terminal:
    """The terminal ledger (`videopac --lang en ledger`) on a pty, as a person types at it."""

    def __init__(self, env: dict[str, str] | None = None, args: tuple[str, ...] = (), lang: str = "en") -> None:
        import os
        import pty
        import sys
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(pathlib.Path(__file__).resolve().parents[2])
            os.execve(sys.executable, [sys.executable, "-m", "videopac", "--lang", lang, "ledger", *args],
                      {**os.environ, **(env or {})})

    def exchange(self, keys: bytes, until: bytes) -> str:
        """Type ``keys``; what the terminal shows until ``until`` appears (or a minute passes, a
        guard against a hang, not a timed assertion)."""
        import os
        import select
        import time
        os.write(self.fd, keys)
        out, deadline = b"", time.monotonic() + 60
        while until not in out and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    out += os.read(self.fd, 65536)
                except OSError:
                    break
        return out.decode(errors="replace")

    def quit(self) -> int:
        """Leave the ledger; its exit status."""
        import os
        os.write(self.fd, b"\x15quit\n")
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)
