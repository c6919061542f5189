"""The web ledger answers only at the addresses it serves on (docs/web.md, "Addresses"): a page
from the internet whose name is pointed at this machine (DNS rebinding) is refused in one sentence
and books nothing, while this computer's names, the address the terminal shows and the names given
with --allow-host work; phones on a (private, made-up) local network reach the server as at a table."""
from __future__ import annotations

import json
import pathlib
import shutil
import socket
import subprocess
import sys

import pytest

from board_ledger.store import Store
from tests.web.web_helpers import CODE, RunningServer, request, state

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAN = "198.51.100.7"        # TEST-NET-2 (RFC 5737): an address no real network uses
REFUSAL = ("this server answers only at the address shown in its terminal, not at rebind.example; open "
           "that address, or start the server with --allow-host rebind.example to use this name too")


def answer(port: int, host: str | None, method: str = "GET", path: str = "/api/state",
           body: dict | None = None, lang: str = "en") -> tuple[int, dict, dict]:
    """One request naming ``host`` in its Host header: status, the JSON answer (or {}), headers."""
    headers = {"accept-language": lang, "content-type": "application/json"}
    if host is not None:
        headers["host"] = host
    status, got, raw = request(port, method, path, json.dumps(body) if body is not None else None, headers)
    try:
        data = json.loads(raw)
    except ValueError:
        data = {}
    return status, data if isinstance(data, dict) else {"view": data}, got


def events(db: str) -> int:
    store = Store(db)
    try:
        return len(store.events(store.latest_game()))
    finally:
        store.close()


def test_a_page_that_names_another_host_reads_nothing_and_books_nothing(tmp_path):
    db = str(tmp_path / "game.sqlite")
    with RunningServer(db) as server:
        port = server.port
        booking = {"code": CODE, "role": "keeper", "seq": 0, "line": "players Anna Bert"}
        for method, path, body in (("GET", "/", None), ("GET", "/api/state", None), ("GET", "/api/stream", None),
                                   ("GET", "/chart.svg", None), ("GET", "/static/app.js", None),
                                   ("POST", "/api/join", {"code": CODE, "role": "keeper"}),
                                   ("POST", "/api/book", booking)):
            status, data, headers = answer(port, f"rebind.example:{port}", method, path, body)
            assert status == 403, (method, path)
            if path.startswith("/api/"):               # the page's requests: JSON as every refusal
                assert data == {"ok": False, "rule": None, "error": REFUSAL}
            else:                                      # a person opening the page: the sentence
                raw = request(port, method, path, headers={"host": f"rebind.example:{port}"})[2]
                assert headers["content-type"] == "text/plain; charset=utf-8" and raw.decode() == REFUSAL + "\n"
            assert "script-src 'self'" in headers["content-security-policy"]
        assert events(db) == 0 and state(port)["seq"] == 0          # nothing booked, the game intact
        status, data, _ = answer(port, f"Rebind.Example.:{port}", lang="de")
        assert status == 403 and data["error"].startswith("dieser Server antwortet nur unter der Adresse, "
                                                          "die sein Terminal zeigt, nicht unter rebind.example")
        assert "--allow-host rebind.example" in data["error"]
        status, data, _ = answer(port, "localhost:8048", "POST", "/api/book", booking)   # the right one
        assert status == 200 and data["ok"] and events(db) == 1


def test_this_computers_names_and_its_address_are_answered(tmp_path):
    with RunningServer(str(tmp_path / "game.sqlite")) as server:
        port = server.port
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"LOCALHOST.:{port}",
                     f"[::1]:{port}", f"[::ffff:127.0.0.1]:{port}"):
            status, data, _ = answer(port, host)
            assert status == 200 and data["seq"] == 0, host


def test_a_missing_or_malformed_host_is_refused_in_one_sentence(tmp_path):
    with RunningServer(str(tmp_path / "game.sqlite")) as server:
        port = server.port
        for host in (f"127.0.0.1:{port}:1", f"127.0.0.1:x{port}", "[::1", ":8048", "::1", "a" * 400):
            status, data, _ = answer(port, host)
            assert status == 403 and data["error"] == ("the request names no host this server answers "
                                                       "at; open the address shown in the terminal"), host
        with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:   # HTTP/1.0: no Host
            raw.sendall(b"GET /api/state HTTP/1.0\r\n\r\n")
            reply = b""
            while chunk := raw.recv(65536):
                reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 403") and b"names no host" in body and b'"seq"' not in body


def test_allow_host_adds_a_name_the_phones_use(tmp_path):
    with RunningServer(str(tmp_path / "game.sqlite"), hosts=("Table.Local", "[fd00::5]")) as server:
        port = server.port
        assert answer(port, f"table.local:{port}")[0] == 200
        assert answer(port, f"[fd00:0::5]:{port}")[0] == 200
        assert answer(port, f"other.local:{port}")[0] == 403


def test_allow_host_takes_a_name_or_an_address_only(tmp_path):
    for bad in ("http://mypc.local", "mypc.local:8048", "my pc", "", "a..b", "<x>"):
        result = subprocess.run([sys.executable, "-m", "videopac", "--lang", "en", "ledger", "--serve",
                                 "--db", str(tmp_path / "g.sqlite"), "--port", "0", "--allow-host", bad],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, bad
        assert result.stderr.count("\n") == 1 and "--allow-host" in result.stderr and "is not a host name" in result.stderr
    assert not (tmp_path / "g.sqlite").exists()


def private_network() -> list[str] | None:
    """The command prefix that runs a program in a network of its own (no way out) whose loopback
    also has the address LAN as its default route; None if this machine cannot make one. The
    program is the first process of its own process namespace too: when it ends, or unshare is
    killed (a timeout), every process it started ends with it, the server included."""
    if not (shutil.which("unshare") and shutil.which("ip")):
        return None
    setup = (f"ip link set lo up && ip addr add {LAN}/24 dev lo && ip route add default dev lo src {LAN}"
             ' && exec "$@"')
    prefix = ["unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child",
              "sh", "-c", setup, "sh"]
    try:
        ok = subprocess.run(prefix + ["true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return prefix if ok else None


@pytest.mark.slow
def test_phones_on_the_local_network_join_at_the_address_shown_and_a_rebound_name_does_not(tmp_path):
    prefix = private_network()
    if prefix is None:
        pytest.skip("no private network namespace here (unshare --user --net and ip are needed)")
    db = tmp_path / "game.sqlite"
    result = subprocess.run(prefix + [sys.executable, "-m", "tests.web.lan_table", "--db", str(db),
                                      "--allow-host", "table.example"],
                            capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert f"phones on the local network join at http://{LAN}:" in report["out"], report
    assert report["shown"] == LAN
    answers = report["answers"]
    for name in ("shown", "localhost", "other address", "allowed name", "after"):
        status, body = answers[name]
        assert status == 200 and json.loads(body)["seq"] == 0, (name, body)   # 127.0.0.2: a second address
    for name in ("rebound name", "rebound booking"):
        status, body = answers[name]
        assert status == 403 and "not at rebind.example" in json.loads(body)["error"], name
    assert report["status"] == 0 and "Traceback" not in report["err"]
