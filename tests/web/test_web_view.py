"""What the phones are sent (videopac/books/view.py): the end game, effects, marks, who books."""
from __future__ import annotations

import pathlib

from board_ledger import notation
from board_ledger.game import Game
from tests.ledger.ledger_helpers import play
from videopac.books.view import letters, may_book, view

ROOT = pathlib.Path(__file__).resolve().parents[2]


def documented_short_game() -> str:
    """The short six-country game of docs/ledger.md, up to the end game's first challenge."""
    text = (ROOT / "docs" / "ledger.md").read_text(encoding="utf-8")
    block = text.split("A short game on a six-country board")[1].split("```")[1]
    return block.split("challenge Carla Anna")[0]


SMALL = documented_short_game()


def test_the_end_game_shows_the_challenge_order_and_the_energies():
    game = play(SMALL)
    v = view(game)
    assert v["phase"] == "endgame"
    assert v["endgame"]["order"] == [["Carla", 2.5], ["Anna", 3], ["Bert", 3]]
    assert v["endgame"]["expected"] == ["Carla", "Anna"]
    assert v["endgame"]["energies"] == {"Carla": 250, "Anna": 300}
    assert v["legal"]["challenge"] == ["Carla", "Anna"] and v["movers"] == ["Carla", "Anna"]
    play("challenge Carla Anna\nbattle T P Carla", game=game)
    v = view(game)
    c = v["contest"]
    assert c["kind"] == "confrontation" and c["attacker"] == "Anna"      # roles alternate (21E)
    assert c["weapons_left"]["Anna"] == ["S", "T"]                       # the plane was lost (21F)
    assert {r["player"] for r in v["legal"]["survivor"]} == {"Carla", "Anna"}


def test_the_log_carries_each_action_s_effects_as_data_and_in_both_languages():
    game = play(SMALL.split("pass Anna")[0])
    log = view(game)["log"]
    assert [entry["n"] for entry in log] == list(range(len(game.actions), 0, -1))     # newest first
    war = log[0]
    assert war["line"] == "war Carla 1250"
    assert {"kind": "paid_out", "player": "Carla", "amount": 1300} in war["effects"]
    assert "Carla" in war["text"]["en"] and "Kriegskasse" in war["text"]["de"]


def test_each_player_gets_a_distinct_mark():
    assert letters(["Anna", "Bert", "Carla"]) == {"Anna": "A", "Bert": "B", "Carla": "C"}
    assert letters(["Anna", "Arne", "Al"]) == {"Anna": "A", "Arne": "Ar", "Al": "Al"}


def test_who_may_book():
    game = Game()
    players = notation.parse_line("players Anna Bert Carla")
    assert may_book(game, "", players, False) and may_book(game, "keeper", players, False)
    assert not may_book(game, "viewer", players, False)
    play("players Anna Bert Carla\nstart Anna", game=game)
    homeland = notation.parse_line("homeland Anna Peru")
    assert may_book(game, "Anna", homeland, False) and not may_book(game, "Bert", homeland, False)
    assert may_book(game, "Bert", homeland, True) and may_book(game, "keeper", homeland, False)
    assert not may_book(game, "", homeland, False)
    undo = notation.parse_line("undo")
    assert may_book(game, "Bert", undo, False)           # every player could book the start
