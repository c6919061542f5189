"""`videopac balance` and its tables through the command: level against level (--levels), the
simple scripted players (--simple), whole wars by rule 12 (--wars), energy spent and length per
pairing, worker processes (--jobs). Tiny counts: the figures are checked for consistency with
each other and with the rules, never against numbers written here."""
from __future__ import annotations

import json
import os

import pytest

from tests.app.test_computer_cli import videopac

WEAPON_LETTERS = "PST"


def balance_json(*argv: str) -> dict:
    res = videopac("balance", "--json", *argv)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def consistent(row: dict, first: str, second: str, battles: int, energy: int) -> None:
    """One tally: every battle counted once, shares and medians within what can be."""
    assert row[f"{first}_wins"] + row[f"{second}_wins"] + row["draws"] == battles
    assert 0 < row["median_seconds"] <= energy / 5 + 1     # the bench's limit: energy / 5 s
    for party in (first, second):
        assert 0 <= row[f"median_spent_{party}"] <= energy


def summed(rows: list[dict], key: str) -> int:
    return sum(r[key] for r in rows)


def test_levels_count_each_level_on_both_sides_and_add_up():
    doc = balance_json("--levels", "hard,easy", "--battles", "2", "--pairings", "TT,PT",
                       "--energy", "500")
    levels = doc["levels"]
    assert levels["levels"] == ["hard", "easy"] and list(levels["pairings"]) == ["TT", "PT"]
    for row in levels["pairings"].values():
        consistent(row, "first", "second", 2, 500)
    rows = list(levels["pairings"].values())
    for key in ("first_wins", "second_wins", "draws"):
        assert levels["all"][key] == summed(rows, key)
    assert "pairings" not in doc                 # only the table asked for is played
    assert "videopac balance" in doc["command"] and "--levels hard,easy" in doc["command"]


def test_simple_players_against_the_standard_computer():
    doc = balance_json("--simple", "idle,fire", "--battles", "2", "--pairings", "TT",
                       "--energy", "400")
    simple = doc["simple"]
    assert simple["scripts"] == ["idle", "fire"]
    for name in ("idle", "fire"):
        row = simple["pairings"]["TT"][name]
        consistent(row, "computer", "script", 2, 400)
        assert simple["all"][name] == row             # one pairing: the sum is the row
    # the computer beats a side that never touches its controller, as red and as blue
    assert simple["pairings"]["TT"]["idle"]["computer_wins"] == 2


def destroyed_weapons(battle: dict, side: int) -> set[str]:
    """Rule 12 B, F: the loser's weapon, both in a draw."""
    winner = battle["winner"]
    if winner == ("red", "blue")[side]:
        return set()
    return {battle["pairing"][side]}


def test_wars_follow_rule_12():
    """Each war: at most three battles, no destroyed weapon used again, the winner by two wins,
    by the other's energy gone or by more energy after three battles; the loser's remaining
    energy is what the last battle left it, and the median is of those."""
    energy = 300
    doc = balance_json("--wars", "--battles", "3", "--energy", str(energy), "--seed", "4")
    wars = doc["wars"]
    assert wars["levels"] == ["standard", "standard"] and wars["wars"] == 3
    assert wars["red_wins"] + wars["blue_wins"] + wars["decided"]["undecided"] == 3
    assert sum(wars["decided"].values()) == 3
    losers = []
    for record in wars["records"]:
        battles = record["battles"]
        assert 1 <= len(battles) <= 3
        for side in (0, 1):
            used: set[str] = set()
            for battle in battles:
                assert battle["pairing"][side] not in used
                used |= destroyed_weapons(battle, side)
        wins = {s: sum(b["winner"] == s for b in battles) for s in ("red", "blue")}
        left = record["left"]
        assert all(0 <= e <= energy for e in left)
        assert left[0] == energy - sum(b["spent"][0] for b in battles)
        winner = record["winner"]
        if record["decided"] == "two wins":
            assert wins[winner] == 2
        elif record["decided"] == "energy gone":
            assert left[("red", "blue").index(winner)] > 0 and 0 in left
        elif record["decided"] == "more energy":
            assert len(battles) == 3 and max(wins.values()) < 2
            assert left[("red", "blue").index(winner)] > min(left)
        if winner:
            losers.append(left[1 - ("red", "blue").index(winner)])
    assert sorted(losers) == wars["loser_left"]
    if losers:
        assert min(losers) <= wars["median_loser_left"] <= max(losers)


@pytest.mark.slow
def test_worker_processes_change_no_figure():
    argv = ("--battles", "2", "--pairings", "TT", "--energy", "300", "--seed", "2")
    one, two = (balance_json(*argv, "--jobs", jobs) for jobs in ("1", "2"))
    assert one == two
    for row in one["pairings"]["TT"].values():
        consistent(row, "red", "blue", 2, 300)
        assert row["median_seconds"] > 0


def test_tables_as_text_in_english_and_german():
    argv = ("balance", "--levels", "standard,easy", "--simple", "idle", "--battles", "1",
            "--pairings", "TT", "--energy", "300")
    english = videopac(*argv)
    assert english.returncode == 0, english.stderr
    lines = english.stdout.splitlines()
    assert lines[0].startswith("videopac balance --battles 1")
    assert "standard against easy" in english.stdout
    assert any(line.startswith("| T–T") for line in lines)
    assert any(line.startswith("| all") for line in lines)
    assert "1/2" in english.stderr and "2/2" in english.stderr        # the bar
    german = videopac("balance", "--levels", "standard,easy", "--battles", "1", "--pairings",
                      "TT", "--energy", "200", env={**os.environ, "LANGUAGE": "de"})
    assert german.returncode == 0, german.stderr
    assert "Standard gegen leicht" in german.stdout and "| alle" in german.stdout
    assert "Anteil Standard" in german.stdout


def test_endgame_goes_on_until_a_side_has_no_energy():
    """Rule 21: battles until one side's energy is gone, a weapon lost in a battle not used in
    the next one; the survivor's remaining energy is what the last battle left it."""
    energy = 400
    doc = balance_json("--endgame", "--battles", "2", "--energy", str(energy), "--seed", "1")
    end = doc["endgame"]
    assert end["confrontations"] == 2 and "wars" not in doc
    assert end["red_survived"] + end["blue_survived"] + end["unfinished"] == 2
    survivors = []
    for record in end["records"]:
        battles = record["battles"]
        assert len(battles) <= end["most_battles"]
        for before, after in zip(battles, battles[1:]):
            for side in (0, 1):
                assert after["pairing"][side] not in destroyed_weapons(before, side)
        left = record["left"]
        for side in (0, 1):
            assert left[side] == energy - sum(b["spent"][side] for b in battles)
        if record["winner"]:
            assert 0 in left and left[("red", "blue").index(record["winner"])] > 0
            survivors.append(max(left))
    if survivors:
        assert min(survivors) <= end["median_survivor_left"] <= max(survivors)


@pytest.mark.parametrize("want", [0, 1])
def test_each_battle_is_played_on_the_map_its_coin_asks_for(want):
    """ENTER's random register picks one of a kind's two maps; a random wait at program entry
    alone took one coast map in 19 of 20 S–T battles, so the bench waits a frame more until
    ENTER picks the map the battle's coin drew, and the battle starts as typed."""
    from videopac.battle.balance import BattleBench

    for wait in (0, 17, 41, 59):
        bench = BattleBench("pal")
        bench.on_map(lambda w: bench.start("ST", 300, wait=w), wait, want)
        assert bench.byte("mapid") in (6 + want,)           # coast, land right: maps 6 and 7
        assert bench.byte("phase") == bench.symbols["PH_BATTLE"]
        assert bench.energies() == (300, 300)


def test_in_a_war_the_computers_play_each_battle_on_its_own_map():
    """The battles of a war follow each other on one console; each computer reads the terrain
    of the battle it plays (it had kept the first battle's map, and two tanks stood still on a
    coast map that was no longer there until their energy ran out)."""
    import numpy as np

    from videopac.battle.balance import Campaign
    from videopac.battle.battlefield import terrain

    war = Campaign(("standard", "standard"), "pal", 5, 2500)
    war.battle("ST")                                     # a coast map
    tanks = war.battle("TT")                             # a land map
    assert tanks.seconds < 60                            # they fought (it ran to 500 s)
    here = terrain(war.console.machine.frame, war.players[0].field)
    for computer in war.players:
        assert computer.world is not None
        assert np.mean(computer.world.grid == here) > 0.95
