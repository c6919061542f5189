"""The ledger panel (beside the battle and in the ledger window) marks the computer seats, says
whose move is being thought about and why the latest general's move was made (docs/generals.md).
What is drawn is checked under Xvfb by tests/table/test_generals_x.py; here the words."""
from __future__ import annotations

from board_ledger import notation, seats
from board_ledger.game import Game
from videopac.table.panel import general_lines, player_lines


def game_of(*lines: str) -> Game:
    game = Game()
    for line in lines:
        game.play(notation.parse_line(line))
    return game


def test_the_players_list_marks_the_computer_seats():
    game = game_of("players Anna cpu:hard:Bert cpu:easy:Carla")
    lines = [text for _i, text in player_lines(game.state)]
    assert "computer" not in lines[0]
    assert lines[1].endswith("computer (hard)") and lines[2].endswith("computer (easy)")


def test_the_panel_says_who_is_thinking_and_the_latest_why():
    game = game_of("players Anna cpu:hard:Bert", "start Bert")
    table = seats.Seats(game, pause=0)
    said = [text for text, _colour in general_lines(game, table)]
    assert said == ["Bert (computer) is thinking ..."]
    table.tick()
    table.tick()
    said = [text for text, _colour in general_lines(game, table)]
    assert said[0].startswith("Bert chooses ") and "as homeland" in said[0]
    assert len(said) == 1                        # now Anna's move: nobody is thinking
    assert general_lines(game, None) == []
