"""Every worked example of the manual (docs/rules.md, last section), played through the notation."""
from __future__ import annotations

from board_ledger import report
from ledger_helpers import SETUP3, play, player


def test_usa_allies_canada_and_mexico_pbr_6_and_zone_bonus_2000():
    game = play(SETUP3)
    anna = player(game, "Anna")
    assert anna["pbr"] == 6 and anna["chips"] == 2000
    assert anna["allied"] == ["Canada", "Mexico"]


def test_west_germany_allies_spain_italy_greece_pbr_5():
    game = play(SETUP3)
    assert player(game, "Bert")["pbr"] == 5


def test_alliance_total_9_is_recorded_as_4_5():
    game = play("""
players Anna Bert
start Anna
homeland Anna USSR
homeland Bert Japan
allies Anna Romania Poland Czechoslovakia "East Germany" Cuba
""")
    assert player(game, "Anna")["pbr"] == 4.5


def test_usa_buys_bangladesh_with_the_bonus():
    game = play("""
players Anna Bert Carla
start Bert
homeland Bert "West Germany"
homeland Carla USSR
homeland Anna USA
allies Bert -
allies Carla -
allies Anna Canada Mexico
ally Anna Bangladesh
""")
    anna = player(game, "Anna")
    assert anna["chips"] == 1000 and anna["pbr"] == 7
    assert report.status(game.state)["war_chest"] == -1000  # 2000 paid out, 1000 paid in


def test_attacker_wins_with_1355_left_to_the_loser_gets_1400():
    game = play(SETUP3 + "attack Carla India\nwar Carla 1355\n")
    carla = player(game, "Carla")
    assert carla["chips"] == 1400 and carla["conquered"] == ["India"] and carla["pbr"] == 6


def test_defender_of_indonesia_wins_it_as_ally_pbr_plus_3():
    game = play(SETUP3 + "attack Carla Indonesia\nwar Anna 0\n")
    anna = player(game, "Anna")
    assert "Indonesia" in anna["allied"] and anna["pbr"] == 6 + 3


def test_philippines_occupied_costs_3000_winner_plus_3_allied_loser_minus_1_5():
    game = play(SETUP3 + """
attack Carla Iran
war Carla 0
attack Carla Egypt
war Bert 2500
ally Anna Philippines
attack Anna Japan
war Bert 2500
""")  # Bert defended twice (5000 chips); Anna bought the Philippines as an ally
    bert, anna = player(game, "Bert"), player(game, "Anna")
    chest = report.status(game.state)["war_chest"]
    game = play("attack Bert Philippines\n", game=game)
    assert player(game, "Bert")["chips"] == bert["chips"] - 3000
    assert report.status(game.state)["war_chest"] == chest + 3000
    game = play("war Bert 0\n", game=game)
    assert player(game, "Bert")["pbr"] == bert["pbr"] + 3
    assert player(game, "Anna")["pbr"] == anna["pbr"] - 1.5
    assert player(game, "Bert")["chips"] == bert["chips"] - 3000   # the price is not returned


def test_philippines_conquered_loser_minus_3():
    game = play(SETUP3 + """
attack Carla Philippines
war Carla 0
attack Carla Iran
war Carla 0
attack Carla Egypt
war Anna 2500
""")  # Carla conquered the Philippines; Anna won Egypt and 2500 chips (4500)
    anna, carla = player(game, "Anna"), player(game, "Carla")
    game = play("attack Anna Philippines\nwar Anna 0\n", game=game)
    assert player(game, "Carla")["pbr"] == carla["pbr"] - 3
    assert player(game, "Anna")["pbr"] == anna["pbr"] + 3
    assert player(game, "Anna")["chips"] == anna["chips"] - 3000


def test_end_game_pbr_55_is_5500_energy(tmp_path):
    (tmp_path / "b.csv").write_text("zone,position,country,pbu\n1,1,Atlantis,10\n2,1,Borealis,10\n"
                                    "3,1,Cyrene,48\n4,1,Dorado,5\n")
    game = play("""
board b.csv
players Anna Bert
start Bert
homeland Bert Borealis
homeland Anna Atlantis
allies Bert -
allies Anna -
attack Anna Cyrene
war Anna 0
attack Anna Dorado
war Anna 0
pass Bert
pass Anna
""", base=tmp_path)
    assert player(game, "Anna")["pbr"] == 55        # 48 + 5 conquered, 2000 zone-bonus chips -> 2
    game = play("challenge Bert Anna\n", game=game)
    assert game.state.confrontation.energy == {"Anna": 5500, "Bert": 0}
