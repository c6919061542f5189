"""The notation: parse and format every event, comments, quotes, joint sides, errors."""
from __future__ import annotations

import pytest

from board_ledger import events as ev
from board_ledger.errors import NotationError
from board_ledger.notation import format_event, parse_line

EVERY_FORM = [
    ('board "my board.csv" "zone,position,country,pbu|1,1,X,3"',
     ev.BoardFile("my board.csv", "zone,position,country,pbu\n1,1,X,3")),
    ("value Iran 8", ev.SetValue("Iran", 8)),
    ("zone Cuba 9", ev.SetZone("Cuba", 9)),
    ("variant target 60", ev.Variant("target", 60)),
    ("variant time 90", ev.Variant("time", 90)),
    ('players Anna "Bert B" Carla', ev.Players(("Anna", "Bert B", "Carla"))),
    ('players Anna cpu:"Bert B" cpu:hard:Carla', ev.Players(("Anna", "Bert B", "Carla"), ("", "standard", "hard"))),
    ("start Anna", ev.Start("Anna")),
    ("draw 4 7 1 reading 1283", ev.Draw((4, 7, 1), "1283")),
    ('homeland Anna "United States"', ev.Homeland("Anna", "United States")),
    ("allies Anna Canada Mexico", ev.Allies("Anna", ("Canada", "Mexico"))),
    ("allies Bert -", ev.Allies("Bert", ())),
    ("ally Anna Bangladesh", ev.Ally(("Anna",), "Bangladesh")),
    ('attack Anna+"Bert B" India', ev.Attack(("Anna", "Bert B"), "India")),
    ("battle T P Anna", ev.Battle(("T", "P"), "Anna")),
    ("battle S S draw", ev.Battle(("S", "S"), "")),
    ("battle P T Bert 1800 0", ev.Battle(("P", "T"), "Bert", (1800, 0))),
    ("war Anna 1355", ev.War("Anna", 1355)),
    ("pass Anna", ev.Pass("Anna")),
    ("pact Anna Bert", ev.Pact(("Anna", "Bert"))),
    ("break Anna Bert", ev.Break(("Anna", "Bert"))),
    ("challenge Carla Anna", ev.Challenge("Carla", "Anna")),
    ("survivor Anna 2350", ev.Survivor("Anna", 2350)),
    ("time up", ev.TimeUp()),
    ("seat Bert person", ev.Seat("Bert", "")),
    ("seat Bert cpu:easy", ev.Seat("Bert", "easy")),
    ("undo", ev.Undo()),
]


@pytest.mark.parametrize("line,event", EVERY_FORM)
def test_every_form_parses_and_formats_back(line, event):
    assert parse_line(line) == event
    assert format_event(event) == line
    assert ev.from_json(event.to_json()) == event


def test_every_event_type_has_a_notation_form():
    assert {type(e) for _, e in EVERY_FORM} == set(ev.EVENT_TYPES.values())


def test_comments_blank_lines_and_case():
    assert parse_line("   # only a comment") is None and parse_line("") is None
    assert parse_line('WAR Anna 100   # "quoted" in a comment') == ev.War("Anna", 100)
    assert parse_line('homeland Anna "a # b"') == ev.Homeland("Anna", "a # b")
    assert parse_line("battle t p draw") == ev.Battle(("T", "P"), "")
    assert parse_line("draw 4 7 1") == ev.Draw((4, 7, 1), "")


@pytest.mark.parametrize("line,reason", [
    ("conquer Anna India", "unknown verb 'conquer'"),
    ("war Anna", "'war' is written: war WINNER ENERGY"),
    ("war Anna -5", "the energy must be a whole number"),
    ("battle X P Anna", "weapons are P (plane), S (submarine) or T (tank)"),
    ('homeland Anna "United', "a double quote is not closed"),
    ("variant speed 3", "'variant' is written"),
    ("time out", "'time' is written: time up"),
    ("undo now", "'undo' is written: undo"),
    ("draw 4 7 reading x1", "the reading must be digits"),
    ("homeland Anna+Bert USA", "'homeland' is written"),
])
def test_malformed_lines_name_the_problem(line, reason):
    with pytest.raises(NotationError) as info:
        parse_line(line)
    assert str(info.value).startswith(reason)
