"""What each accepted action did (board_ledger/effects.py) and the war view (report.war_view):
one test per kind of effect, the sentences they are said in, and the war at a glance."""
from __future__ import annotations

import pathlib

from board_ledger import effects, notation, report
from board_ledger import events as ev
from board_ledger.game import Game
from ledger_helpers import SETUP3, play
from test_rules import ELIMINATION, FINAL


def did(game: Game, line: str, base: pathlib.Path | None = None) -> list[dict]:
    """Play one line and return its effects."""
    event = notation.attach_board(notation.parse_line(line), base or pathlib.Path("."))
    return effects.play(game, event)[1]


def kinds(said: list[dict], kind: str) -> list[dict]:
    return [e for e in said if e["kind"] == kind]


def test_a_won_war_pays_out_conquers_raises_the_pbr_and_names_the_next_turn():
    game = play(SETUP3 + "attack Carla India")
    said = did(game, "war Carla 1355")
    assert kinds(said, "war_won") == [{"kind": "war_won", "country": "India", "winners": ["Carla"],
                                       "losers": ["Anna"], "energy": 1355}]
    assert kinds(said, "paid_out") == [{"kind": "paid_out", "player": "Carla", "amount": 1400}]
    assert kinds(said, "war_chest") == [{"kind": "war_chest", "change": -1400, "balance": -3400}]
    assert kinds(said, "pbr") == [{"kind": "pbr", "player": "Carla", "halves": 12, "change": 6, "pbr": 6}]
    assert kinds(said, "country") == [{"kind": "country", "country": "India", "before": {},
                                       "after": {"Carla": "conquered"}}]
    assert kinds(said, "turn") == [{"kind": "turn", "attacker": "Carla", "defender": "Bert"}]
    first, second = effects.effects_lines(said)
    assert first == ("Carla won the war for India. Carla receives 1400 from the war chest. War chest -3400. "
                     "Carla's PBR +6 to 6. India is conquered by Carla.")
    assert second == "Next: Carla attacks, Bert would defend an unoccupied country."


def test_a_price_paid_into_the_war_chest_and_a_half_square_of_pbr():
    game = play(SETUP3 + "attack Carla India\nwar Carla 2500")
    said = did(game, "ally Carla Syria")                 # value 1: 500, PBR + 0.5
    assert kinds(said, "paid_in") == [{"kind": "paid_in", "player": "Carla", "amount": 500}]
    assert kinds(said, "pbr") == [{"kind": "pbr", "player": "Carla", "halves": 1, "change": 0.5, "pbr": 6.5}]
    assert "Carla pays 500 into the war chest." in effects.effects_lines(said)[0]
    assert "Carla's PBR +0.5 to 6.5." in effects.effects_lines(said)[0]


def test_a_zone_bonus_is_its_own_effect_and_not_counted_as_war_winnings():
    game = play(SETUP3.split("allies Anna")[0])
    said = did(game, "allies Anna Canada Mexico")
    assert kinds(said, "zone_bonus") == [{"kind": "zone_bonus", "player": "Anna", "zone": 1, "amount": 2000}]
    assert kinds(said, "paid_out") == []
    assert kinds(said, "country")[0]["after"] == {"Anna": "allied"}
    assert "Anna holds all of zone 1: bonus 2000 (rule 7)." in effects.effects_lines(said)[0]


def test_a_lost_occupied_country_changes_hands_with_the_pbr_of_both():
    game = play(SETUP3 + "pass Carla\nattack Anna Greece")    # Anna pays 1000 for Bert's ally
    said = did(game, "war Anna 0")
    assert kinds(said, "country") == [{"kind": "country", "country": "Greece", "before": {"Bert": "allied"},
                                       "after": {"Anna": "conquered"}}]
    assert {(e["player"], e["halves"]) for e in kinds(said, "pbr")} == {("Anna", 2), ("Bert", -1)}
    assert "Bert's PBR −0.5 to 4.5." in effects.effects_lines(said)[0]


def test_battles_and_a_war_begun_and_decided_by_its_battles():
    game = play(SETUP3)
    said = did(game, "attack Carla India")
    assert kinds(said, "war") == [{"kind": "war", "country": "India", "attackers": ["Carla"], "defenders": ["Anna"]}]
    said = did(game, "battle T P Carla 2000 1500")
    assert kinds(said, "battle") == [{"kind": "battle", "number": 1, "weapons": ["T", "P"], "winner": "Carla",
                                      "energies": [2000, 1500]}]
    said = did(game, "battle S S draw 1800 1200")
    assert effects.effects_lines(said) == ["Battle 2: a draw, both weapons are destroyed."]
    said = did(game, "battle P T Carla 1000 900")       # 2-0: the battles end the war
    assert kinds(said, "battle")[0]["number"] == 3 and kinds(said, "war_won")[0]["energy"] == 900
    assert kinds(said, "paid_out") == [{"kind": "paid_out", "player": "Carla", "amount": 900}]


def test_elimination_frees_alliances_and_undo_brings_everything_back():
    game = play(ELIMINATION + 'attack Carla "West Germany"')
    said = did(game, "war Carla 0")
    assert kinds(said, "eliminated") == [{"kind": "eliminated", "player": "Bert"}]
    assert kinds(said, "freed") == [{"kind": "freed", "country": "Greece", "players": ["Bert"]}]
    assert kinds(said, "country")[0] == {"kind": "country", "country": "West Germany",
                                         "before": {"Bert": "homeland"}, "after": {"Carla": "conquered"}}
    assert "Bert is out of the game (rule 19C)." in effects.effects_lines(said)[1]
    assert "Greece is freed from Bert's alliance and open to attack." in effects.effects_lines(said)[0]
    said = did(game, "undo")
    assert said[0] == {"kind": "undone", "action": "war Carla 0"}
    assert kinds(said, "back") == [{"kind": "back", "player": "Bert"}]
    assert {e["country"]: e["after"] for e in kinds(said, "country")} == {
        "West Germany": {"Bert": "homeland"}, "Greece": {"Bert": "allied"}}
    assert kinds(said, "war_won") == []                   # an undo wins no war
    assert effects.effects_lines(said)[0].startswith("Undone: war Carla 0.")


def test_player_alliances_formed_and_dissolved():
    game = play(SETUP3)
    said = did(game, "pact Anna Bert")
    assert kinds(said, "pact") == [{"kind": "pact", "players": ["Anna", "Bert"]}]
    said = did(game, "break Bert")
    assert kinds(said, "pact_ended") == [{"kind": "pact_ended", "players": ["Anna", "Bert"]}]
    assert effects.effects_lines(said) == ["The alliance of Anna and Bert is dissolved (rule 18F)."]


def test_the_final_round_the_chips_onto_the_pbr_the_end_game_and_the_winner(small_board):
    game = play(FINAL.replace("war Carla 1250\n", ""), base=small_board.parent)
    said = did(game, "war Carla 1250")
    assert {"kind": "phase", "phase": "final-round"} in said
    assert kinds(said, "turn") == [{"kind": "turn", "attacker": "Anna", "defender": None}]
    play("pass Anna\npass Bert\nattack Carla Lemuria", game=game)
    said = did(game, "war Anna 1000")
    assert {(e["player"], e["amount"]) for e in kinds(said, "chips_to_pbr")} == {
        ("Anna", 2000), ("Bert", 1000), ("Carla", 300)}
    assert {"kind": "phase", "phase": "endgame"} in said
    assert kinds(said, "challenge") == [{"kind": "challenge", "challenger": "Carla", "opponent": "Anna",
                                         "energies": {"Carla": 250, "Anna": 300}}]
    assert "Next: Carla challenges Anna, energies 250 and 300 (PBR x 100)." in effects.effects_lines(said)[1]
    said = did(game, "challenge Carla Anna")
    assert kinds(said, "confrontation") == [{"kind": "confrontation", "challenger": "Carla", "opponent": "Anna",
                                             "energies": {"Carla": 250, "Anna": 300}}]
    play("battle T P Carla\nbattle S T Anna\nsurvivor Anna 250\nchallenge Anna Bert", game=game)
    said = did(game, "battle T T Bert 100 0")
    assert kinds(said, "winner") == [{"kind": "winner", "player": "Bert"}]
    assert {(e["player"], e["change"]) for e in kinds(said, "pbr")} == {("Bert", 1), ("Anna", -1)}
    assert effects.effects_lines(said)[-1] == "Bert wins the game (rule 22)."


# --- the war view ------------------------------------------------------------------------------
def test_war_view_battles_score_weapons_energies_and_what_ends_it():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla 2000 1500\nbattle S S draw 1800 1200")
    v = report.war_view(game.state)
    assert v["battles"] == [{"number": 1, "weapons": ["T", "P"], "winner": "Carla", "energies": [2000, 1500]},
                            {"number": 2, "weapons": ["S", "S"], "winner": None, "energies": [1800, 1200]}]
    assert v["score"] == {"attacker": 1, "defender": 0}
    assert v["weapons"] == {"attacker": ["P", "T"], "defender": ["T"]}
    assert v["energies"] == {"attacker": 1800, "defender": 1200} and v["energies_known"]
    assert v["decided"] is None and v["record"] == "battle"
    assert v["ends"] == {"wins_needed": {"attacker": 1, "defender": 2}, "battles_left": 1}
    lines = report.war_lines(game.state)
    assert lines[0] == "War for India: Carla attacks, Anna defends (rule 12); 1–0 after 2 of 3 battles."
    assert lines[1] == "Battles: 1 Carla (T–P), 2 draw (S–S)."
    assert lines[2] == "Weapons left: Carla P/T, Anna T. Energy left: Carla 1800, Anna 1200."
    assert lines[3].startswith("It ends when one side has won two battles")
    assert "\n".join(lines) in report.now_text(game.state)


def test_a_war_decided_by_two_wins_does_not_invite_a_third_battle():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla\nbattle S T Carla")
    v = report.war_view(game.state)
    assert v["decided"] == "attacker" and v["winner"] == "Carla" and v["record"] == "war"
    now = report.now_text(game.state)
    assert "Decided: Carla has won the war (2–0); no further battle. Record: war Carla ENERGY" in now
    assert "Record the next battle" not in now and "battle WEAPON" not in now


def test_three_battles_without_two_wins_are_decided_by_energy():
    game = play(SETUP3 + "attack Carla India\nbattle T P Carla\nbattle S T Anna\nbattle P S draw")
    v = report.war_view(game.state)
    assert v["by_energy"] and v["decided"] is None and v["record"] == "war"
    assert "the higher energy wins (rule 12C)" in report.now_text(game.state)


def test_end_game_energies_to_type_are_shown_in_the_terminal_text(small_board):
    game = play(FINAL + "pass Anna\npass Bert\nattack Carla Lemuria\nwar Anna 1000", base=small_board.parent)
    v = report.war_view(game.state)
    assert v == {"kind": "challenge", "challenger": "Carla", "opponent": "Anna",
                 "pbr": {"Carla": 2.5, "Anna": 3}, "energies": {"Carla": 250, "Anna": 300}, "first": "Carla"}
    assert ("Energies to type (PBR x 100, rule 21C): Carla 250, Anna 300; Carla enters first."
            in report.now_text(game.state))
    play("challenge Carla Anna\nbattle T P Carla", game=game)
    v = report.war_view(game.state)
    assert v["kind"] == "confrontation" and v["attacker"] == "Anna"
    assert v["weapons"] == {"Carla": ["P", "S", "T"], "Anna": ["S", "T"]}     # 21F: Anna lost her plane
    assert v["start"] == {"Carla": 250, "Anna": 300}


# --- every generated legal game: the effects add up to the change of the state -------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402

from ledger_strategies import legal_games  # noqa: E402


def _money(said: list[dict]) -> int:
    """What the effects say went into the war chest, minus what came out of it."""
    sign = {"paid_in": 1, "chips_to_pbr": 1, "paid_out": -1, "zone_bonus": -1}
    return sum(sign[e["kind"]] * e["amount"] for e in said if e["kind"] in sign)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(max_actions=80))
def test_effects_of_every_action_and_its_undo_add_up_and_can_be_said(game):
    import i18n
    replay = Game()
    for event in game.events:
        before = replay.state
        _, said = effects.play(replay, event)
        after = replay.state
        assert _money(said) == after.war_chest - before.war_chest
        chest = [e for e in said if e["kind"] == "war_chest"]
        assert (chest[0]["balance"] if chest else before.war_chest) == after.war_chest
        halves = {p.name: p.halves for p in before.players}
        for e in said:
            if e["kind"] == "pbr":
                halves[e["player"]] += e["halves"]
        assert halves == {p.name: p.halves for p in after.players} or not before.players
        for language in ("en", "de"):
            i18n.set_language(language)
            try:
                lines = effects.effects_lines(said)
            finally:
                i18n.set_language(None)
            assert len(lines) <= 2 and all(lines)
        if replay.actions and not isinstance(event, ev.Undo):   # undo says the reverse, then redo
            _, undone = effects.play(replay, ev.Undo())
            assert undone[0]["kind"] == "undone" and _money(undone) == -_money(said)
            effects.play(replay, event)
