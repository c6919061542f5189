"""The computer seats at the table (board_ledger/seats.py): a general's move waits for the pause,
is booked once however many processes drive the game file, and is said the same everywhere."""
from __future__ import annotations

from board_ledger import notation, seats
from board_ledger.game import Game
from board_ledger.store import Store

from test_general import dice


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_move_shows_after_the_pause_only():
    game = Game()
    game.play(notation.parse_line("players Anna cpu:hard:Bert cpu:easy:Carla"))
    game.play(notation.parse_line("start Bert"))
    clock = Clock()
    table = seats.Seats(game, clock=clock)
    assert table.thinking() == "Bert"
    assert table.tick() == []                      # the game just changed: the pause starts
    clock.now = 1.0
    assert table.tick() == []
    clock.now = 1.6
    booked = table.tick()
    assert [e.verb for e in booked] == ["homeland"]
    assert table.thinking() == "Carla"             # then Carla, whose seat is a computer too
    who, why = seats.latest_why(game)
    assert who == "Bert" and why.say().startswith("Bert chooses")
    clock.now = 2.0
    assert table.tick() == []                      # Carla's pause counts from Bert's move
    clock.now = 3.2
    assert [e.verb for e in table.tick()] == ["homeland"]
    assert table.thinking() is None                # Anna is a person: nobody books for her


def test_people_and_several_processes_book_each_change_once(tmp_path):
    path = str(tmp_path / "g.sqlite")
    first, second = Store(path), Store(path)
    gid, game1 = first.load()
    game1.play(notation.parse_line("players cpu:hard:Anna cpu:easy:Bert cpu:Carla"))
    _gid, game2 = second.load()
    clock = Clock()
    tables = [seats.Seats(game1, first, gid, clock=clock, fight=dice),
              seats.Seats(game2, second, gid, clock=clock, fight=dice)]
    for step in range(400):
        clock.now += 2.0
        for table in tables:
            table.tick()
            table.tick()
        second.refresh(gid)
        first.refresh(gid)
        if game1.state.phase == "over":
            break
    assert game1.state.phase == "over" and game1.state.winner
    texts = [notation.format_event(e) for e in Store(path).load()[1].events]
    # each change once: a second process that decided on the same state was refused (MovedOn)
    assert len(texts) == len(game1.events) == len(game2.events)
    assert texts[1].startswith("draw ")
    assert all(not t.trouble for t in tables)


def test_a_failing_battle_never_escapes():
    game = Game()
    for line in ("players cpu:Anna cpu:Bert", "start Anna", "homeland Anna Canada",
                 "homeland Bert Mexico", "allies Anna -", "allies Bert -", "attack Bert India"):
        game.play(notation.parse_line(line))

    def broken(*args):
        raise RuntimeError("the console caught fire")

    clock = Clock()
    table = seats.Seats(game, clock=clock, fight=broken)
    table.tick()
    clock.now = 5
    assert table.tick() == []
    assert "caught fire" in table.trouble
    assert len(game.events) == 7


def test_a_person_takes_over_a_computer_seat_and_gives_it_back():
    game = Game()
    for line in ("players Anna cpu:hard:Bert", "start Bert"):
        game.play(notation.parse_line(line))
    clock = Clock()
    table = seats.Seats(game, clock=clock)
    assert table.thinking() == "Bert"
    game.play(notation.parse_line("seat Bert person"))          # between moves: Bert's person
    assert table.thinking() is None and game.state.player("Bert").general == ""
    clock.now = 10
    table.tick()
    clock.now = 20
    assert table.tick() == []                                   # nobody books for a person
    game.play(notation.parse_line("homeland Bert Canada"))
    game.play(notation.parse_line("platz Bert cpu:easy"))      # given back, at another level
    assert game.state.player("Bert").general == "easy"
    game.play(notation.parse_line("homeland Anna Mexico"))
    assert table.thinking() == "Bert"                           # the free alliances: Bert's first
    assert notation.format_event(game.events[-2]) == "seat Bert cpu:easy"
    again = Game([notation.parse_line(notation.format_event(e)) for e in game.events])
    assert [p.general for p in again.state.players] == ["", "easy"]


def test_a_war_with_a_person_says_what_to_type_for_the_general():
    game = Game()
    for line in ("players Anna cpu:hard:Bert", "start Anna", "homeland Anna Canada",
                 "homeland Bert Mexico", "allies Anna -", "allies Bert -", "attack Bert India",
                 "battle T P Bert 2400 2300"):
        game.play(notation.parse_line(line))
    said = seats.entry(game.state, len(game.events)).say()
    assert said.startswith("Bert (computer) takes the ") and said.endswith(
        " and 2400 for its side at program entry."), said
    game.play(notation.parse_line("seat Anna cpu"))   # two generals: nobody types for them
    assert seats.entry(game.state, len(game.events)) is None
