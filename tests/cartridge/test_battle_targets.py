"""The targets the battles are tuned to (docs/conquest.md, "Battles of manoeuvre" and "The balance,
measured"), checked on a few seeded battles each so that a change that breaks one shows in the
suite; `videopac balance` measures them on many more. PAL, 2500 units each side (rule 11)."""
from __future__ import annotations

import pytest

from videopac.battle.balance import (
    PAIRINGS, WAR_ENERGY, battle, battle_seed, endgame, median, war)
from videopac.battle.scripted import SCRIPTS

SEED = 11                     # not the tables' seed 0: these are other battles than the docs show
STANDARD = ("standard", "standard")


@pytest.mark.slow
@pytest.mark.parametrize("pairing", PAIRINGS)
def test_two_standard_computers_fight_a_battle_of_manoeuvre(pairing):
    """Every pairing lasts a median of at least 10 s and costs each side 250-500 units: no
    first shot decides, and supply is what a battle uses up."""
    fought = [battle(pairing, STANDARD, "pal", battle_seed(SEED, pairing, 2, n), WAR_ENERGY)
              for n in range(5)]
    assert median([f.seconds for f in fought]) >= 10, [f.seconds for f in fought]
    for side in (0, 1):
        spent = [f.spent[side] for f in fought]
        assert 250 <= median(spent) <= 500, (side, spent)


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in SCRIPTS if name != "idle"])
def test_no_simple_trick_beats_the_standard_computer(name):
    """Against each simple player (idle has its own tests in test_computer.py), the standard
    computer wins every pairing, once as red and once as blue, but for at most one battle of
    the eighteen (the target is 95 % of many battles)."""
    lost = []
    for pairing in PAIRINGS:
        for side in (0, 1):
            sides = ("standard", name) if side == 0 else (name, "standard")
            fought = battle(pairing, sides, "pal", battle_seed(SEED, pairing, 3 + side, 0),
                            WAR_ENERGY)
            if fought.winner != ("red", "blue")[side]:
                lost.append((pairing, side, fought.winner, fought.seconds))
    assert len(lost) <= 1, lost


@pytest.mark.slow
def test_a_war_leaves_the_loser_about_what_the_manuals_war_does():
    """Rule 12's worked war leaves the loser 1355 of 2500 units; ours leave it 900-1800
    (median of seven wars between two standard computers)."""
    left = [war(STANDARD, "pal", SEED * 100 + n).loser_left for n in range(7)]
    assert all(v is not None for v in left), left
    assert 900 <= median([v for v in left if v is not None]) <= 1800, left


@pytest.mark.slow
def test_an_end_game_confrontation_ends_within_about_fifteen_battles():
    """Rule 21 G: battles go on until a side's energy is gone; at PBR 55 (5500 units) that
    takes about 15 battles (the issue's target; `videopac balance --endgame`: a median of 15),
    never more than 20."""
    counts = [len(endgame(STANDARD, "pal", SEED * 100 + n, 5500).battles) for n in range(4)]
    assert 10 <= median(counts) <= 17 and max(counts) <= 20, counts
