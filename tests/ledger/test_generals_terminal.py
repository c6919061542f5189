"""The computer generals in the terminal ledger, through a pty as a person types: after the
person's line the general thinks, books its move after the pause and says why, in English and
German; `status` marks the computer seats; a person takes the seat over (docs/generals.md)."""
from __future__ import annotations

import pytest

from board_ledger.store import Store
from ledger_helpers import Terminal


@pytest.mark.parametrize("lang,thinking,why,seat", [
    ("en", "Bert (computer) is thinking ...", "Bert chooses ", "computer (hard)"),
    ("de", "Bert (Computer) überlegt ...", "Bert wählt ", "Computer (schwer)"),
])
def test_the_general_moves_after_the_person_and_says_why(tmp_path, lang, thinking, why, seat):
    db = str(tmp_path / "g.sqlite")
    terminal = Terminal({"LC_ALL": "C.UTF-8"}, ("--db", db, "--pause", "0.2"), lang)
    try:
        terminal.exchange(b"", b"> ")
        answer = terminal.exchange(b"players Anna cpu:hard:Bert\n", b"> ")
        answer += terminal.exchange('start Anna\n'.encode(), b"> ")
        answer += terminal.exchange('homeland Anna "United States"\n'.encode(), b"> ")
        assert thinking in answer and why in answer, answer
        answer = terminal.exchange(b"status\n" if lang == "en" else b"stand\n", b"> ")
        assert seat in answer, answer
        answer = terminal.exchange(b"seat Bert person\n", b"> ")
        assert "seat Bert person" in answer or "platz Bert mensch" in answer, answer
    finally:
        assert terminal.quit() == 0
    game = Store(db).load()[1]
    assert game.state.player("Bert").homeland is not None
    assert game.state.player("Bert").general == ""
