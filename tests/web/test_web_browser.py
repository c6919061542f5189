"""The web ledger in real browsers: three phones play a short game by tapping (issue 18)."""
from __future__ import annotations

import pytest

from board_ledger import notation, report
from board_ledger.game import Game
from board_ledger.store import Store
from tests.web.browser import PHONE, Phone, attr, needs_browser
from tests.web.web_helpers import CODE, RunningServer, book, state

pytestmark = [pytest.mark.browser, pytest.mark.slow, needs_browser]



@pytest.fixture
def phones():
    made: list[Phone] = []

    def make(lang: str = "en") -> Phone:
        made.append(Phone(lang))
        return made[-1]

    yield make
    for phone in made:
        phone.quit()


def opened(phone: Phone, url: str) -> None:
    """Open the page and mark this visit, so a later check can tell it was never reloaded."""
    phone.driver.get(url)
    phone.until(lambda: phone.seq() == 0, "the first view")
    phone.js("window.sameVisit = true;")


def everyone_sees(sessions: list[Phone], seq: int) -> None:
    """Every session shows event ``seq`` on the page it opened at the start: the booking reached it
    live, over its event stream, without a reload. The page takes views only from its stream, and
    the server wakes every stream the moment a booking is committed; the wait (browser.WAIT) is a
    guard against a hang on a loaded machine, not a speed claim."""
    for phone in sessions:
        phone.until(lambda: phone.seq() == seq, f"event {seq} on every phone (one shows {phone.seq()})")
        assert phone.js("return window.sameVisit === true;"), "the page was loaded again"


def test_three_phones_play_a_short_game_by_tapping(tmp_path, phones):
    db = str(tmp_path / "game.sqlite")
    with RunningServer(db) as server:
        anna, bert, viewer = phones("en"), phones("en"), phones("de")
        sessions = [anna, bert, viewer]
        for phone in sessions:
            opened(phone, server.url + "/")
        seq = 0

        def booked(by: Phone, line: str) -> None:
            """The tap booked ``line``: it is acknowledged on the phone and every phone shows it."""
            nonlocal seq
            by.until(lambda: by.text("#message") == f"Booked: {line}" or by.text("#message") == f"Gebucht: {line}",
                     f"booking {line}")
            seq += 1
            everyone_sees(sessions, seq)
            assert all(p.text("#log li:first-child code") == line for p in sessions if line != "undo")

        # the German viewer: the page follows the browser's language, the switch changes it
        assert viewer.js("return document.documentElement.lang;") == "de"
        assert viewer.text("#board-box h2") == "Spielbrett" and "Vorbereitung" in viewer.text("#turn")
        viewer.tap(attr("data-role", "viewer"))
        anna.screenshot("web-join.png")

        # setup: the first phone seats the players, then each phone picks its seat
        anna.type("#code-input", CODE)
        anna.tap(attr("data-role", ""))
        anna.type("#names-input", "Anna Bert")
        anna.tap("#seat-players")
        booked(anna, "players Anna Bert")
        anna.tap(attr("data-role", "Anna"))
        bert.type("#code-input", CODE)
        bert.tap(attr("data-role", "Bert"))
        anna.tap(attr("data-line", "start Anna"))
        booked(anna, "start Anna")

        def on_the_board(by: Phone, countries: list[str], line: str) -> None:
            """Tap the countries, then the button that books ``line``."""
            for country in countries:
                by.tap(attr("data-country", country))
            by.tap(attr("data-line", line))
            booked(by, line)

        # homelands and the free alliances, by tapping countries on the board
        on_the_board(anna, ["United States"], 'homeland Anna "United States"')
        assert bert.text("#who-books") == "This phone may book now."
        on_the_board(bert, ["West Germany"], 'homeland Bert "West Germany"')
        on_the_board(anna, ["Canada", "Mexico"], "allies Anna Canada Mexico")
        on_the_board(bert, ["Spain"], "allies Bert Spain")
        assert viewer.text(f'#players {attr("data-player", "Anna")} .chips') == "2000"   # zone 1 bonus
        assert viewer.text("#turn-text") == "Bert ist am Zug"
        assert viewer.text(f'{attr("data-country", "West Germany")} .cname') == "Westdeutschland"
        assert bert.text(f'{attr("data-country", "West Germany")} .cname') == "West Germany"
        bert.screenshot("web-board.png", "#board-box")

        # Anna may not book Bert's move; the viewer books nothing
        assert anna.js("return document.querySelector('[data-line=\"pass Bert\"]').disabled;")
        assert viewer.js("return [...document.querySelectorAll('button.act')].every(b => b.disabled);")

        # a war of three battles
        on_the_board(bert, ["India"], "attack Bert India")
        for by, (aw, dw, winner) in ((bert, ("T", "P", "Bert")), (anna, ("S", "S", "draw")), (bert, ("P", "T", "Bert"))):
            by.tap(attr("data-group", "aw") + attr("data-value", aw))
            by.tap(attr("data-group", "dw") + attr("data-value", dw))
            by.tap(attr("data-group", "winner") + attr("data-value", winner))
            by.tap("#book-battle")
            booked(by, f"battle {aw} {dw} {winner}")
        assert viewer.text("#war-line").startswith("Bert greift an, Anna verteidigt: 2–0 nach 3 von 3")
        assert viewer.js("return [...document.querySelectorAll('#battles li')].map(li => li.textContent);") == [
            "Panzer – Flugzeug: Bert", "U-Boot – U-Boot: unentschieden", "Flugzeug – Panzer: Bert"]
        assert anna.text(f'#contest {attr("data-player", "Bert")} .weapons') == "plane, tank"
        assert anna.text(f'#contest {attr("data-player", "Anna")} .weapons') == "–"   # all three lost
        bert.screenshot("web-war.png", "#contest")

        # the booking of the war's result; a refusal names its rule and changes nothing
        bert.type(attr("data-player", "Bert") + ".result-energy", "3000")
        bert.tap(attr("data-result", "Bert"))
        bert.until(lambda: bert.text("#message").startswith("Refused: rule 10: "), "the refusal")
        assert state(server.port)["seq"] == seq
        bert.type(attr("data-player", "Bert") + ".result-energy", "1355")
        bert.tap(attr("data-result", "Bert"))
        booked(bert, "war Bert 1355")
        assert anna.text(f'#players {attr("data-player", "Bert")} .chips') == "1400"
        assert "Bert receives 1400 from the war chest" in anna.text("#log li:first-child .effects")
        assert "Bert erhält 1400 aus der Kriegskasse" in viewer.text("#log li:first-child .effects")
        assert [li.strip() for li in viewer.js("return [...document.querySelectorAll('#battles li')]"
                                               ".map(li => li.textContent);")] == []   # the war is over

        # undo, seen everywhere, then booked again
        anna_chips = anna.text(f'#players {attr("data-player", "Bert")} .chips')
        bert.tap(attr("data-line", "undo"))
        booked(bert, "undo")
        for phone in sessions:
            assert phone.text(f'#players {attr("data-player", "Bert")} .chips') == "0" != anna_chips
            assert phone.js("return !document.getElementById('contest').hidden;")
        bert.type(attr("data-player", "Bert") + ".result-energy", "1355")
        bert.tap(attr("data-result", "Bert"))
        booked(bert, "war Bert 1355")
        on_the_board(bert, ["Bangladesh"], "ally Bert Bangladesh")
        bert.tap(attr("data-line", "pass Bert"))
        booked(bert, "pass Bert")
        assert anna.text("#turn-text") == "Turn of Anna" and viewer.text("#turn-text") == "Anna ist am Zug"
        anna.screenshot("web-log.png", "#log-box")
        viewer.screenshot("web-viewer-de.png")

        # a phone-sized page shows the board without horizontal scrolling
        for phone in sessions:
            width = phone.js("return window.innerWidth;")
            assert width == PHONE[0]
            assert phone.js("return document.documentElement.scrollWidth;") <= width
            assert phone.js("return document.getElementById('board').getBoundingClientRect().right;") <= width

        # the language switch
        viewer.tap(".lang[data-lang='en']")
        viewer.until(lambda: viewer.text("#board-box h2") == "Board", "the English page")

        view = state(server.port)
    # the file replays to the state every phone showed
    store = Store(db)
    try:
        events = store.events(store.latest_game())
    finally:
        store.close()
    assert len(events) == seq == view["seq"]
    replayed = report.status(Game(events).state)
    assert replayed["war_chest"] == view["war_chest"] and replayed["turn"] == view["turn"]
    assert [(p["name"], p["chips"], p["pbr"]) for p in replayed["players"]] == \
        [(p["name"], p["chips"], p["pbr"]) for p in view["players"]] == [("Anna", 2000, 6), ("Bert", 400, 9)]


def test_names_with_markup_are_shown_as_text_and_never_run(tmp_path, phones):
    db = str(tmp_path / "game.sqlite")
    with RunningServer(db) as server:
        evil = "<img src=x onerror=document.title='owned'>"
        assert book(server.port, f'players "{evil}" "<script>document.title=1</script>"', role="")[0] == 200
        phone = phones("en")
        phone.driver.get(server.url + "/")
        phone.until(lambda: phone.seq() == 1, "the view")
        assert phone.text("#players tr:nth-child(2) .name") == evil
        assert phone.js("return document.querySelectorAll('#players img, #players script, main script').length;") == 0
        assert phone.driver.title == "Conquest of the World"


def test_a_phone_that_lost_the_server_catches_up_when_it_is_back(tmp_path, phones):
    db = str(tmp_path / "game.sqlite")
    with RunningServer(db) as server:
        port = server.port
        assert book(port, "players Anna Bert", role="")[0] == 200
        phone = phones("en")
        phone.driver.get(server.url + "/")
        phone.until(lambda: phone.seq() == 1, "the first view")
        phone.until(lambda: phone.text("#live") == "live", "the live mark")
    # the server is gone: the page says so, and meanwhile the terminal ledger books on the file
    phone.until(lambda: phone.text("#live").startswith("offline"), "the offline mark")
    store = Store(db)
    try:
        _, game = store.load()
        game.play(notation.parse_line("start Bert"))
    finally:
        store.close()
    with RunningServer(db, port=port):
        phone.until(lambda: phone.seq() == 2, "the catch-up after reconnecting")
        assert phone.text("#live") == "live" and phone.text("#log li:first-child code") == "start Bert"
