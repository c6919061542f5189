"""One test per rule and per interpretation of docs/rules.md, each refusal included."""
from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from board_ledger import report
from board_ledger.errors import RuleError, UnknownName
from board_ledger.game import Game
from board_ledger.rules import ANY_ENERGY, energy_range, legal_actions, round_five_hundred, round_hundred
from board_ledger import events as ev
from ledger_helpers import SETUP3, play, player, refused
from ledger_strategies import TINY_BOARD

P3 = "players Anna Bert Carla\n"


def rule_of(error) -> int | str:
    assert isinstance(error, RuleError), error
    return error.rule


# --- rule 1 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("names", ["Anna", "A B C D E F G"])
def test_rule_1_two_to_six_players(names):
    assert rule_of(refused(play(""), f"players {names}")) == 1


def test_rule_1_names_are_distinct_and_not_words_of_the_notation():
    assert "two players are called" in str(refused(play(""), "players Anna anna"))
    assert rule_of(refused(play(""), "players Anna draw")) == 1


def test_rule_1_unknown_player_is_refused():
    assert "'Dora' is not a player" in str(refused(play(P3), "start Dora"))


def test_rule_1_player_names_match_case_insensitively():
    assert play(P3 + "start carla").state.start == "Carla"


# --- rule 2 --------------------------------------------------------------------------------------
def test_rule_2_closest_digit_to_the_last_digit_of_the_reading_starts():
    assert play(P3 + "draw 4 7 1 reading 1283").state.start == "Anna"    # 3: |4-3| = 1


def test_rule_2_tie_goes_to_the_higher_digit():
    assert play(P3 + "draw 2 4 9 reading 5553").state.start == "Bert"    # 2 and 4 both 1 from 3


def test_rule_2_plain_distance_without_wrap_around():
    assert play(P3 + "draw 0 7 5 reading 9").state.start == "Bert"       # 0 is 9 away, not 1


def test_rule_2_refusals():
    game = play(P3)
    assert rule_of(refused(game, "draw 4 4 1 reading 3")) == 2
    assert rule_of(refused(game, "draw 4 7 reading 3")) == 2
    assert rule_of(refused(game, "draw 4 7 12 reading 3")) == 2
    game = play("start Anna", game=game)
    assert "already chosen" in str(refused(game, "start Bert"))


def test_rule_2_the_ledger_draws_a_reading_and_records_it():
    game = play(P3 + "draw 1 5 8")
    event = game.events[-1]
    assert isinstance(event, ev.Draw) and event.reading.isdigit()
    last = int(event.reading[-1])
    best = min(zip((1, 5, 8), "Anna Bert Carla".split()), key=lambda d: (abs(d[0] - last), -d[0]))
    assert game.state.start == best[1]


# --- rule 3 --------------------------------------------------------------------------------------
def test_rule_3_homelands_in_seat_order_from_the_starting_player():
    game = play(P3 + "start Bert")
    assert "it is Bert's turn to choose" in str(refused(game, "homeland Anna USA"))
    game = play('homeland Bert "West Germany"', game=game)
    assert "Carla's turn" in str(refused(game, "homeland Anna USA"))


def test_rule_3_a_homeland_is_chosen_once():
    game = play(P3 + "start Anna\nhomeland Anna USA")
    assert "already Anna's homeland" in str(refused(game, "homeland Bert usa"))


def test_rule_3_homeland_before_start_refused():
    assert "starting player first" in str(refused(play(P3), "homeland Anna USA"))


# --- rules 4, 5, 6 ------------------------------------------------------------------------------
HOMES = P3 + 'start Anna\nhomeland Anna USA\nhomeland Bert "West Germany"\nhomeland Carla France\n'


def test_rule_4_sum_may_not_exceed_the_homeland_value():
    game = play(HOMES + "allies Anna Canada Mexico")
    err = refused(game, "allies Bert Spain Italy Greece Norway")        # 12 > 10
    assert rule_of(err) == 4 and "worth 12 together" in str(err)
    game = play("allies Bert Spain Italy Greece", game=game)            # 10 <= 10
    assert player(game, "Bert")["pbr"] == 5


def test_rule_4_only_inside_the_homeland_zone_and_in_order():
    game = play(HOMES)
    assert "not in United States's zone" in str(refused(game, "allies Anna India"))
    assert "it is Anna's turn" in str(refused(game, "allies Bert Spain"))
    assert "own homeland" in str(refused(game, "allies Anna USA"))


def test_rule_5_first_alliances_cost_nothing_and_count_half():
    game = play(HOMES + "allies Anna Canada\nallies Bert Spain Greece")
    assert player(game, "Anna")["chips"] == 0 and player(game, "Anna")["pbr"] == 3.5
    assert player(game, "Bert")["pbr"] == 2.5


def test_interpretation_the_homeland_itself_is_not_on_the_pbr():
    game = play(HOMES + "allies Anna -\nallies Bert -\nallies Carla -")
    assert [p["pbr"] for p in report.status(game.state)["players"]] == [0, 0, 0]


def test_rule_4_a_country_taken_by_another_cannot_be_taken_free():
    """Rule 4 offers the free alliances with countries of the zone that are still free; another
    player's homeland is refused by rule 3 (a homeland belongs to its player)."""
    game = play(HOMES + "allies Anna -\nallies Bert Spain")
    err = refused(game, "allies Carla Spain")
    assert rule_of(err) == 4 and "already taken by Bert" in str(err)
    err = refused(game, 'allies Carla "West Germany"')
    assert rule_of(err) == 3 and str(err) == "rule 3: West Germany is Bert's homeland"


# --- rule 7 --------------------------------------------------------------------------------------
def test_rule_7_zone_bonus_excludes_the_homeland():
    game = play(SETUP3)
    assert player(game, "Anna")["chips"] == 2000 and player(game, "Bert")["chips"] == 0


def test_interpretation_single_country_zone_pays_1000_unless_homeland():
    game = play(SETUP3 + "attack Carla Australia\nwar Carla 0")
    assert player(game, "Carla")["chips"] == 1000
    game = play(P3 + "start Anna\nhomeland Anna Australia\nhomeland Bert USA\nhomeland Carla Japan\n"
                "allies Anna -")
    assert player(game, "Anna")["chips"] == 0


def test_interpretation_zone_bonus_once_per_player_per_zone():
    game = play("value Australia 1\n" + SETUP3 + """
attack Carla Australia
war Carla 0
attack Carla Iran
war Bert 2500
attack Anna Australia
war Anna 0
attack Anna India
war Bert 2500
pass Bert
attack Carla Australia
war Carla 0
""")  # Carla took Australia (bonus), lost it to Anna (Anna's bonus), took it back: no second bonus
    carla = player(game, "Carla")
    assert carla["conquered"] == ["Australia"]
    assert carla["chips"] == 1000 - 1000                          # bonus once, then the price
    assert player(game, "Anna")["chips"] == 2000 - 1000 + 1000


def test_rule_7_bonus_for_completing_a_zone_by_war():
    game = play(SETUP3 + """
attack Carla Afghanistan
war Carla 0
attack Carla Pakistan
war Carla 0
attack Carla India
war Carla 0
attack Carla Bangladesh
war Carla 0
""")
    assert player(game, "Carla")["chips"] == 4000


# --- rules 8, 9 -----------------------------------------------------------------------------------
def test_rule_8_the_last_chooser_begins():
    game = play(SETUP3)
    assert game.state.phase == "play" and report.status(game.state)["turn"]["attacker"] == "Carla"


def test_rule_8_play_has_not_begun_before_the_free_alliances():
    game = play(HOMES)
    assert rule_of(refused(game, "attack Anna India")) == 8


def test_rule_9_one_bought_alliance_then_another_after_a_won_war():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nally Carla Bangladesh")
    err = refused(game, "ally Carla Pakistan")
    assert rule_of(err) == 9 and "already bought" in str(err)
    game = play("attack Carla Iraq\nwar Carla 2500\nally Carla Pakistan", game=game)
    assert player(game, "Carla")["allied"] == ["Pakistan", "Bangladesh"]


def test_rule_9_odd_values_cost_a_half_thousand():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nally Carla Philippines")
    assert player(game, "Carla")["chips"] == 2500 - 1500 and player(game, "Carla")["pbr"] == 5 + 1.5


def test_rule_9_refusals():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500")
    assert "Bert's homeland zone" in str(refused(game, "ally Carla France"))
    assert "occupied by Anna" in str(refused(game, "ally Carla Canada"))
    assert "costs 3000" in str(refused(game, "ally Carla Brazil"))
    assert "Carla's turn" in str(refused(game, "ally Anna Brazil"))


# --- rules 10, 11 ---------------------------------------------------------------------------------
def test_rule_11_defender_of_an_unoccupied_country_is_the_player_to_the_left():
    game = play(SETUP3 + "attack Carla India")
    assert report.status(game.state)["turn"] == {"attacker": "Carla", "defender": "Anna", "target": "India"}


def test_rule_10_energy_left_cannot_exceed_2500_and_turn_is_checked():
    game = play(SETUP3)
    assert "Carla's turn" in str(refused(game, "attack Anna India"))
    game = play("attack Carla India", game=game)
    assert rule_of(refused(game, "war Carla 2600")) == 10
    assert "not fighting" in str(refused(game, "war Bert 100"))
    assert rule_of(refused(game, "attack Carla Iran")) == 12   # one war at a time


# --- rule 12 --------------------------------------------------------------------------------------
def test_rule_12_two_of_three_battles_win_and_a_third_after_2_0_is_refused():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla\nbattle P S Carla")
    assert "already decided (2–0)" in str(refused(game, "battle S T Anna"))
    assert "won two battles" in str(refused(game, "war Anna 0"))
    game = play("war Carla 300", game=game)
    assert player(game, "Carla")["conquered"] == ["India"]


def test_rule_12_a_destroyed_weapon_cannot_be_used_again():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla")   # Anna's plane destroyed
    assert "Anna's plane was destroyed" in str(refused(game, "battle S P Anna"))
    game = play("battle T S draw", game=game)                        # both destroyed
    assert "Carla's tank was destroyed" in str(refused(game, "battle T T Anna"))


def test_rule_12_one_all_and_a_draw_the_energy_decides():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla\nbattle P S Anna\nbattle S T draw")
    assert rule_of(refused(game, "battle P T Carla")) == 12    # at most three battles
    game = play("war Anna 700", game=game)                       # more energy left: Anna
    assert "India" in player(game, "Anna")["allied"]


def test_rule_12_early_end_only_when_energy_is_gone():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla")
    assert "ends early only" in str(refused(game, "war Anna 500"))
    game = play("war Anna 0", game=game)       # Carla's energy ran out (rule 12G)
    assert "India" in player(game, "Anna")["allied"]


def test_rule_12_battles_with_energies_end_the_war_without_a_war_line():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla 2100 1900\nbattle P S Carla 1700 1355")
    carla = player(game, "Carla")
    assert game.state.war is None and carla["conquered"] == ["India"] and carla["chips"] == 1400
    assert rule_of(refused(game, "war Carla 1355")) == 12
    assert game.state.turn == "Carla"                              # she may attack on


def test_rule_12_energy_gone_loses_at_once_and_one_all_draw_goes_by_energy():
    game = play(SETUP3 + "attack Carla India\nbattle T P Anna 0 1500")     # Carla's energy gone
    assert "India" in player(game, "Anna")["allied"] and player(game, "Anna")["chips"] == 2000
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla 2000 2000\nbattle P S Anna 1500 1600\n"
                "battle S T draw 900 800")                                 # rule 12C: 900 > 800
    assert player(game, "Carla")["conquered"] == ["India"] and player(game, "Carla")["chips"] == 800


def test_rule_12_energies_only_fall_and_a_battle_winner_has_energy_left():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla 2000 1500")
    assert "energy only falls: Anna had 1500 left" in str(refused(game, "battle T S Anna 1900 1600"))
    assert "Anna's energy is gone" in str(refused(game, "battle T S Anna 1000 0"))
    assert "had 1500 left" in str(refused(game, "war Carla 1600"))


def test_rule_12_no_war_no_battle():
    assert rule_of(refused(play(SETUP3), "battle T P Carla")) == 12
    assert rule_of(refused(play(SETUP3), "war Carla 0")) == 12


# --- rule 13 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("energy,chips", [(1355, 1400), (1350, 1400), (1349, 1300), (49, 0), (2500, 2500)])
def test_rule_13_energy_rounded_to_the_nearest_hundred(energy, chips):
    assert round_hundred(energy) == chips
    game = play(SETUP3 + f"attack Carla Iran\nwar Carla {energy}")
    assert player(game, "Carla")["chips"] == chips


def test_rule_13_continuing_attacks_rotate_the_defender_left_skipping_the_attacker():
    game = play(SETUP3 + "attack Carla Iran")
    defenders = [report.status(game.state)["turn"]["defender"]]
    for country in ("Iraq", "Syria", "Jordan"):
        game = play(f"war Carla 0\nattack Carla {country}", game=game)
        defenders.append(report.status(game.state)["turn"]["defender"])
    assert defenders == ["Anna", "Bert", "Anna", "Bert"]


def test_rule_13_conquest_marks_the_light_field_and_adds_the_full_value():
    game = play(SETUP3 + "attack Carla China\nwar Carla 0")
    assert player(game, "Carla")["conquered"] == ["China"] and player(game, "Carla")["pbr"] == 13
    assert game.state.turn == "Carla"


# --- rule 14 --------------------------------------------------------------------------------------
def test_rule_14_defender_wins_ally_half_value_and_the_turn_passes_left():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 0\nattack Carla China\nwar Bert 1250")
    bert = player(game, "Bert")
    assert "China" in bert["allied"] and bert["pbr"] == 5 + 6.5 and bert["chips"] == 1300
    turn = report.status(game.state)["turn"]
    assert turn["attacker"] == "Anna"                          # left of the old attacker Carla
    game = play("attack Anna India", game=game)
    assert report.status(game.state)["turn"]["defender"] == "Bert"   # left of the new attacker


def test_rule_14_pass_hands_the_turn_left_and_only_the_turn_holder_passes():
    game = play(SETUP3)
    assert "Carla's turn" in str(refused(game, "pass Anna"))
    game = play("pass Carla", game=game)
    assert game.state.turn == "Anna"


# --- rules 15, 16, 17 ----------------------------------------------------------------------------
def test_rule_15_occupied_country_costs_its_value_and_its_holder_defends():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nattack Carla Iraq\nwar Carla 2500")
    game = play("attack Carla Greece", game=game)          # the rotation would give Anna
    assert report.status(game.state)["turn"]["defender"] == "Bert"
    assert player(game, "Carla")["chips"] == 5000 - 1000


def test_rule_15_refusals():
    game = play(SETUP3 + "attack Carla India\nwar Carla 0")
    err = refused(game, "attack Carla India")
    assert rule_of(err) == 15 and "own country" in str(err)
    assert "costs 5000" in str(refused(game, "attack Carla Mexico"))


def test_rule_17_defender_keeps_the_country_gains_the_energy_and_the_turn_passes():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nattack Carla Greece")
    anna = player(game, "Anna")
    game = play("war Bert 1210", game=game)
    bert = player(game, "Bert")
    assert "Greece" in bert["allied"] and bert["chips"] == 1200 and bert["pbr"] == 5
    assert game.state.turn == "Anna" and player(game, "Anna") == anna


# --- rule 18 --------------------------------------------------------------------------------------
def test_rule_18_needs_three_players():
    game = play("players Anna Bert\nstart Anna")
    assert rule_of(refused(game, "pact Anna Bert")) == 18


def test_rule_18_allies_never_attack_each_other_and_are_not_defenders():
    game = play(SETUP3 + "pact Carla Bert")
    err = refused(game, "attack Carla Spain")
    assert rule_of(err) == 18 and "allies never attack" in str(err)
    for country in ("Iran", "Iraq"):
        game = play(f"attack Carla {country}", game=game)
        assert report.status(game.state)["turn"]["defender"] == "Anna"
        game = play("war Carla 0", game=game)


def test_rule_18_pooled_chips_and_shared_winnings():
    game = play(SETUP3 + "attack Carla Iran\nwar Anna 2500")  # Anna now 4500, turn Anna
    game = play("pact Anna Bert\nally Anna+Bert Pakistan", game=game)
    assert player(game, "Anna")["allied"][-1] == "Pakistan" and "Pakistan" in player(game, "Bert")["allied"]
    assert player(game, "Anna")["pbr"] == 6 + 2.5 + 2 and player(game, "Bert")["pbr"] == 5 + 2
    assert player(game, "Anna")["chips"] + player(game, "Bert")["chips"] == 4500 - 2000
    game = play("attack Anna+Bert India\nwar Bert 1355", game=game)   # 1400 split: 700 each
    assert report.status(game.state)["turn"]["defender"] is None
    assert "India" in player(game, "Anna")["conquered"] and "India" in player(game, "Bert")["conquered"]
    assert player(game, "Bert")["chips"] == 700


def test_interpretation_shared_winnings_remainder_stays_in_the_war_chest():
    game = play("players Anna Bert Carla Dora\nstart Anna\nhomeland Anna USA\nhomeland Bert Japan\n"
                "homeland Carla USSR\nhomeland Dora China\nallies Anna -\nallies Bert -\nallies Carla -\n"
                "allies Dora -\npact Dora Anna Bert\nattack Dora+Anna+Bert India\nwar Dora 1400")
    chips = [player(game, n)["chips"] for n in ("Anna", "Bert", "Dora")]
    assert chips == [400, 400, 400]
    assert report.status(game.state)["war_chest"] == -1200


def test_rule_18_refusals_joint_side_must_be_allied_and_pooled_chips_must_suffice():
    game = play(SETUP3)
    assert "not allied with Carla" in str(refused(game, "attack Carla+Bert India"))
    game = play("pact Carla Bert", game=game)
    assert "costs 3000" in str(refused(game, "ally Carla+Bert Brazil"))


def test_rule_18_dissolved_for_good():
    game = play(SETUP3 + "pact Anna Bert\nbreak Bert")
    err = refused(game, "pact Bert Anna")
    assert rule_of(err) == 18 and "never ally again" in str(err)
    assert "not in a player alliance" in str(refused(game, "break Anna"))


def test_interpretation_an_alliance_of_every_remaining_player_is_refused():
    assert "nobody to fight" in str(refused(play(SETUP3), "pact Anna Bert Carla"))


# --- rule 19 --------------------------------------------------------------------------------------
def test_rule_19_neighbours_must_be_held_by_enemies():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500")
    err = refused(game, 'attack Carla "West Germany"')
    assert str(err) == ("rule 19: Italy and Spain must be held by enemies of West Germany's owner "
                        "before West Germany can be attacked")


def test_interpretation_top_of_the_list_has_one_neighbour():
    game = play(P3 + "start Anna\nhomeland Anna Greece\nhomeland Bert USA\nhomeland Carla USSR\n"
                "allies Anna -\nallies Bert -\nallies Carla -")
    assert str(refused(game, "attack Carla Greece")).startswith("rule 19: Italy must be held")


def test_interpretation_a_homeland_alone_in_its_zone_can_be_attacked_at_once():
    game = play("value Australia 1\n" + P3 + "start Anna\nhomeland Anna Australia\nhomeland Bert USA\n"
                "homeland Carla USSR\nallies Anna -\nallies Bert Canada\nallies Carla -\n"
                "attack Carla Iran\nwar Carla 1000\nattack Carla Australia")
    assert game.state.war.kind == "homeland" and player(game, "Carla")["chips"] == 0


ELIMINATION = 'value "West Germany" 4\n' + P3 + """start Anna
homeland Anna USA
homeland Bert "West Germany"
homeland Carla USSR
allies Anna Canada Mexico
allies Bert Greece
allies Carla -
attack Carla Italy
war Carla 2500
attack Carla Spain
war Carla 2500
attack Carla France
war Carla 0
"""


def test_rule_19_homeland_falls_owner_out_spoils_to_the_winner():
    game = play(ELIMINATION)
    carla = player(game, "Carla")
    assert carla["chips"] == 5000
    game = play('attack Carla "West Germany"', game=game)
    assert player(game, "Carla")["chips"] == 1000                  # full value 4 x 1000 paid
    game = play("war Carla 1000", game=game)
    bert, carla2 = player(game, "Bert"), player(game, "Carla")
    assert bert["eliminated"] and bert["allied"] == [] and bert["conquered"] == []
    assert carla2["conquered"] == ["Italy", "West Germany", "Spain", "France"]
    assert carla2["pbr"] == carla["pbr"] + 4
    assert carla2["chips"] == 1000 + 1000
    assert not game.state.occupied("Greece")                       # Bert's ally is freed
    assert game.state.phase == "play" and game.state.turn == "Carla"


def test_rule_19_with_a_player_alliance_the_spoils_are_shared():
    game = play(ELIMINATION + 'pact Carla Anna\nattack Carla+Anna "West Germany"')
    assert (player(game, "Carla")["chips"], player(game, "Anna")["chips"]) == (5000 - 2000, 2000 - 2000)
    anna, carla = player(game, "Anna"), player(game, "Carla")
    game = play("war Anna 1000", game=game)           # any member of the side names the winner
    for before in (anna, carla):
        after = player(game, before["name"])
        assert "West Germany" in after["conquered"] and after["pbr"] == before["pbr"] + 4
        assert after["chips"] == before["chips"] + 500
    assert player(game, "Bert")["eliminated"]


def test_rule_19d_spoils_of_a_homeland_are_shared_with_partners_who_did_not_fight():
    """Rule 19D: Carla conquers Bert's homeland alone, but she is allied with Anna: both mark
    West Germany and Bert's conquest Iran, both score their full values, Bert's 1300 chips are
    split in equal hundreds (600 each, 100 stays in the war chest)."""
    game = play(ELIMINATION + 'pass Carla\npass Anna\nattack Bert Iran\nwar Bert 1300\n'
                'attack Bert Iraq\nwar Anna 0\npact Carla Anna\n')
    anna, carla = player(game, "Anna"), player(game, "Carla")
    chest = game.state.war_chest
    game = play('attack Carla "West Germany"\nwar Carla 0', game=game)
    for before, paid in ((anna, 0), (carla, 4000)):
        after = player(game, before["name"])
        assert {"West Germany", "Iran"} <= set(after["conquered"])
        assert after["pbr"] == before["pbr"] + 4 + 5
        assert after["chips"] == before["chips"] - paid + 600
    assert game.state.war_chest == chest + 4000 + 1300 - 1200      # 100 of Bert's chips stay
    assert game.state.holders["Iran"] == {"Carla": "conquered", "Anna": "conquered"}


def test_rule_19d_without_a_player_alliance_the_conqueror_keeps_the_spoils():
    game = play(ELIMINATION + 'pass Carla\npass Anna\nattack Bert Iran\nwar Bert 1300\n'
                'attack Bert Iraq\nwar Anna 0\nattack Carla "West Germany"\nwar Carla 0')
    assert player(game, "Anna")["conquered"] == []
    assert game.state.holders["West Germany"] == {"Carla": "conquered"}


def test_rule_19_spoils_include_conquests_and_chips():
    game = play(ELIMINATION + 'pass Carla\npass Anna\nattack Bert Iran\nwar Bert 1200\n'
                'attack Bert Iraq\nwar Anna 0\n')     # Bert conquered Iran, has 1200; Carla's turn
    assert player(game, "Bert")["conquered"] == ["Iran"] and player(game, "Bert")["chips"] == 1200
    carla = player(game, "Carla")
    game = play('attack Carla "West Germany"\nwar Carla 0', game=game)
    assert player(game, "Carla")["conquered"][-1] == "Iran"
    assert player(game, "Carla")["chips"] == carla["chips"] - 4000 + 1200
    assert player(game, "Carla")["pbr"] == carla["pbr"] + 4 + 5


def test_rule_19_the_last_player_standing_wins():
    game = play("value USA 1\n" + ELIMINATION.replace("allies Anna Canada Mexico", "allies Anna -")
                + 'attack Carla "West Germany"\nwar Carla 0\nattack Carla Canada\nwar Carla 0\n'
                'attack Carla Mexico\nwar Carla 0\nattack Carla USA\nwar Carla 0')
    assert game.state.phase == "over" and report.status(game.state)["winner"] == "Carla"
    assert rule_of(refused(game, "pass Carla")) == 22


def test_rule_19_allied_countries_of_the_owner_count_as_not_taken():
    game = play(ELIMINATION.replace("attack Carla Italy\nwar Carla 2500\n", ""))
    assert str(refused(game, 'attack Carla "West Germany"')).startswith("rule 19: Italy must be held")


# --- rule 20 ---------------------------------------------------------------------------------------
FINAL = """board small.csv
players Anna Bert Carla
start Anna
homeland Anna Atlantis
homeland Bert Borealis
homeland Carla Dorado
allies Anna Lemuria
allies Bert Cyrene
allies Carla -
attack Carla Elysium
war Carla 1250
"""


def test_rule_20_full_board_starts_the_final_round_left_of_the_turn(small_board):
    game = play(FINAL, base=small_board.parent)
    assert game.state.phase == "final-round" and game.state.turn == "Anna"
    assert player(game, "Carla")["chips"] == 1300 + 1000       # rounded energy + zone 3 bonus


def test_rule_20_one_chance_each_only_occupied_countries_then_chips_to_pbr(small_board):
    game = play(FINAL, base=small_board.parent)
    assert rule_of(refused(game, "ally Anna Elysium")) == 20
    assert rule_of(refused(game, "pact Anna Bert")) == 18
    game = play("pass Anna\npass Bert", game=game)
    assert "Carla's turn" in str(refused(game, "pass Anna"))
    game = play("attack Carla Lemuria\nwar Anna 1000", game=game)
    # chips to PBR, rounded to the nearest 500: Anna 2000 -> 2, Bert 1000 -> 1, Carla 300 -> 0.5
    assert game.state.phase == "endgame"
    assert [player(game, n)["pbr"] for n in ("Anna", "Bert", "Carla")] == [1 + 2, 2 + 1, 2 + 0.5]
    assert all(player(game, n)["chips"] == 0 for n in ("Anna", "Bert", "Carla"))


def test_rule_20a_one_more_chance_only(small_board):
    """Rule 20A gives each player *one* more chance: a second attack is refused with that rule."""
    game = play(FINAL + "pass Anna\n", base=small_board.parent)
    err = refused(game, "attack Anna Cyrene")
    assert rule_of(err) == "20A" and str(err).startswith(
        "rule 20A: Anna already had the one more chance of the final round; it is Bert's chance now")
    game = play("pass Bert", game=game)
    assert rule_of(refused(game, "attack Bert Elysium")) == "20A"
    assert rule_of(refused(game, "attack Anna Elysium")) == "20A"


def test_rule_20_a_zone_completed_by_the_last_war_pays_before_chips_go_onto_the_pbr(small_board):
    game = play("""board small.csv
value Atlantis 4
players Anna Bert Carla
start Anna
homeland Anna Atlantis
homeland Bert Borealis
homeland Carla Dorado
allies Anna -
allies Bert Cyrene
allies Carla -
attack Carla Lemuria
war Carla 2500
attack Carla Elysium
war Carla 2500
pass Anna
pass Bert
attack Carla Atlantis
""", base=small_board.parent)
    assert player(game, "Carla")["chips"] == 2500 + 2500 + 1000 - 4000
    game = play("war Carla 0", game=game)            # Anna is out; Carla completes zone 1: 2000
    assert player(game, "Anna")["eliminated"] and game.state.phase == "endgame"
    assert player(game, "Carla")["pbr"] == 2 + 2 + 4 + (2000 + 2000) / 1000


@pytest.mark.parametrize("chips,rounded", [(1250, 1500), (1249, 1000), (300, 500), (200, 0), (0, 0)])
def test_rule_20_chips_rounded_to_the_nearest_500(chips, rounded):
    assert round_five_hundred(chips) == rounded


# --- rules 21, 22 ----------------------------------------------------------------------------------
ENDGAME = FINAL + "pass Anna\npass Bert\nattack Carla Lemuria\nwar Anna 1000\n"


def test_rule_21_lowest_challenges_the_next_higher_ties_by_seat(small_board):
    game = play(ENDGAME, base=small_board.parent)
    err = refused(game, "challenge Carla Bert")
    assert rule_of(err) == 21 and "Carla (PBR 2.5) must challenge Anna (PBR 3)" in str(err)
    assert rule_of(refused(game, "ally Carla Elysium")) == 21
    assert rule_of(refused(game, "pact Carla Bert")) == 21


def test_rule_21_confrontation_battles_weapons_alternation_and_conversion(small_board):
    game = play(ENDGAME + "challenge Carla Anna", base=small_board.parent)
    assert game.state.confrontation.energy == {"Carla": 250, "Anna": 300}
    assert report.status(game.state)["turn"]["attacker"] == "Carla"
    game = play("battle T P Carla", game=game)                 # Carla up one, Anna down one
    assert (player(game, "Carla")["pbr"], player(game, "Anna")["pbr"]) == (3.5, 2)
    assert report.status(game.state)["turn"]["attacker"] == "Anna"   # roles alternate
    assert "Anna lost the plane in the previous battle" in str(refused(game, "battle P S Anna"))
    game = play("battle S T Anna\nbattle P S draw", game=game)  # the plane is usable again later
    assert "cannot be left" in str(refused(game, "survivor Anna 400"))
    game = play("survivor Anna 250", game=game)                 # 250 -> 500 -> half a square
    assert player(game, "Anna")["pbr"] == 3 + 0.5
    assert game.state.expected == ("Anna", "Bert")              # the higher challenges the next


def test_rule_21_battle_energies_end_a_confrontation(small_board):
    game = play(ENDGAME + "challenge Carla Anna\nbattle T P Carla 200 250", base=small_board.parent)
    assert "energy only falls" in str(refused(game, "battle T S Anna 260 100"))   # Anna attacks now
    game = play("battle S T Anna 120 0", game=game)   # Carla's energy gone: Anna survives with 120
    assert game.state.confrontation is None and game.state.expected == ("Anna", "Bert")
    assert player(game, "Anna")["pbr"] == 3 - 1 + 1 + 0     # 120 rounds to 0


def test_rule_22_highest_pbr_after_the_end_game_wins(small_board):
    game = play(ENDGAME + "challenge Carla Anna\nsurvivor Anna 250\nchallenge Anna Bert\n"
                "battle T T Bert\nsurvivor Bert 0", base=small_board.parent)
    assert game.state.phase == "over"
    status = report.status(game.state)
    assert status["winner"] == "Bert" and player(game, "Bert")["pbr"] == 4
    assert rule_of(refused(game, "challenge Carla Anna")) == 22


def test_rule_21_allies_never_fight_each_other(small_board):
    game = play(FINAL.replace("allies Carla -", "allies Carla -\npact Carla Anna"), base=small_board.parent)
    game = play("pass Anna\npass Bert\npass Carla", game=game)
    # Carla (lowest) would challenge Anna, her ally: she challenges Bert instead
    assert game.state.expected[1] == "Bert"
    assert "allies and never fight" in str(refused(game, "challenge Carla Anna"))


# --- variants --------------------------------------------------------------------------------------
def test_variant_target_score_first_to_reach_wins():
    game = play("variant target 13\n" + SETUP3 + "attack Carla China\nwar Carla 0")
    assert game.state.phase == "over" and game.state.winner == "Carla"


def test_variant_time_highest_when_time_runs_out():
    game = play("variant time 90\n" + SETUP3)
    assert rule_of(refused(play(SETUP3), "time up")) == "variant 1"
    game = play("time up", game=game)
    assert game.state.phase == "over" and game.state.winner == "Anna"   # PBR 6 against 5 and 0


def test_variant_agreed_before_the_start():
    assert "before the starting player" in str(refused(play(P3 + "start Anna"), "variant target 50"))


def test_variant_custom_board_and_edits(small_board):
    game = play("board small.csv\nvalue Cyrene 7\nzone Elysium 1", base=small_board.parent)
    board = game.state.board
    assert len(board.countries) == 6 and board["Cyrene"].value == 7
    assert [c.name for c in board.zones[1]] == ["Atlantis", "Lemuria", "Elysium"]
    game = play(P3 + "start Anna", game=game)
    assert "before the players" in str(refused(game, "value Cyrene 2"))
    with pytest.raises(UnknownName):
        game.play(ev.Homeland("Anna", "Atlantis2"))


# --- bookkeeping -----------------------------------------------------------------------------------
def test_war_chest_is_paid_in_minus_paid_out_and_goes_negative():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nally Carla Bangladesh")
    assert report.status(game.state)["war_chest"] == -(2000 + 2500) + 1000


def test_undo_cancels_the_latest_action_and_is_logged():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 1355")
    game = play("undo", game=game)
    assert game.state.war is not None and player(game, "Carla")["chips"] == 0
    assert isinstance(game.events[-1], ev.Undo)
    game = play("undo\nundo", game=game)
    assert game.state.phase == "alliances"


def test_legal_actions_are_all_accepted_and_list_the_turn():
    game = play(SETUP3)
    legal = legal_actions(game.state)
    assert ev.Pass("Carla") in legal and ev.Attack(("Carla",), "India") in legal
    assert ev.Ally(("Carla",), "India") not in legal          # no chips
    assert all(isinstance(a, (ev.Attack, ev.Ally, ev.Pass, ev.Pact, ev.Break)) for a in legal)


def test_an_action_leaves_every_earlier_state_as_it_was():
    """A state shares its holders with the state it came from (board_ledger/state.py, State.hold):
    no later action, an elimination included, may change an earlier state's markers."""
    seen_elimination = False
    for seed in range(30):
        rng = random.Random(seed)
        game = Game()
        game.play(ev.BoardFile("tiny.csv", TINY_BOARD))
        game.play(ev.Players(("Anna", "Bert", "Carla")[: 2 + seed % 2]))
        kept = [copy.deepcopy(game.state.holders)]
        for _ in range(200):
            legal = legal_actions(game.state)
            if not legal:
                break
            action = rng.choice(legal)
            if getattr(action, "energy", None) == ANY_ENERGY:
                action = dataclasses.replace(action, energy=energy_range(game.state, action)[0])
            game.play(action)
            kept.append(copy.deepcopy(game.state.holders))
            seen_elimination |= any(p.eliminated for p in game.state.players)
        assert [s.holders for s in game.states[2:]] == kept
    assert seen_elimination


# --- more interpretations ----------------------------------------------------------------------------
def test_interpretation_a_board_full_after_the_free_alliances_goes_to_the_final_round(small_board):
    game = play(FINAL.replace("allies Carla -", "allies Carla Elysium").split("attack")[0],
                base=small_board.parent)
    assert game.state.phase == "final-round" and game.state.turn == "Carla"   # the last chooser


def test_interpretation_an_eliminated_players_zone_is_open_to_bought_alliances():
    game = play(ELIMINATION)
    assert "Bert's homeland zone" in str(refused(game, "ally Carla Norway"))
    game = play('attack Carla "West Germany"\nwar Carla 0\nally Carla Greece', game=game)
    assert "Greece" in player(game, "Carla")["allied"]


def test_interpretation_only_wars_for_unoccupied_countries_move_the_defender_rotation():
    game = play(SETUP3 + "attack Carla Iran\nwar Carla 2500\nattack Carla Greece\nwar Carla 0\n"
                "attack Carla Iraq")
    assert report.status(game.state)["turn"]["defender"] == "Bert"      # left of Anna, not of Bert


def test_interpretation_a_pact_with_a_member_merges_the_alliances():
    game = play("players Anna Bert Carla Dora\nstart Anna\npact Anna Bert\npact Bert Carla")
    assert game.state.pacts == [frozenset({"Anna", "Bert", "Carla"})]
    assert game.events[-1] == ev.Pact(("Anna", "Bert", "Carla"))


def test_rule_21_a_tie_at_the_top_is_played_off(small_board):
    game = play(ENDGAME + "challenge Carla Anna\nsurvivor Anna 0\nchallenge Anna Bert\nsurvivor Bert 0",
                base=small_board.parent)
    assert game.state.phase == "endgame" and game.state.expected == ("Anna", "Bert")   # 3 and 3
    game = play("challenge Anna Bert\nbattle T P Anna\nsurvivor Anna 0", game=game)
    assert game.state.phase == "over" and game.state.winner == "Anna"


def test_interpretation_time_up_with_a_tie_is_a_draw():
    game = play("variant time 60\n" + P3 + "start Anna\nhomeland Anna USA\nhomeland Bert USSR\n"
                "homeland Carla China\nallies Anna -\nallies Bert -\nallies Carla -\ntime up")
    assert game.state.phase == "over" and report.status(game.state)["winner"] is None


def test_interpretation_a_failed_homeland_attack_passes_the_turn():
    game = play(ELIMINATION + 'attack Carla "West Germany"\nwar Bert 500')
    assert game.state.turn == "Anna" and player(game, "Bert")["chips"] == 500
