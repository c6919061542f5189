"""The game file: one transaction per action, WAL, schema version, damaged and newer files, crashes."""
from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from board_ledger import notation
from board_ledger.errors import LedgerError, StoreError
from board_ledger.store import SCHEMA_VERSION, Store
from ledger_helpers import SETUP3, play, snapshot


def stored_game(path, text=SETUP3):
    store = Store(path)
    game_id, game = store.load()
    play(text, game=game)
    store.close()
    return game


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_each_action_is_stored_and_the_latest_game_resumes(tmp_path):
    path = tmp_path / "g.sqlite"
    game = stored_game(path)
    store = Store(path, create=False)
    game_id, again = store.load()
    assert snapshot(again.state) == snapshot(game.state) and len(again.events) == 8
    store.close()


def test_wal_mode_and_schema_version(tmp_path):
    path = tmp_path / "g.sqlite"
    stored_game(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_refused_action_is_not_stored(tmp_path):
    path = tmp_path / "g.sqlite"
    stored_game(path)
    store = Store(path)
    _, game = store.load()
    with pytest.raises(LedgerError):
        game.play(notation.parse_line("attack Anna India"))
    store.close()
    store = Store(path)
    assert len(store.load()[1].events) == 8
    store.close()


def test_several_games_in_one_file_the_latest_is_resumed(tmp_path):
    path = tmp_path / "g.sqlite"
    stored_game(path)
    store = Store(path)
    new_id = store.new_game()
    _, game = store.load(new_id)
    play("players X Y", game=game)
    store.close()
    store = Store(path)
    game_id, latest = store.load()
    assert game_id == new_id and latest.state.names == ["X", "Y"]
    assert store.load(1)[1].state.names == ["Anna", "Bert", "Carla"]
    store.close()


def test_newer_version_is_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "g.sqlite"
    stored_game(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match="newer version of the ledger"):
        Store(path)
    assert digest(path) == before


def test_newer_version_in_a_pending_wal_is_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "g.sqlite"
    stored_game(path)
    writer = textwrap.dedent("""
        import os, signal, sqlite3, sys
        conn = sqlite3.connect(sys.argv[1])
        conn.execute("UPDATE schema_version SET version = version + 1")
        conn.commit()
        os.kill(os.getpid(), signal.SIGKILL)     # the change stays in the WAL, not checkpointed
    """)
    subprocess.run([sys.executable, "-c", writer, str(path)])
    assert (tmp_path / "g.sqlite-wal").stat().st_size > 0
    before = digest(path), digest(tmp_path / "g.sqlite-wal")
    with pytest.raises(StoreError, match="newer version"):
        Store(path)
    assert (digest(path), digest(tmp_path / "g.sqlite-wal")) == before


@pytest.mark.parametrize("damage", ["garbage", "truncated", "not-a-ledger", "bad-event"])
def test_damaged_file_is_refused_and_left_unchanged(tmp_path, damage):
    path = tmp_path / "g.sqlite"
    if damage == "garbage":
        path.write_bytes(b"this is no database at all\n" * 20)
    elif damage in ("truncated", "bad-event"):
        stored_game(path)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if damage == "bad-event":
            conn.execute("UPDATE events SET body = '{\"type\": \"war\", \"winner\": \"Nobody\", "
                         "\"energy\": 5}' WHERE seq = 3")
            conn.commit()
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        if damage == "truncated":
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2 + 100])
    else:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.commit()
        conn.close()
    before = digest(path)
    with pytest.raises(StoreError) as info:
        store = Store(path)
        try:
            store.load()
        finally:
            store.close()
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    assert digest(path) == before


def test_missing_file_for_reading_is_refused(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()


CHILD = textwrap.dedent("""
    import dataclasses, random, sys
    from board_ledger import events as ev, notation
    from board_ledger.rules import ANY_ENERGY, energy_range, legal_actions
    from board_ledger.store import Store

    store = Store(sys.argv[1])
    rng = random.Random(7)

    def commit(game_id, game, action):
        accepted = game.play(action)               # committed before play() returns
        print(f"ack {game_id} {notation.format_event(accepted)}", flush=True)

    while True:                                    # a long scripted game, game after game
        game_id = store.new_game()
        _, game = store.load(game_id)
        commit(game_id, game, ev.Players(("Anna", "Bert", "Carla")))
        commit(game_id, game, ev.Start("Anna"))
        while game.state.phase != "over":
            legal = [a for a in legal_actions(game.state) if not isinstance(a, ev.Pact)]
            action = rng.choice(legal)
            if getattr(action, "energy", None) == ANY_ENERGY:
                action = dataclasses.replace(action, energy=rng.randint(*energy_range(game.state, action)))
            commit(game_id, game, action)
""")


def test_killed_process_leaves_every_acknowledged_action(tmp_path, root):
    path = tmp_path / "crash.sqlite"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    acked: list[tuple[int, str]] = []
    try:
        for line in child.stdout:
            _, game_id, text = line.rstrip("\n").split(" ", 2)
            acked.append((int(game_id), text))
            if len(acked) >= 150:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL and len(acked) >= 150
    store = Store(path, create=False)
    stored = [(g, notation.format_event(e)) for g in store.games() for e in store.events(g)]
    assert stored[: len(acked)] == acked            # nothing acknowledged is lost
    for game_id in store.games():                   # every game, the one cut short included,
        store.load(game_id)                         # still replays under the rules
    store.close()


def test_an_action_booked_on_an_old_state_is_refused_when_others_stored_since(tmp_path):
    """Store.apply(after=N): the web ledger's optimistic check, across processes sharing the file."""
    path = tmp_path / "g.sqlite"
    stored_game(path)
    first, second = Store(path), Store(path)
    try:
        game_id, mine = first.load()
        _, theirs = second.load()
        seen = mine.seq
        second.apply(game_id, notation.parse_line("attack Carla India"), theirs)
        with pytest.raises(LedgerError, match="the turn has moved on"):
            first.apply(game_id, notation.parse_line("attack Carla Iran"), mine, after=seen)
        assert first.last_seq(game_id) == seen + 1 and mine.seq == seen + 1   # caught up, nothing added
        first.apply(game_id, notation.parse_line("war Carla 1355"), mine, after=mine.seq)
        assert [e.verb for e in first.events(game_id)][-2:] == ["attack", "war"]
    finally:
        first.close()
        second.close()
