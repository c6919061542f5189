"""The battle bridge on a fake cartridge: battles followed frame by frame, the ledger lines it
proposes, and the ledger after the players confirm (rules 12, 13, 14, 21)."""
import pathlib

import pytest

from board_ledger import report
from tests.ledger.ledger_helpers import SETUP3 as SETUP  # Carla chose last: she begins
from tests.table.fake_conquest import RESULT, FakeConquest, symbol_table
from tests.table.table_driver import Table, game_of
from videopac.table.bridge import read


@pytest.fixture
def table():
    fake = FakeConquest()
    t = Table(fake, symbol_table(), game_of(SETUP + "attack Carla India\n"))
    t.tap("SPACE")                       # SELECT GAME -> program entry
    return t


def players(game):
    return {p["name"]: p for p in report.status(game.state)["players"]}


def test_war_of_three_battles_with_a_draw_decided_by_energy(table):
    bridge, fake = table.bridge, table.machine
    assert bridge.contest.kind == "war" and bridge.contest.target == "India"
    assert bridge.colour == {"Carla": "red", "Anna": "blue"}   # the attacker keys first: red
    assert bridge.keys() == ["Carla (red): R P/S/T 2500", "Anna (blue): B P/S/T 2500", "ENTER"]
    fake.script("red", 40, {"red": 2100, "blue": 1800})          # Carla's tank beats Anna's plane
    table.program({"Carla": "T", "Anna": "P"}, {"Carla": 2500, "Anna": 2500})
    assert read(fake, table.symbols).phase == "battle"
    table.frames(45)
    assert [s.line for s in bridge.seen] == ["battle T P Carla 2100 1800"]
    assert bridge.proposal == []                                 # 1-0: nothing to book yet
    assert bridge.contest.banned == {"Carla": set(), "Anna": {"P"}}
    assert bridge.keys()[0].startswith("SPACE") and bridge.keys()[2] == "Anna (blue): B S/T"
    table.tap("SPACE")
    fake.script("blue", 40, {"red": 1500, "blue": 1300})         # Anna's tank beats Carla's sub
    table.program({"Carla": "S", "Anna": "T"})
    table.frames(45)
    assert bridge.proposal == []                                 # 1-1
    table.tap("SPACE")
    fake.script("both", 40, {"red": 900, "blue": 1150})          # plane and sub: both destroyed
    table.program({"Carla": "P", "Anna": "S"})
    table.frames(45)
    # rule 12C: 1-1 and a mutual destruction: the more energy left wins the war (Anna, 1150)
    assert bridge.proposal == ["battle T P Carla", "battle S T Anna", "battle P S draw", "war Anna 900"]
    assert len(table.game.events) == 9                           # nothing booked yet
    assert bridge.confirm() == bridge.booked == ["battle T P Carla", "battle S T Anna",
                                                 "battle P S draw", "war Anna 900"]
    after = players(table.game)
    # rule 14: the defender wins an unoccupied country: it becomes her ally (India 6 -> +3),
    # Carla's 900 left -> 900 chips; the turn passes to Carla's left, Anna (rule 14D)
    assert after["Anna"]["allied"] == ["Canada", "Mexico", "India"]
    assert after["Anna"]["pbr"] == 6 + 3 and after["Anna"]["chips"] == 2000 + 900
    assert report.status(table.game.state)["turn"] == {"attacker": "Anna", "defender": None, "target": None}
    assert bridge.contest is None and bridge.proposal == []


def test_two_wins_end_the_war_and_the_winner_gets_the_rounded_energy(table):
    bridge, fake = table.bridge, table.machine
    fake.script("red", 20, {"red": 2000, "blue": 1400})
    table.program({"Carla": "T", "Anna": "P"}, {"Carla": 2500, "Anna": 2500})
    table.frames(25)
    table.tap("SPACE")
    fake.script("red", 20, {"red": 1700, "blue": 1355})
    table.program({"Carla": "T", "Anna": "S"})
    table.frames(25)
    assert bridge.proposal == ["battle T P Carla", "battle T S Carla", "war Carla 1355"]
    bridge.confirm()
    carla = players(table.game)["Carla"]
    assert carla["conquered"] == ["India"] and carla["pbr"] == 6 and carla["chips"] == 1400  # rule 13


def test_energy_out_loses_the_war_at_once(table):
    bridge, fake = table.bridge, table.machine
    fake.script("blue", 20, {"red": 0, "blue": 700})       # Carla's energy ran out (rule 12G)
    table.program({"Carla": "P", "Anna": "T"}, {"Carla": 2500, "Anna": 2500})
    table.frames(25)
    assert bridge.proposal == ["battle P T Anna", "war Anna 0"]


def test_a_destroyed_weapon_used_again_is_not_counted(table):
    bridge, fake = table.bridge, table.machine
    fake.script("red", 20, {"red": 2000, "blue": 2000})
    table.program({"Carla": "T", "Anna": "P"}, {"Carla": 2500, "Anna": 2500})
    table.frames(25)
    table.tap("SPACE")
    table.program({"Carla": "T"})                           # Anna keeps P: not allowed
    table.tap("B", "P")
    assert bridge.notes == ["Anna (blue) may not use the plane (rule 12F)"]
    fake.script("blue", 20, {"red": 1500, "blue": 1500})
    table.tap("ENTER")
    table.frames(25)
    assert [s.counted for s in bridge.seen] == [True, False]
    assert "plane was destroyed earlier" in bridge.seen[1].why
    assert bridge.proposal == [] and bridge.contest.banned["Anna"] == {"P"}


def test_controllers_swapped_map_blue_to_the_attacker(table):
    bridge, fake = table.bridge, table.machine
    bridge.swap()
    assert bridge.colour == {"Carla": "blue", "Anna": "red"}
    fake.script("blue", 20, {"red": 0, "blue": 1000})       # blue (Carla) wins, red's energy is out
    table.program({"Carla": "S", "Anna": "T"}, {"Carla": 2500, "Anna": 2500})
    table.frames(25)
    assert bridge.proposal == ["battle S T Carla", "war Carla 0"]


def test_equal_energies_leave_the_choice_to_the_players(table):
    bridge, fake = table.bridge, table.machine
    for result, left, weapons in (("red", 2000, ("T", "P")), ("blue", 1500, ("S", "T")),
                                  ("both", 1000, ("P", "S"))):
        fake.script(result, 20, {"red": left, "blue": left})
        table.program(dict(zip(("Carla", "Anna"), weapons)),
                      {"Carla": 2500, "Anna": 2500} if left == 2000 else None)
        table.frames(25)
        table.tap("SPACE")
    assert [c[-1] for c in bridge.choices] == ["war Carla 1000", "war Anna 1000"]
    bridge.next_choice()
    bridge.confirm()
    assert players(table.game)["Anna"]["allied"][-1] == "India"


def test_a_correction_is_an_undo(table):
    bridge, fake = table.bridge, table.machine
    fake.script("blue", 20, {"red": 0, "blue": 700})
    table.program({"Carla": "P", "Anna": "T"}, {"Carla": 2500, "Anna": 2500})
    table.frames(25)
    bridge.confirm()
    assert table.game.state.war is None
    bridge.undo()
    bridge.undo()                                           # both booked lines taken back
    assert table.game.state.war.battles == 0 and bridge.contest.kind == "war"
    assert [e.verb for e in table.game.events[-4:]] == ["battle", "war", "undo", "undo"]


def test_practice_and_battles_without_a_war_are_not_booked():
    fake = FakeConquest()
    t = Table(fake, symbol_table(), game_of(SETUP))
    t.bridge.sync()
    fake.put("phase", 4)
    fake.put("counter_reading", 4711)
    t.frames(2)
    assert t.bridge.reading == 4711
    fake.put("phase", 5)                                    # practice: its battles are its own
    fake.put("battle_result", RESULT["red"])
    t.frames(2)
    assert t.bridge.seen == [] and t.bridge.notes == []
    fake.put("phase", 1)
    fake.put("battle_result", RESULT["running"])
    t.frames(1)
    fake.script("red", 5, {"red": 100, "blue": 0})
    t.tap("R", "T", "B", "P", "ENTER")
    t.frames(8)
    assert t.bridge.notes == ["a battle outside a war: the ledger has no war or confrontation now"]


# the six-country game up to its first end-game confrontation (rule 21)
SMALL_ENDGAME = (pathlib.Path(__file__).resolve().parents[2] / "examples/small-board-endgame.txt").read_text()


def test_end_game_battles_move_the_pbr_one_by_one_and_the_survivor_converts():
    fake = FakeConquest()
    t = Table(fake, symbol_table(), game_of(SMALL_ENDGAME))
    bridge = t.bridge
    c = bridge.contest
    assert (c.kind, c.attacker, c.defender) == ("confrontation", "Carla", "Anna")
    assert c.energy == {"Carla": 250, "Anna": 300}          # PBR x 100 (rule 21C)
    assert bridge.keys()[:2] == ["Carla (red): R P/S/T 0250", "Anna (blue): B P/S/T 0300"]
    t.tap("SPACE")
    fake.script("red", 20, {"red": 200, "blue": 280})
    t.program({"Carla": "T", "Anna": "P"}, {"Carla": 250, "Anna": 300})
    t.frames(25)
    assert bridge.proposal == ["battle T P Carla 200 280"]
    bridge.confirm()
    pbr = {p["name"]: p["pbr"] for p in report.status(t.game.state)["players"]}
    assert pbr["Carla"] == 3.5 and pbr["Anna"] == 2           # rule 21D: up one, down one
    assert bridge.contest.attacker == "Anna"                  # rule 21E: roles alternate
    assert bridge.colour == {"Anna": "blue", "Carla": "red"}  # the controllers stay with the players
    assert bridge.contest.banned == {"Anna": {"P"}, "Carla": set()}
    t.tap("SPACE")
    fake.script("blue", 20, {"red": 0, "blue": 250})          # Carla's energy is gone
    t.program({"Anna": "S", "Carla": "T"})
    t.frames(25)
    assert bridge.proposal == ["battle S T Anna 250 0"], (bridge.seen, bridge.notes)
    bridge.confirm()
    pbr = {p["name"]: p["pbr"] for p in report.status(t.game.state)["players"]}
    # Anna +1 for the battle, then her 250 -> 500 -> +0.5 (rule 21G); Carla -1
    assert pbr["Anna"] == 3.5 and pbr["Carla"] == 2.5
    assert t.game.state.expected == ("Anna", "Bert")          # rule 21H: the next challenge


def test_end_game_battle_where_both_energies_are_gone_offers_either_survivor():
    fake = FakeConquest()
    t = Table(fake, symbol_table(), game_of(SMALL_ENDGAME))
    t.tap("SPACE")
    fake.script("both", 20, {"red": 0, "blue": 0})
    t.program({"Carla": "T", "Anna": "P"}, {"Carla": 250, "Anna": 300})
    t.frames(25)
    assert t.bridge.choices == [["battle T P draw 0 0", "survivor Carla 0"],
                                ["battle T P draw 0 0", "survivor Anna 0"]]
    t.bridge.next_choice()
    t.bridge.confirm()
    assert t.game.state.confrontation is None and t.game.state.expected == ("Anna", "Bert")
