"""A hypothesis strategy for legal games: every step picks one of the currently legal actions."""
from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from board_ledger import events as ev
from board_ledger.game import Game
from board_ledger.rules import ANY_ENERGY, energy_range, legal_actions

TINY_BOARD = """zone,position,country,pbu
1,1,Atlantis,10
1,2,Lemuria,2
2,1,Borealis,8
2,2,Cyrene,4
2,3,Thule,1
3,1,Dorado,3
3,2,Elysium,2
4,1,Hyperborea,5
"""


def _with_energies(draw: st.DrawFn, game: Game, battle: ev.Battle) -> ev.Battle:
    """The battle with both energies left on screen, as the cartridge shows them (rule 12, 21)."""
    s = game.state
    if s.confrontation is not None:
        c = s.confrontation
        roles = (c.attacker, c.opponent if c.attacker == c.challenger else c.challenger)
        left = (c.left[roles[0]], c.left[roles[1]])
    else:
        roles, left = (s.war.side[0], s.war.defenders[0]), (s.war.left["attacker"], s.war.left["defender"])
    lows = [1 if battle.winner == r else 0 for r in roles]   # a battle's winner still has energy
    if any(low > high for low, high in zip(lows, left)):
        return battle
    return dataclasses.replace(battle, energies=tuple(draw(st.integers(low, high))
                                                      for low, high in zip(lows, left)))


@st.composite
def legal_games(draw: st.DrawFn, max_actions: int = 60) -> Game:
    """A game of 2–4 players on the printed or a tiny board, played through legal actions only."""
    game = Game()
    if draw(st.booleans()):
        game.play(ev.BoardFile("tiny.csv", TINY_BOARD))   # small enough to reach the end game
    names = ["Anna", "Bert", "Carla", "Dora"][: draw(st.integers(2, 4))]
    game.play(ev.Players(tuple(names)))
    if draw(st.booleans()):
        game.play(ev.Variant("target", draw(st.integers(5, 40))))
    game.play(ev.Start(draw(st.sampled_from(names))))
    for _ in range(draw(st.integers(0, max_actions))):
        legal = [a for a in legal_actions(game.state) if not isinstance(a, ev.TimeUp)]
        if not legal:
            break
        action = draw(st.sampled_from(legal))
        if isinstance(action, ev.Battle) and draw(st.booleans()):
            action = _with_energies(draw, game, action)
        if getattr(action, "energy", None) == ANY_ENERGY:
            low, high = energy_range(game.state, action)
            action = dataclasses.replace(action, energy=draw(st.integers(low, high)))
        game.play(action)   # a legal action must be accepted
    return game
