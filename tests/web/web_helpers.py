"""A web ledger server on 127.0.0.1 for the tests, and small HTTP clients that talk to it."""
from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
from typing import Any, Callable

from board_ledger import notation, report
from board_ledger.game import Game
from board_ledger.store import Store
from videopac.books.web import bind, create_app, server

CODE = "424242"
HOST = "127.0.0.1"       # tests never listen beyond this machine


class RunningServer:
    """``with RunningServer(db) as s:`` serves ``db`` on a free port of 127.0.0.1 and always stops."""

    def __init__(self, db: str, code: str = CODE, anyone: bool = False, port: int = 0,
                 hosts: tuple[str, ...] = ()) -> None:
        self.sock = bind(HOST, port)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{HOST}:{self.port}"
        self.server = server(create_app(db, code, anyone, hosts))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "RunningServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the web ledger did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()
        assert not self.thread.is_alive(), "the web ledger did not stop"

    def __exit__(self, *exc: object) -> None:
        self.stop()


def request(port: int, method: str, path: str, body: bytes | str | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=20)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def post(port: int, path: str, data: Any) -> tuple[int, dict[str, Any]]:
    status, _, body = request(port, "POST", path, json.dumps(data), {"content-type": "application/json"})
    return status, json.loads(body)


def state(port: int) -> dict[str, Any]:
    status, _, body = request(port, "GET", "/api/state")
    assert status == 200
    return json.loads(body)


def book(port: int, line: str, role: str = "keeper", seq: int | None = None, code: str = CODE) -> tuple[int, dict]:
    if seq is None:
        seq = state(port)["seq"]
    return post(port, "/api/book", {"code": code, "role": role, "seq": seq, "line": line})


class Follower:
    """A phone's live connection: reads the server-sent events and keeps the latest view."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.view: dict[str, Any] | None = None
        self.views = 0
        self.changed = threading.Condition()
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)
        self.conn.request("GET", "/api/stream")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("content-type").startswith("text/event-stream")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event, data = None, []
        try:
            for raw in self.response:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "" and event == "view":
                    with self.changed:
                        self.view = json.loads("\n".join(data))
                        self.views += 1
                        self.changed.notify_all()
                    event, data = None, []
                elif line == "":
                    event, data = None, []
        except (OSError, ValueError, http.client.HTTPException):
            return

    def wait(self, test: Callable[[dict[str, Any]], bool], timeout: float = 10) -> dict[str, Any]:
        """The first view that passes ``test``; AssertionError if none comes in ``timeout`` seconds."""
        with self.changed:
            ok = self.changed.wait_for(lambda: self.view is not None and test(self.view), timeout)
            assert ok, f"no such view within {timeout} s; the last one has seq {self.view and self.view['seq']}"
            return self.view

    def close(self) -> None:
        """Drop the connection as a phone losing its network would."""
        try:
            self.conn.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.thread.join(10)
        self.conn.close()


def quote(name: str) -> str:
    return f'"{name}"' if any(c in name for c in ' #+"') else name


def legal_lines(view: dict[str, Any], rng: random.Random) -> list[str]:
    """Notation lines the view's legal actions allow, as the page's buttons would book them."""
    legal = view["legal"]
    lines = [f"start {quote(n)}" for n in legal["start"]]
    if legal["homeland"]:
        lines += [f"homeland {quote(view['movers'][0])} {quote(c)}" for c in legal["homeland"]]
    if legal["allies"]:
        lines.append(f"allies {quote(legal['allies']['player'])} -")
    for kind in ("attack", "ally"):
        lines += [f"{kind} {'+'.join(map(quote, a['side']))} {quote(a['country'])}" for a in legal[kind]]
    if legal["pass"]:
        lines.append(f"pass {quote(legal['pass'])}")
    if legal["battle"]:
        weapons = rng.choice(legal["battle"]["weapons"])
        winner = rng.choice(legal["battle"]["winners"]) or "draw"
        lines.append(f"battle {weapons[0]} {weapons[1]} {quote(winner)}")
    for r in legal["war"] or []:
        lines.append(f"war {quote(r['winner'])} {rng.randint(0, r['most'])}")
    for r in legal["survivor"] or []:
        lines.append(f"survivor {quote(r['player'])} {rng.randint(0, r['most'])}")
    if legal["challenge"]:
        lines.append("challenge " + " ".join(map(quote, legal["challenge"])))
    lines += ["pact " + " ".join(map(quote, pair)) for pair in legal["pact"]]
    return lines



class ServeProcess:
    """`videopac ledger --serve` as its own process on a free port of 127.0.0.1, as a person starts
    it in a terminal; ``stop(signal)`` ends it as Ctrl+C (SIGINT) or a service manager (SIGTERM)
    would and returns its exit status. ``preexec`` runs in the child first (a limit on files);
    standard error goes to a file, so a flood of it cannot block the server, and is in ``err``."""

    def __init__(self, db: str, *args: str, preexec: Callable[[], None] | None = None) -> None:
        import re
        import subprocess
        import sys
        import tempfile
        self.errfile = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "videopac", "--lang", "en", "ledger", "--serve",
                                      "--db", db, "--port", "0", "--code", CODE, *args],
                                     stdout=subprocess.PIPE, stderr=self.errfile, text=True,
                                     preexec_fn=preexec)
        self.out = ""
        deadline = time.monotonic() + 60
        while "Ctrl+C" not in self.out:
            line = self.proc.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the web ledger did not start: " + self.out + self.err)
            self.out += line
        self.port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", self.out).group(1))
        self.pid = self.proc.pid

    @property
    def err(self) -> str:
        """Everything the server wrote to standard error so far."""
        if self.errfile.closed:
            return self._err
        self.errfile.seek(0)
        return self.errfile.read().decode("utf-8", "replace")

    def stop(self, sig: int = 2, timeout: float = 30) -> int:
        """Send ``sig`` and wait for the end; the rest of standard output lands in ``out``."""
        self.proc.send_signal(sig)
        out, _err = self.proc.communicate(timeout=timeout)
        self.out += out
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()

    def __enter__(self) -> "ServeProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()
        self._err = self.err
        self.errfile.close()


def stored_events(db: str) -> list:
    """The events of the latest game in the file ``db``."""
    store = Store(db)
    try:
        return store.events(store.latest_game())
    finally:
        store.close()


def assert_replays(db: str, acked: list[tuple[int, str]], final: dict[str, Any]) -> None:
    """Every acknowledged booking (seq, line) is in the file once, in its place, nothing else is,
    and the file replays to the ``final`` view the phones saw."""
    events = stored_events(db)
    assert len(events) == final["seq"] == len(acked)              # nothing lost, nothing doubled
    assert sorted(seq for seq, _ in acked) == list(range(1, len(acked) + 1))
    for seq, line in acked:
        assert notation.format_event(events[seq - 1]) == line
    replayed = report.status(Game(events).state)
    assert replayed["war_chest"] == final["war_chest"] and replayed["phase"] == final["phase"]
    assert [(p["name"], p["chips"], p["pbr"]) for p in replayed["players"]] == \
        [(p["name"], p["chips"], p["pbr"]) for p in final["players"]]
