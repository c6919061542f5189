"""The web ledger's bounds (issue 26): requests that never finish, floods of connections, proxy
headers, lone surrogates, phones that drop mid-request, SIGTERM, closed standard files and
unusable --host values. Each ends in a clear answer or a quiet close, never a hang or a traceback."""
from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time

import pytest

import videopac.books.connections as connections
from videopac.books.web import usable_host
from tests.web.web_helpers import CODE, HOST, Follower, RunningServer, ServeProcess, book, request, state, \
    stored_events

COMMAND = [sys.executable, "-m", "videopac", "--lang", "en", "ledger", "--serve"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "game.sqlite")


def stored(db: str) -> int:
    return len(stored_events(db))


def unfinished(port: int, count: int, body: bool = False) -> list[socket.socket]:
    """``count`` connections whose request stops half way: in the headers, or (``body``) in the
    body of a booking."""
    held = []
    for _ in range(count):
        sock = socket.create_connection((HOST, port), timeout=20)
        if body:
            sock.sendall(b"POST /api/book HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 200\r\n\r\n{\"code\": \"" + CODE.encode())
        else:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(sock)
    return held


def closed_by_server(sock: socket.socket) -> bool:
    """True once the server has closed ``sock`` (whatever it sent before); False after its timeout."""
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except OSError:
        return False


def limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


@pytest.mark.slow
def test_a_thousand_unfinished_requests_under_ulimit_64_leave_the_phones_answered_and_the_terminal_calm(db):
    with ServeProcess(db, preexec=limit_files) as served:
        held = unfinished(served.port, 500) + unfinished(served.port, 500, body=True)
        status, _, body = request(served.port, "GET", "/api/state")   # on the old server: no answer
        assert status == 200 and json.loads(body)["seq"] == 0
        status, answer = book(served.port, "players Anna Bert")
        assert status == 200, answer
        for sock in held:
            sock.close()
        assert served.stop(signal.SIGINT) == 0
    err = served.err
    assert "Traceback" not in err and len(err) < 2000, err[:2000]
    assert all(line.startswith("videopac ledger: ") for line in err.splitlines()), err


def test_a_request_that_does_not_arrive_whole_in_time_is_closed_and_books_nothing(db, monkeypatch):
    monkeypatch.setattr(connections, "REQUEST_SECONDS", 1.0)
    with RunningServer(db) as live:
        headers, bodies = unfinished(live.port, 3), unfinished(live.port, 3, body=True)
        keep_alive = socket.create_connection((HOST, live.port), timeout=20)   # one answer, then half a request
        keep_alive.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert keep_alive.recv(65536).startswith(b"HTTP/1.1 200")
        keep_alive.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127")
        for sock in [*headers, *bodies, keep_alive]:
            assert closed_by_server(sock)        # within the socket's 20 s: the server closed it
            sock.close()
        assert state(live.port)["seq"] == 0
    assert stored(db) == 0


def test_when_the_connections_are_all_taken_the_oldest_unfinished_request_makes_room(db, monkeypatch):
    monkeypatch.setattr(connections, "MOST_CONNECTIONS", 8)
    with RunningServer(db) as live:
        held = unfinished(live.port, 20)
        assert state(live.port)["seq"] == 0
        assert all(closed_by_server(sock) for sock in held[:12])     # the oldest twelve made room
        for sock in held:
            sock.close()


def test_at_most_half_the_connections_follow_the_game_and_one_more_ends_the_oldest_stream(db, monkeypatch):
    monkeypatch.setattr(connections, "MOST_CONNECTIONS", 8)
    with RunningServer(db, anyone=True) as live:
        followers = []
        for _ in range(6):
            followers.append(Follower(live.port))
            followers[-1].wait(lambda v: True)
        for old in followers[:2]:
            old.thread.join(20)
            assert not old.thread.is_alive(), "the oldest stream was not ended"
        assert book(live.port, "players Anna Bert")[0] == 200
        for follower in followers[2:]:
            assert follower.wait(lambda v: v["seq"] == 1)["players"]
        for follower in followers:
            follower.close()


def test_a_client_that_reads_nothing_of_its_answers_is_cut_off(db, monkeypatch):
    monkeypatch.setattr(connections, "WRITE_SECONDS", 1.0)
    with RunningServer(db) as live:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(30)
        sock.connect((HOST, live.port))
        sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 400)   # 8 MB of answers
        held = live.server.server_state.connections
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:        # the server takes the connection
            time.sleep(0.05)
        assert held
        while held and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not held, "the server still holds the connection"
        assert closed_by_server(sock)
        sock.close()
        assert state(live.port)["seq"] == 0


def test_proxy_headers_give_no_fresh_allowance_of_wrong_codes(db):
    with RunningServer(db) as live:
        statuses = []
        for k in range(12):
            status, _, _ = request(live.port, "POST", "/api/join", json.dumps({"code": "000000", "role": "keeper"}),
                                   {"content-type": "application/json", "x-forwarded-for": f"10.0.0.{k}",
                                    "forwarded": f"for=10.0.1.{k}", "x-real-ip": f"10.0.2.{k}"})
            statuses.append(status)
    assert statuses == [403] * 10 + [429] * 2


def test_a_lone_surrogate_in_the_code_the_line_or_the_seat_is_one_sentence_and_books_nothing(db, capfd):
    with RunningServer(db) as live:
        for path, body in [("/api/join", '{"code": "\\ud800", "role": "keeper"}'),
                           ("/api/book", '{"code": "\\udfff' + CODE + '", "role": "keeper", "seq": 0, "line": "players A B"}'),
                           ("/api/book", '{"code": "' + CODE + '", "role": "keeper", "seq": 0, "line": "players \\ud800 B"}'),
                           ("/api/book", '{"code": "' + CODE + '", "role": "\\ud800", "seq": 0, "line": "players A B"}'),
                           ("/api/join", '{"code": "' + CODE + '", "role": "keeper", "lang": "\\ud800"}')]:
            status, _, answer = request(live.port, "POST", path, body, {"content-type": "application/json"})
            assert status == 400 and "lone surrogate" in json.loads(answer)["error"], answer
    assert stored(db) == 0
    assert "Traceback" not in capfd.readouterr().err


def drop_mid_booking(port: int) -> None:
    """A phone that sends half of a booking and loses its network."""
    sock = unfinished(port, 1, body=True)[0]
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    time.sleep(0.2)
    sock.close()                       # linger 0: a reset, as a phone leaving the network


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_dropped_phone_and_a_stop_with_a_booking_in_flight_end_quietly_and_book_nothing(db, sig):
    with ServeProcess(db) as served:
        drop_mid_booking(served.port)
        assert book(served.port, "players Anna Bert")[0] == 200
        in_flight = unfinished(served.port, 1, body=True)[0]
        time.sleep(0.3)
        assert served.stop(sig) == 0           # SIGTERM used to kill it: exit 143
        in_flight.close()
    assert "Stopped; every booked action is in the file." in served.out
    assert served.err == "", served.err
    assert stored(db) == 1


def test_host_must_be_an_address_to_listen_on(db):
    for host in ["", " ", "0", "127.1", "http://x", "a b", "host:80", "x" * 300]:
        assert not usable_host(host), host
    for host in ["127.0.0.1", "0.0.0.0", "::", "[::1]", "localhost", "mypc.local", "tisch-2"]:
        assert usable_host(host), host
    for host in ["", "0"]:                      # '' and '0' listened on every interface
        result = subprocess.run(COMMAND + ["--db", db, "--port", "0", "--host", host],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, (host, result.stdout)
        assert result.stderr.startswith("videopac ledger: --host ") and result.stderr.count("\n") == 1
        assert "0.0.0.0" in result.stderr and "Traceback" not in result.stderr
    assert not os.path.exists(db)


def test_a_closed_standard_output_is_one_sentence_and_a_closed_standard_input_does_not_matter(db):
    result = subprocess.run(COMMAND + ["--db", db, "--port", "0"], capture_output=True, text=True,
                            timeout=60, preexec_fn=lambda: os.close(1))
    assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert "cannot write the standard output" in result.stderr and "Traceback" not in result.stderr
    with ServeProcess(db, preexec=lambda: os.close(0)) as served:
        assert state(served.port)["seq"] == 0
        assert served.stop(signal.SIGTERM) == 0
    assert served.err == ""
