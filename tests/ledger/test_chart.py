"""The PBR chart stays a handful of grid lines for any PBR, and the ledger takes no country value
the board cannot show (issue 26: an 18-digit value drew one grid line per 200 PBR, for ever)."""
from __future__ import annotations

import copy
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from board_ledger.board import MAX_VALUE, parse_board
from board_ledger.chart import GRID_LINES, grid_step, pbr_svg
from board_ledger.errors import LedgerError, RuleError
from ledger_helpers import SETUP3, play, refused

GRID = re.compile(r'<line [^>]*stroke="#ddd"/>\s*<text [^>]*>(\d+)</text>')


def test_the_chart_of_a_million_pbr_has_at_most_twelve_grid_lines_and_reaches_the_top():
    states = play(SETUP3).states
    high = copy.deepcopy(states[-1])
    high.players[0].halves = 2 * 10 ** 6                 # a PBR of a million, made by hand
    labels = [int(v) for v in GRID.findall(pbr_svg([*states, high]))]
    assert 2 <= len(labels) <= GRID_LINES + 2          # 0, the steps, one above the top
    assert labels[0] == 0 and labels[-1] > 10 ** 6
    assert len(set(b - a for a, b in zip(labels, labels[1:]))) == 1     # even steps


@given(st.integers(min_value=0, max_value=10 ** 30))
@example(2 * 10 ** 27 + 1)                            # 2.5 as a float times 10**26 is not whole
def test_the_grid_step_reaches_any_pbr_in_at_most_ten_steps_and_no_fewer_than_needed(top):
    step = grid_step(top)
    assert top <= step * GRID_LINES
    digits = str(step).rstrip("0")
    assert digits in ("1", "2", "25", "5")            # 1, 2, 2.5 or 5 times a power of ten
    assert step == 1 or top > step * GRID_LINES / 2.5   # a smaller step of that form would do


def test_the_printed_board_keeps_its_small_grid():
    assert [grid_step(t) for t in (10, 11, 30, 51, 230, 2000)] == [1, 2, 5, 10, 25, 200]


def test_a_country_value_beyond_the_pbr_track_is_refused_and_the_track_length_is_taken():
    game = play("")
    error = refused(game, "value Canada 999999999999999999")
    assert isinstance(error, RuleError) and error.rule == "variant 3"
    assert f"at most {MAX_VALUE}" in str(error)
    refused(game, f"value Canada {MAX_VALUE + 1}")
    game = play(f"value Canada {MAX_VALUE}", game=game)
    assert game.state.board["Canada"].value == MAX_VALUE


def test_a_board_file_with_a_value_beyond_the_pbr_track_is_refused_naming_the_line():
    with pytest.raises(LedgerError, match=f"line 3: a country's value is at most {MAX_VALUE}"):
        parse_board(f"zone,position,country,pbu\n1,1,X,{MAX_VALUE}\n1,2,Y,{MAX_VALUE + 1}\n", "my.csv")
