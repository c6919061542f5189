"""The board as package data: 43 countries, 11 zones, printed order, values, names and aliases."""
from __future__ import annotations

import pytest

from board_ledger.board import parse_board, standard_board
from board_ledger.errors import LedgerError, UnknownName
from ledger_helpers import Terminal


def test_package_board_is_the_shared_board(root):
    candidates = [up / "shared" / "data" / "board.csv" for up in (root.parent, root.parent.parent)]
    shared = next((path for path in candidates if path.exists()), None)
    if shared is None:
        pytest.skip("the shared data directory is not beside this checkout")
    assert (root / "board_ledger/data/board.csv").read_bytes() == shared.read_bytes()


def test_board_has_43_countries_in_11_zones_worth_230():
    board = standard_board()
    assert len(board.countries) == 43 and len(board.zones) == 11 and board.total == 230
    assert [c.name for c in board.zones[4]] == ["Greece", "Italy", "West Germany", "Spain", "France",
                                                "United Kingdom", "Norway"]
    assert board["United States"].value == 30 and board["Bangladesh"].value == 2


@pytest.mark.parametrize("alias,country", [
    ("USA", "United States"), ("US", "United States"), ("united states", "United States"),
    ("UK", "United Kingdom"), ("Great Britain", "United Kingdom"), ("united kingdom", "United Kingdom"),
    ("USSR", "U.S.S.R."), ("U.S.S.R.", "U.S.S.R."), ("Soviet Union", "U.S.S.R."),
    ("west germany", "West Germany"), ("BRD", "West Germany"), ("FRG", "West Germany"),
    ("East Germany", "East Germany"), ("DDR", "East Germany"), ("GDR", "East Germany"),
    ("Colombia", "Columbia"), ("Columbia", "Columbia"), ("  south   KOREA ", "South Korea"),
])
def test_names_and_aliases_match_case_insensitively(alias, country):
    assert standard_board().lookup(alias).name == country


def test_unknown_name_suggests_the_closest():
    with pytest.raises(UnknownName, match="unknown country 'Inda' \\(did you mean 'India'\\?\\)"):
        standard_board().lookup("Inda")


@pytest.mark.parametrize("typed,meant", [("Ca", "Canada"), ("ca", "Canada"), ("Cu", "Cuba"),
                                         ("Indo", "Indonesia"), ("Westdeutschl", "West Germany")])
def test_a_name_cut_short_suggests_the_country_it_begins(typed, meant):
    """'Ca' is closer to 'Cuba' than to 'Canada' by spelling alone (difflib), but it is how
    Canada begins: the start of a name wins."""
    with pytest.raises(UnknownName, match=f"\\(did you mean '{meant}'\\?\\)"):
        standard_board().lookup(typed)


def test_repl_completes_ca_to_canada_and_carla_through_a_terminal(tmp_path):
    """TAB in the terminal ledger (a pty, as a person types): 'Ca' offers Canada and the player
    Carla, and a line that ends in 'Ca' is refused with Canada as the suggestion."""
    terminal = Terminal()
    exchange = terminal.exchange
    try:
        exchange(b"", b"> ")
        exchange(b"players Anna Bert Carla\n", b"setup> ")
        exchange(b"start Anna\n", b"homelands> ")
        shown = exchange(b"homeland Anna Ca\t\t", b"Carla ")
        assert "Canada" in shown and "Cuba" not in shown
        answer = exchange(b"\x15homeland Anna Ca\n", b"?)")   # not the prompt ^U redraws
        assert "did you mean 'Canada'?" in answer
    finally:
        terminal.quit()


def test_neighbours_follow_the_printed_order():
    board = standard_board()
    assert [c.name for c in board.neighbours("West Germany")] == ["Italy", "Spain"]
    assert [c.name for c in board.neighbours("Canada")] == ["United States"]
    assert [c.name for c in board.neighbours("Norway")] == ["United Kingdom"]
    assert board.neighbours("Australia") == []


@pytest.mark.parametrize("text,reason", [
    ("name,value\nX,1\n", "needs the columns"),
    ("zone,position,country,pbu\n1,1,X,lots\n", "line 2"),
    ("zone,position,country,pbu\n1,1,X,1\n2,1,x,2\n", "names a country twice"),
    ("zone,position,country,pbu\n", "holds no countries"),
])
def test_bad_board_files_are_refused_with_a_reason(text, reason):
    with pytest.raises(LedgerError, match=reason):
        parse_board(text, "my.csv")
