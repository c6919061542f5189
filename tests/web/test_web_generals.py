"""The phones' page shows the computer seats (docs/generals.md): which seats are computers,
whose move is being thought about, and the general's move with its why, in English and German,
in real chromium sessions; the server books the general's move itself after the pause."""
from __future__ import annotations

import pytest

from board_ledger import notation
from board_ledger.store import Store
from tests.ledger.ledger_helpers import stored
from tests.web.browser import Phone, attr, needs_browser
from tests.web.web_helpers import RunningServer

pytestmark = [pytest.mark.browser, pytest.mark.slow, needs_browser]


def test_the_phone_page_shows_a_computer_seat_and_its_move(tmp_path):
    db = str(tmp_path / "game.sqlite")
    stored(db, ("players Anna cpu:hard:Bert", "start Anna", 'homeland Anna "United States"'))
    phones = []
    try:
        with RunningServer(db) as server:
            english, german = Phone("en"), Phone("de")
            phones += [english, german]
            for phone in phones:
                phone.driver.get(server.url + "/")
            bert = f'#players {attr("data-player", "Bert")}'
            english.until(lambda: "computer (hard)" in english.text(bert), "Bert's seat as a computer")
            german.until(lambda: "Computer (schwer)" in german.text(bert), "in German too")
            assert "computer" not in english.text(f'#players {attr("data-player", "Anna")}')
            # the server books Bert's homeland after the pause; every phone says why
            english.until(lambda: english.text("#general-why").startswith("Bert chooses "), "Bert's why")
            german.until(lambda: german.text("#general-why").startswith("Bert wählt "), "German why")
            assert english.text("#log li:first-child code").startswith("homeland Bert ")
            # now Anna's free alliances: nobody is thinking
            assert not english.js("return !!document.querySelector('#general-thinking');")
    finally:
        for phone in phones:
            phone.quit()
    again = Store(db).load()[1]
    assert [notation.format_event(e) for e in again.events][:1] == ["players Anna cpu:hard:Bert"]
    assert again.state.player("Bert").homeland is not None
