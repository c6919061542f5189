"""Six phones book as fast as the server takes them: nothing lost, nothing doubled, all agree."""
from __future__ import annotations

import random
import threading
import time

import pytest

from tests.web.web_helpers import CODE, Follower, RunningServer, assert_replays, legal_lines, post, state

pytestmark = pytest.mark.slow

CLIENTS = 6
ACTIONS = 200          # acknowledged bookings in all (actions and undos)
TIME_LIMIT = 240.0     # the whole run is bounded; a server that stalls fails the test


def test_six_clients_book_200_actions_and_undos_and_end_in_the_same_state(tmp_path):
    db = str(tmp_path / "game.sqlite")
    acked: list[tuple[int, str]] = []          # (seq after the booking, the line as the ledger stored it)
    refused = {"moved on": 0, "rules": 0}
    lock = threading.Lock()
    stop = threading.Event()
    failures: list[str] = []

    with RunningServer(db, anyone=True) as server:
        followers = [Follower(server.port) for _ in range(CLIENTS)]

        def client(k: int) -> None:
            rng = random.Random(k)
            me = followers[k]
            try:
                while not stop.is_set():
                    view = me.wait(lambda v: True)
                    if not view["players"]:
                        line = "players Anna Bert Carla"
                    else:
                        lines = legal_lines(view, rng)
                        if not lines and not view["undo"]:
                            raise AssertionError(f"nothing to book at event {view['seq']}")
                        line = "undo" if view["undo"] and (not lines or rng.random() < 0.3) else rng.choice(lines)
                    status, answer = post(server.port, "/api/book", {"code": CODE, "role": "keeper",
                                                                     "seq": view["seq"], "line": line})
                    with lock:
                        if status == 200:
                            if len(acked) >= ACTIONS:
                                stop.set()
                            acked.append((answer["seq"], answer["line"]))
                            if len(acked) >= ACTIONS:
                                stop.set()
                        elif status == 409:
                            refused["moved on"] += 1
                        elif status == 422:
                            refused["rules"] += 1
                        else:
                            failures.append(f"{status} {answer}")
                            stop.set()
                    if status == 409:      # wait for the news rather than hammer a stale state
                        me.wait(lambda v, s=view["seq"]: v["seq"] != s, timeout=30)
            except Exception as exc:            # reported below, so the test names it
                failures.append(f"client {k}: {type(exc).__name__}: {exc}")
                stop.set()

        threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(CLIENTS)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(max(1.0, TIME_LIMIT - (time.monotonic() - started)))
        stop.set()
        assert not any(t.is_alive() for t in threads), f"the clients did not finish within {TIME_LIMIT} s"
        assert not failures, failures
        assert len(acked) >= ACTIONS
        final = state(server.port)
        views = [f.wait(lambda v: v["seq"] == final["seq"], timeout=30) for f in followers]
        for f in followers:
            f.close()
    assert all(v == final for v in views), "a client ended in another state"

    assert_replays(db, acked, final)
    assert sum(line == "undo" for _, line in acked) > 10 and refused["moved on"] > 0
