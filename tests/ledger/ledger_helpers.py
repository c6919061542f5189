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
