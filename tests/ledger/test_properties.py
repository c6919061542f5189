"""Properties over generated legal games: replay, undo/redo, chips, the war chest."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from board_ledger import events as ev
from board_ledger import notation
from board_ledger.game import Game
from ledger_helpers import snapshot
from ledger_strategies import legal_games

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(legal_games(max_actions=50))
def test_replaying_an_accepted_game_gives_the_same_state(game):
    assert snapshot(Game(game.events).state) == snapshot(game.state)
    replayed = Game(notation.parse_line(notation.format_event(e)) for e in game.events)
    assert snapshot(replayed.state) == snapshot(game.state)


@SETTINGS
@given(legal_games(), st.data())
def test_undo_then_redo_is_identity(game, data):
    action = game.actions[-1]
    before_last = snapshot(game.states[-2])
    after = snapshot(game.state)
    game.play(ev.Undo())
    assert snapshot(game.state) == before_last
    game.play(action)
    assert snapshot(game.state) == after
    assert snapshot(Game(game.events).state) == after


@SETTINGS
@given(legal_games(max_actions=50))
def test_chips_never_negative_and_the_war_chest_balances_the_flows(game):
    for state in game.states:
        chips = [p.chips for p in state.players]
        assert all(c >= 0 and c % 100 == 0 for c in chips)
        assert state.paid_in >= 0 and state.paid_out >= 0
        # every chip on the table came out of the war chest; every chip paid went back in
        assert state.war_chest == -sum(chips)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games(max_actions=150))
def test_long_games_to_the_end_keep_every_property(game):
    assert snapshot(Game(game.events).state) == snapshot(game.state)
    for state in game.states:
        assert all(p.chips >= 0 and p.halves >= 0 for p in state.players)
        assert state.war_chest == -sum(p.chips for p in state.players)
    if game.state.phase == "over":
        assert game.state.winner in game.state.names      # no time limit in generated games
