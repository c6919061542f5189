"""The game file: an SQLite event log, one transaction per accepted action, WAL journal.

A file may hold several games; the latest is resumed. Opening checks the file before writing
anything: a file written by a newer version or a damaged file raises StoreError with one sentence
and is left exactly as it was.
"""
from __future__ import annotations

import json
import pathlib
import sqlite3
from datetime import datetime, timezone

from board_ledger import events as ev
from board_ledger.errors import LedgerError, StoreError
from board_ledger.game import Game

SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL);
CREATE TABLE events (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                     body TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game, seq));
"""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """An open game file."""

    def __init__(self, path: str | pathlib.Path, create: bool = True) -> None:
        self.path = pathlib.Path(path)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh and not create:
            raise StoreError(f"{self.path} does not exist; give the file of a stored game")
        if not fresh:
            with open(self.path, "rb") as f:
                if f.read(16) != SQLITE_MAGIC:
                    raise StoreError(f"{self.path} is not a ledger game file (not an SQLite database); "
                                     "choose another file")
            self._check_read_only()           # nothing is written before the file passed
        try:
            self.conn = sqlite3.connect(self.path, isolation_level=None)
            if fresh:
                self._create()
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path} cannot be used ({exc}); choose another file") from None

    def _check_read_only(self) -> None:
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path} cannot be opened ({exc})") from None
        try:
            self._check(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is damaged ({exc}); restore a copy or choose another file") from None
        finally:
            conn.close()

    def _create(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self.conn.execute(statement)
        self.conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        self.conn.execute("COMMIT")

    def _check(self, conn: sqlite3.Connection) -> None:
        """Read-only checks: integrity, schema version, the tables this version needs."""
        (result,) = conn.execute("PRAGMA quick_check").fetchone()
        if result != "ok":
            raise StoreError(f"{self.path} is damaged (SQLite reports: {result}); restore a copy")
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            raise StoreError(f"{self.path} is an SQLite database but not a ledger game file; choose another file")
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        version = row[0] if row else None
        if not isinstance(version, int):
            raise StoreError(f"{self.path} is damaged (no schema version); restore a copy")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer version of the ledger (schema {version}, "
                             f"this one reads {SCHEMA_VERSION}); update videopac to open it")
        if not {"games", "events"} <= tables:
            raise StoreError(f"{self.path} is damaged (tables missing); restore a copy")

    def close(self) -> None:
        self.conn.close()

    def games(self) -> list[int]:
        return [row[0] for row in self.conn.execute("SELECT id FROM games ORDER BY id")]

    def latest_game(self) -> int | None:
        games = self.games()
        return games[-1] if games else None

    def new_game(self) -> int:
        cur = self.conn.execute("INSERT INTO games (created) VALUES (?)", (_now(),))
        return int(cur.lastrowid)

    def events(self, game: int) -> list[ev.Event]:
        rows = self.conn.execute("SELECT seq, body FROM events WHERE game=? ORDER BY seq", (game,)).fetchall()
        out = []
        for seq, body in rows:
            try:
                out.append(ev.from_json(json.loads(body)))
            except (ValueError, LedgerError) as exc:
                raise StoreError(f"{self.path} is damaged (event {seq} of game {game} cannot be read: "
                                 f"{exc}); restore a copy") from None
        return out

    def event_count(self, game: int) -> int:
        """How many events game ``game`` holds: another process sharing the file may have added
        some (the window beside the battle and the ledger window on one file)."""
        (count,) = self.conn.execute("SELECT count(*) FROM events WHERE game=?", (game,)).fetchone()
        return int(count)

    def append(self, game: int, event: ev.Event) -> None:
        """Append one event in its own transaction; it is on disk when this returns."""
        body = json.dumps(event.to_json(), ensure_ascii=False)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            (seq,) = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game=?",
                                       (game,)).fetchone()
            self.conn.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, body, _now()))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def load(self, game: int | None = None, create: bool = True) -> tuple[int, Game]:
        """Game ``game`` (default: the latest) replayed and wired to this file."""
        if game is None:
            game = self.latest_game()
            if game is None:
                if not create:
                    raise StoreError(f"{self.path} holds no game yet")
                game = self.new_game()
        elif game not in self.games():
            raise StoreError(f"{self.path} holds no game {game} (games: {self.games() or 'none'})")
        try:
            played = Game(self.events(game))
        except StoreError:
            raise
        except LedgerError as exc:
            raise StoreError(f"{self.path} is damaged (game {game} no longer replays: {exc}); "
                             "restore a copy") from None
        played.on_accept = lambda event: self.append(game, event)
        return game, played
