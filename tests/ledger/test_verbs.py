"""One place per ledger verb: the notation's event classes, the rulebook's rows (rule and offers)
and the phones' offers (with the page's buttons) agree, and a verb missing from any of them is
caught (docs/architecture.md,
"Add a ledger verb")."""
from __future__ import annotations

import dataclasses
import pathlib
import random
import re
import subprocess
import sys
import textwrap

import pytest

from board_ledger import events as ev
from board_ledger import rules
from board_ledger.game import Game
from board_ledger.rules import ANY_ENERGY, RULEBOOK, energy_range, legal_actions

from tests.ledger.ledger_strategies import TINY_BOARD

OFFERED = {v.event for v in RULEBOOK if v.offers is not None or v.side_offers is not None}


def test_every_verb_of_the_notation_has_one_row_in_the_rulebook():
    rows = [v.event for v in RULEBOOK]
    assert len(rows) == len(set(rows))
    assert set(rows) | set(rules.GAME_VERBS) == set(ev.EVENT_TYPES.values())
    assert not set(rows) & set(rules.GAME_VERBS)
    assert all(rules.HANDLERS[v.event] is v.rule for v in RULEBOOK)
    assert all(not (v.offers and v.side_offers) for v in RULEBOOK)


@pytest.mark.parametrize("extra,refusal", [
    ("class Shout(ev.Event):\n    verb = 'shout'", "disagree on ['shout']"),   # no row
    ("class Pass2(ev.Event):\n    verb = 'pass'", "'pass' is written by two"),   # a verb twice
])
def test_a_verb_missing_from_the_rulebook_or_written_twice_is_refused_at_import(extra, refusal):
    code = "try:\n" + textwrap.indent("from board_ledger import events as ev\n" + extra + "\n"
                                      "import board_ledger.rules\n", "    ") + \
        "except ImportError as exc:\n    print('refused:', exc)\nelse:\n    print('loaded')\n"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.startswith("refused:") and refusal in res.stdout, res.stdout + res.stderr


def _seeded_states(seeds: range) -> list:
    """The states along seeded random games on the tiny board (to the end game) and the printed
    one, with pacts, a time limit and energies typed as the console shows them."""
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        game = Game()
        if seed % 3:
            game.play(ev.BoardFile("tiny.csv", TINY_BOARD))
        names = ("Anna", "Bert", "Carla", "Dora")[: 2 + seed % 3]
        game.play(ev.Players(names))
        game.play(ev.Variant("time", 60))
        for _ in range(300):
            states.append(game.state)
            legal = [a for a in legal_actions(game.state) if not isinstance(a, ev.TimeUp)]
            if not legal:
                break
            action = rng.choice(legal)
            if getattr(action, "energy", None) == ANY_ENERGY:
                low, high = energy_range(game.state, action)
                action = dataclasses.replace(action, energy=rng.choice((low, high)))
            game.play(action)
    return states


def test_each_row_offers_its_own_verb_and_every_offered_verb_is_legal_somewhere():
    seen: set[type] = set()
    for s in _seeded_states(range(12)):
        for verb in RULEBOOK:
            offers = verb.offers(s) if verb.offers else \
                [e for side in rules._sides(s) for e in verb.side_offers(s, side)] if verb.side_offers else []
            assert all(type(e) is verb.event for e in offers), verb.event
        legal = legal_actions(s)
        assert {type(e) for e in legal} <= OFFERED          # a typed-only verb is never offered
        seen |= {type(e) for e in legal}
    assert seen == OFFERED


def test_the_phones_offer_exactly_the_verbs_the_rules_offer_each_with_a_button():
    from videopac.books import view
    assert set(view.OFFERS) == set(rules.OFFERED) == OFFERED
    keys = [offer.key for offer in view.OFFERS.values()]
    assert len(keys) == len(set(keys))
    script = (pathlib.Path(view.__file__).parents[1] / "data" / "web" / "app.js").read_text()
    assert set(re.findall(r"\bL\.([a-z_]+)", script)) == set(keys)    # the page reads each group


def test_a_verb_the_rules_offer_without_a_row_for_the_phones_stops_the_view_from_loading():
    code = ("from board_ledger import events as ev, rules\n"
            "rules.OFFERED = rules.OFFERED + (ev.Draw,)\n"
            "try:\n    import videopac.books.view\n"
            "except ImportError as exc:\n    print('refused:', exc)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.startswith("refused:") and "['draw']" in res.stdout, res.stdout + res.stderr


def test_every_verb_has_its_line_in_the_notation_table_of_docs_ledger_md():
    docs = (pathlib.Path(__file__).parents[2] / "docs" / "ledger.md").read_text(encoding="utf-8")
    written = set(re.findall(r"^\| `([a-z]+)\b", docs, flags=re.M))
    assert set(ev.EVENT_TYPES) <= written, set(ev.EVENT_TYPES) - written
