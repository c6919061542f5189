"""The web ledger's HTTP side: booking, who may book, refusals, hostile requests, live updates."""
from __future__ import annotations

import json
import re
import socket
import threading
import time
from importlib import resources

import pytest

from board_ledger import report
from board_ledger.game import Game
from board_ledger.store import Store
from videopac.books.words import PAGE_WORDS
from tests.web.web_helpers import CODE, Follower, RunningServer, book, post, request, state, stored_events

SETUP = ["players Anna Bert Carla", "start Anna", 'homeland Anna "United States"', 'homeland Bert "West Germany"',
         "homeland Carla USSR", "allies Anna Canada Mexico", "allies Bert -", "allies Carla -"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "game.sqlite")


@pytest.fixture
def live(db):
    with RunningServer(db) as s:
        yield s


def setup(port: int) -> None:
    for line in SETUP:
        status, answer = book(port, line)
        assert status == 200, answer


def test_the_page_and_its_files_are_served_from_the_package_and_nothing_from_outside(live):
    status, headers, body = request(live.port, "GET", "/", headers={"accept-language": "fr, de;q=0.8, en;q=0.5"})
    assert status == 200 and b'<html lang="de">' in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert b'<html lang="en">' in request(live.port, "GET", "/", headers={"accept-language": "en-GB"})[2]
    assert b'<html lang="en">' in request(live.port, "GET", "/")[2]
    web = resources.files("videopac").joinpath("data", "web")
    for name in re.findall(rb'(?:src|href)="(/static/[^"]+)"', body):
        assert request(live.port, "GET", name.decode())[0] == 200
    for item in web.iterdir():
        text = item.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), f"{item.name} refers to something outside the package"


def test_every_word_of_the_page_exists_in_german_and_english(live):
    web = resources.files("videopac").joinpath("data", "web")
    words = {lang: json.loads(request(live.port, "GET", f"/api/words?lang={lang}")[2]) for lang in ("en", "de")}
    assert set(words["en"]) == set(words["de"]) == set(PAGE_WORDS)
    used = set(re.findall(r'\bt\("([a-z_A-Z-]+)"\s*[,)]', web.joinpath("app.js").read_text(encoding="utf-8")))
    used |= set(re.findall(r'data-t="([a-z_]+)"', web.joinpath("index.html").read_text(encoding="utf-8")))
    assert used and used <= set(PAGE_WORDS), used - set(PAGE_WORDS)
    prefixed = {"phase_": ("setup", "homelands", "alliances", "play", "final-round", "endgame", "over"),
                "kind_": ("unoccupied", "occupied", "homeland"), "weapon_": ("P", "S", "T")}
    assert {p + k for p, keys in prefixed.items() for k in keys} <= set(PAGE_WORDS)
    same = {k for k in PAGE_WORDS if words["de"][k] == words["en"][k]}
    assert same <= {"online", "zone", "col_pbr"}, same     # live, Zone, PBR: German too
    assert words["de"]["board"] == "Spielbrett" and words["en"]["board"] == "Board"
    # without ?lang the browser's language decides
    assert json.loads(request(live.port, "GET", "/api/words", headers={"accept-language": "de"})[2]) == words["de"]


def test_a_booking_is_in_the_file_before_it_is_acknowledged_and_the_view_follows(live, db):
    setup(live.port)
    status, answer = book(live.port, "attack Carla India", role="Carla")
    assert status == 200 and answer == {"ok": True, "line": "attack Carla India", "seq": len(SETUP) + 1}
    assert [e.verb for e in stored_events(db)][-1] == "attack"
    view = state(live.port)
    assert view["seq"] == len(SETUP) + 1
    assert view["contest"]["target"] == "India" and view["contest"]["defenders"] == ["Anna"]
    assert view["movers"] == ["Carla", "Anna"]
    assert view["contest"]["energy"] == {"Carla": 2500, "Anna": 2500}
    assert view["legal"]["war"] and view["legal"]["battle"]
    log = view["log"][0]
    assert log["line"] == "attack Carla India" and log["effects"][0]["kind"] == "war"
    assert log["text"]["en"].startswith("Carla attacks India") or "India" in log["text"]["en"]
    assert view["war"]["country"] == "India" and view["war_text"]["de"][0].startswith("Krieg um Indien")
    anna = next(p for p in view["players"] if p["name"] == "Anna")
    assert anna["letter"] == "A" and anna["chips"] == 2000 and anna["pbr"] == 6


def test_refusals_name_their_reason_and_change_nothing(live, db):
    setup(live.port)
    seq = state(live.port)["seq"]
    cases = [
        (dict(line="pass Carla", role="Carla", code="000000"), 403, "wrong join code"),
        (dict(line="pass Carla", role="viewer"), 403, "viewers"),
        (dict(line="pass Carla", role="Anna"), 403, "Carla's move"),
        (dict(line="pass Anna", role="Anna", code=CODE), 403, "Carla's move"),
        (dict(line="attack Carla Canada", role="Carla"), 422, "rule"),
        (dict(line="homeland Carla Peru", role="Carla"), 422, "rule 3"),
        (dict(line="fly Carla Peru", role="Carla"), 422, "unknown"),
        (dict(line="pass Carla", role="Dora"), 403, "not at this table"),
        (dict(line="pass Carla", role="Carla", seq=seq - 1), 409, "the turn has moved on"),
        (dict(line='board "/etc/passwd"', role="keeper"), 422, "terminal ledger only"),
        (dict(line="pass Carla\nundo", role="Carla"), 400, "one line"),
        (dict(line="pass Carla", role="Carla", seq="7"), 400, "seq"),
        (dict(line=["pass"], role="Carla"), 400, "line"),
        (dict(line="", role="Carla"), 422, "no action"),
    ]
    for fields, status, words in cases:
        data = {"code": CODE, "seq": seq, **fields}
        got, answer = post(live.port, "/api/book", data)
        assert (got, answer["ok"]) == (status, False), (fields, answer)
        assert words.lower() in answer["error"].lower(), (fields, answer)
    german = post(live.port, "/api/book", {"code": CODE, "seq": seq - 1, "line": "pass Carla", "role": "Carla", "lang": "de"})[1]
    assert german["error"].startswith("der Zug ist schon weiter")
    refused = post(live.port, "/api/book", {"code": CODE, "seq": seq, "line": "attack Carla Canada", "role": "Carla"})[1]
    assert refused["rule"] is not None and refused["error"].startswith(f"rule {refused['rule']}:")
    assert len(stored_events(db)) == seq and state(live.port)["seq"] == seq
    assert book(live.port, "pass Carla", role="Carla")[0] == 200        # and the right booking still goes


def test_who_may_book_follows_the_move_and_the_anyone_setting(db):
    with RunningServer(db) as s:
        setup(s.port)
        assert book(s.port, "undo", role="Anna")[0] == 403          # Carla's move, Carla's last action
        assert book(s.port, "undo", role="Carla")[0] == 200
        assert book(s.port, "allies Carla -", role="Carla")[0] == 200
        assert book(s.port, "pact Anna Bert", role="Anna")[0] == 200   # a pact is booked by its members
        assert book(s.port, "attack Carla India", role="keeper")[0] == 200
        assert book(s.port, "battle T P Anna", role="Anna")[0] == 200  # both sides of a war book its battles
        assert book(s.port, "battle T P Carla", role="Bert")[0] == 403
    with RunningServer(db, anyone=True) as s:
        assert book(s.port, "battle P S Carla", role="Bert")[0] == 200
        assert book(s.port, "battle P S Carla", role="viewer")[0] == 403


def test_hostile_requests_get_one_clear_sentence_and_change_nothing(live, db):
    setup(live.port)
    seq = len(stored_events(db))
    port = live.port
    huge = json.dumps({"code": CODE, "role": "Carla", "seq": seq, "line": "pass Carla", "pad": "x" * 100_000})
    answers = [
        request(port, "POST", "/api/book", "{not json", {"content-type": "application/json"}),
        request(port, "POST", "/api/book", "[1, 2]"),
        request(port, "POST", "/api/book", b"\xff\xfe{}"),
        request(port, "POST", "/api/book", "[" * 3000 + "]" * 3000),
        request(port, "POST", "/api/book", huge),
        request(port, "POST", "/api/book", "{}", {"content-length": "99999999999"}),
        request(port, "POST", "/api/join", json.dumps({"code": "1", "role": "Carla"})),
        request(port, "GET", "/api/book"),
        request(port, "GET", "/../../etc/passwd"),
        request(port, "GET", "/static/../ledger_web.py"),
        request(port, "GET", "/wp-admin<script>"),
        request(port, "DELETE", "/api/state"),
    ]
    statuses = [a[0] for a in answers]
    assert statuses == [400, 400, 400, 400, 413, 413, 403, 405, 404, 404, 404, 405], statuses
    for status, headers, body in answers:
        assert headers["content-type"].startswith("application/json"), body[:80]
        message = json.loads(body)["error"]
        assert message and "Traceback" not in message and "\n" not in message
    # a body sent in chunks without a length is cut off as well
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"POST /api/book HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nTransfer-Encoding: chunked\r\n\r\n" % port)
        for _ in range(20):
            sock.sendall(b"1000\r\n" + b"a" * 0x1000 + b"\r\n")
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413")
    assert len(stored_events(db)) == seq


def test_too_many_wrong_codes_lock_the_phone_out_for_a_while(live):
    for _ in range(10):
        assert post(live.port, "/api/join", {"code": "111111", "role": "keeper"})[0] == 403
    status, answer = post(live.port, "/api/join", {"code": CODE, "role": "keeper"})
    assert status == 429 and "wait" in answer["error"]


def test_names_with_markup_travel_as_data(live, db):
    status, _ = book(live.port, 'players "<script>alert(1)</script>" "<b>Bo</b>"', role="")
    assert status == 200
    status, headers, body = request(live.port, "GET", "/api/state")
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["players"][0]["name"] == "<script>alert(1)</script>"
    status, headers, body = request(live.port, "GET", "/chart.svg")
    assert status == 200 and b"<script>" not in body and b"&lt;script&gt;" in body


def test_two_phones_booking_at_the_same_moment_one_is_accepted_the_other_told_the_turn_moved_on(live, db):
    setup(live.port)
    for round_ in range(12):
        seq = state(live.port)["seq"]
        barrier = threading.Barrier(2)
        answers = []

        def phone(line: str, role: str) -> None:
            barrier.wait()
            answers.append(book(live.port, line, role=role, seq=seq))

        phones = [threading.Thread(target=phone, args=("attack Carla India", "Carla")),
                  threading.Thread(target=phone, args=("attack Carla Iran", "keeper"))]
        for p in phones:
            p.start()
        for p in phones:
            p.join(30)
        statuses = sorted(a[0] for a in answers)
        assert statuses == [200, 409], answers
        refused = next(a[1] for a in answers if a[0] == 409)
        assert "the turn has moved on" in refused["error"]
        events = stored_events(db)
        assert len(events) == seq + 1 and events[-1].verb == "attack"
        assert book(live.port, "undo", role="Carla")[0] == 200
    assert len(stored_events(db)) == len(SETUP) + 24


def test_every_phone_follows_every_booking_and_a_reconnecting_phone_catches_up(live, db):
    phones = [Follower(live.port) for _ in range(3)]
    try:
        for phone in phones:
            phone.wait(lambda v: v["seq"] == 0)
        setup(live.port)
        for phone in phones:
            assert phone.wait(lambda v: v["seq"] == len(SETUP))["phase"] == "play"
        phones[2].close()                       # one phone loses its connection ...
        assert book(live.port, "attack Carla India", role="Carla")[0] == 200
        for phone in phones[:2]:
            phone.wait(lambda v: v["contest"] is not None)
        phones[2] = Follower(live.port)         # ... and comes back
        assert phones[2].wait(lambda v: True)["contest"]["target"] == "India"
        # another process books on the same file (the terminal ledger beside the server)
        store = Store(db)
        try:
            game_id, game = store.load()
            game.play(fold_line("war Carla 1355"))
        finally:
            store.close()
        for phone in phones:
            view = phone.wait(lambda v: v["seq"] == len(SETUP) + 2)
            assert view["contest"] is None and view["log"][0]["line"] == "war Carla 1355"
    finally:
        for phone in phones:
            phone.close()


def fold_line(line: str):
    from board_ledger import notation
    return notation.parse_line(line)


def test_the_file_replays_to_what_the_phones_show(live, db):
    setup(live.port)
    for line, role in (("attack Carla India", "Carla"), ("battle T P Carla", "Carla"), ("battle S S draw", "Anna"),
                       ("battle P T Carla", "Carla"), ("war Carla 1355", "Anna"), ("undo", "Carla"),
                       ("war Carla 1300", "Anna")):
        assert book(live.port, line, role=role)[0] == 200, line
    view = state(live.port)
    replayed = report.status(Game(stored_events(db)).state)
    assert replayed["war_chest"] == view["war_chest"] and replayed["phase"] == view["phase"]
    for p, q in zip(replayed["players"], view["players"]):
        assert (p["name"], p["chips"], p["pbr"], p["homeland"]) == (q["name"], q["chips"], q["pbr"], q["homeland"])
    assert view["log"][0]["line"] == "war Carla 1300"
    assert {"kind": "paid_out", "player": "Carla", "amount": 1300} in view["log"][0]["effects"]
    assert "Carla erhält 1300 aus der Kriegskasse" in view["log"][0]["text"]["de"]
    assert [b["winner"] for b in view["log"][2]["effects"] if b["kind"] == "battle"] == [None]   # the draw


def test_the_chart_speaks_each_phones_language(live):
    setup(live.port)
    for accept, words in (("de-DE,de;q=0.9", ("Machtbasisregister", "Aktionen")),
                          ("en-GB", ("Power Base Record", "actions")), ("de", ("Machtbasisregister",))):
        status, headers, body = request(live.port, "GET", "/chart.svg", headers={"accept-language": accept})
        assert status == 200 and headers["content-type"].startswith("image/svg+xml")
        assert all(word in body.decode("utf-8") for word in words), (accept, body[:300])


def test_the_server_keeps_following_the_file_when_one_look_at_it_fails(db, monkeypatch, capfd):
    import videopac.books.connections as connections
    from board_ledger.seats import Seats
    looks = []

    def tripping(self):
        looks.append(1)
        raise RuntimeError("a general tripped")

    monkeypatch.setattr(Seats, "due", tripping)
    monkeypatch.setattr(connections.REPORT, "last", {})
    with RunningServer(db) as live:
        phone = Follower(live.port)
        try:
            phone.wait(lambda v: True)
            deadline = time.monotonic() + 20
            while len(looks) < 2 and time.monotonic() < deadline:   # the watcher looked and tripped
                time.sleep(0.05)
            store = Store(db)                    # the terminal ledger books beside the server
            try:
                game_id, game = store.load()
                store.apply(game_id, fold_line("players Anna Bert"), game)
            finally:
                store.close()
            assert phone.wait(lambda v: v["seq"] == 1)["players"]
        finally:
            phone.close()
    err = capfd.readouterr().err
    assert err.count("a general tripped") == 1 and "Traceback" not in err, err
