"""The game file: an SQLite event log, one transaction per accepted action, WAL journal.

A file may hold several games; the latest is resumed. Any number of processes may hold one file
(the terminal ledger, the window, the play panel, a web server): ``Store.apply`` checks and appends
an action against the latest state in one write transaction (BEGIN IMMEDIATE, take in the events
others stored since, check, append, commit), so two processes can never both book conflicting
actions. Opening checks the file before writing anything: a file written by a newer version or a
damaged file raises StoreError with one sentence and is left exactly as it was. Every SQLite
failure (locked, disk full, read-only) becomes one sentence too (docs/ledger.md "The game file").
"""
from __future__ import annotations

import json
import os
import pathlib
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterator

from i18n import N_, _, ngettext, os_reason

from board_ledger import events as ev
from board_ledger.errors import LedgerError, MovedOn, StoreError
from board_ledger.game import MAX_EVENTS, Game
from board_ledger.numbers import clipped

SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_SECONDS = 5.0          # how long an action waits for another process's transaction
MAX_SEQ = 2**63 - 2         # SQLite's largest integer but one: the next event's number fits too
MAX_BODY = 64 * 1024 * 1024  # bytes of one stored event: the longest notation line (16 MiB) as JSON
SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                     body TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (game, seq));
"""

# SQLite's primary error names -> (what the sentence says after the file name, exit status):
# 1 for the surroundings (lock, disk, permissions), 2 for a file whose content is wrong
# (marked with N_, translated when the sentence is made)
SQLITE_TROUBLE: dict[str, tuple[str, int]] = {
    "SQLITE_BUSY": (N_("{path} is locked by another program for more than {busy:g} s; "
                       "close it there or try again"), 1),
    "SQLITE_LOCKED": (N_("{path} is locked by another program for more than {busy:g} s; "
                         "close it there or try again"), 1),
    "SQLITE_FULL": (N_("{path} cannot be written: the disk is full; free some space and try again"), 1),
    "SQLITE_READONLY": (N_("{path} is read-only; make it (and its folder) writable, or only read it "
                           "with status, export or chart"), 1),
    "SQLITE_CANTOPEN": (N_("{path} cannot be opened (check that it and its folder may be read and "
                           "written)"), 1),
    "SQLITE_PERM": (N_("{path} cannot be opened (check that it and its folder may be read and "
                       "written)"), 1),
    "SQLITE_IOERR": (N_("{path} cannot be read or written (an input/output error of the disk); "
                        "copy it elsewhere and try again"), 1),
    "SQLITE_CORRUPT": (N_("{path} is damaged; restore a copy or choose another file"), 2),
    "SQLITE_NOTADB": (N_("{path} is damaged; restore a copy or choose another file"), 2),
}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _untrusted(conn: sqlite3.Connection) -> sqlite3.Connection:
    """A connection to a file anyone may have written: its text comes back with a byte that is
    not UTF-8 replaced (U+FFFD), so a damaged integrity report or name is compared and refused
    like any other, never a decoding error; the events' bodies are read as bytes and checked."""
    conn.text_factory = lambda data: bytes(data).decode("utf-8", "replace")
    return conn


def _primary(exc: sqlite3.Error) -> str:
    """SQLite's primary error name of ``exc`` (SQLITE_READONLY for SQLITE_READONLY_DBMOVED ...)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return "_".join(name.split("_")[:2])


@dataclass(frozen=True)
class Applied:
    """What ``Store.apply`` did: the action's canonical event, its sequence number in the game,
    and the events other processes had stored since this process last looked (taken in first)."""
    seq: int
    event: ev.Event
    caught_up: tuple[ev.Event, ...]


class Store:
    """An open game file (``write=False``: only read, e.g. a read-only file for status/export)."""

    def __init__(self, path: str | pathlib.Path, create: bool = True, write: bool = True,
                 busy: float = BUSY_SECONDS) -> None:
        self.path = pathlib.Path(path)
        self.busy = busy
        self._games: dict[int, Game] = {}
        if not self.path.exists():
            if not create:
                raise StoreError(_("{path} does not exist; give the file of a stored game").format(
                    path=self.path))
            fresh = True
        else:
            fresh = self._size() == 0
            if not self.path.is_dir() and not self.path.is_file():
                raise StoreError(_("{path} is not a regular file (a device, a FIFO or a socket); "
                                   "give a game file").format(path=self.path))
            if fresh and not create:
                raise StoreError(_("{path} is empty (0 bytes) and holds no game; give the file "
                                   "of a stored game").format(path=self.path))
        if not fresh:
            self._check_magic()
            self._check_read_only()           # nothing is written before the file passed
        self.conn = self._connect(write, fresh)

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError as exc:
            raise StoreError(_("{path} cannot be read: {reason}").format(
                path=self.path, reason=os_reason(exc))) from None

    def _check_magic(self) -> None:
        try:
            with open(self.path, "rb") as f:
                magic = f.read(16)
        except IsADirectoryError:
            raise StoreError(_("{path} is a folder; give a game file").format(path=self.path)) from None
        except OSError as exc:
            raise StoreError(_("{path} cannot be read: {reason}").format(
                path=self.path, reason=os_reason(exc)), code=1) from None
        if magic != SQLITE_MAGIC:
            raise StoreError(_("{path} is not a ledger game file (not an SQLite database); "
                               "choose another file").format(path=self.path))

    def trouble(self, exc: sqlite3.Error) -> StoreError:
        """The one sentence for an SQLite failure on this file."""
        what, code = SQLITE_TROUBLE.get(_primary(exc), (None, 1))
        if what is None:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            return StoreError(_("{path} cannot be used ({reason}); choose another file").format(
                path=self.path, reason=first), code=1)
        return StoreError(_(what).format(path=self.path, busy=self.busy), code=code)

    @contextmanager
    def _sqlite(self) -> Iterator[None]:
        """Turn every SQLite failure inside the block into StoreError (one sentence). SQLite's
        message may quote the file's own bytes (the names of a damaged schema); when they are
        not UTF-8, Python fails to make the message at all: the file is damaged."""
        try:
            yield
        except sqlite3.Error as exc:
            raise self.trouble(exc) from None
        except UnicodeDecodeError:
            raise StoreError(_(SQLITE_TROUBLE["SQLITE_CORRUPT"][0]).format(path=self.path)) from None

    def _connect(self, write: bool, fresh: bool) -> sqlite3.Connection:
        with self._sqlite():
            if write:
                folder = self.path.parent
                if not folder.is_dir():
                    raise StoreError(_("the folder {folder} does not exist; create it or choose "
                                       "another game file").format(folder=folder))
                if (not fresh and not os.access(self.path, os.W_OK)) or \
                        not os.access(folder, os.W_OK | os.X_OK):
                    raise StoreError(_("{path} is read-only (or its folder is); make both writable, "
                                       "or only read it with status, export or chart").format(
                        path=self.path), code=1)
                conn = _untrusted(sqlite3.connect(self.path, isolation_level=None, timeout=self.busy))
                try:
                    if fresh:
                        self._create(conn)
                    conn.execute("PRAGMA journal_mode=WAL")
                    conn.execute("PRAGMA synchronous=FULL")
                except BaseException:
                    conn.close()
                    raise
                return conn
            return self._read_only_connection(tidy=True)

    def _read_only_connection(self, tidy: bool = False) -> sqlite3.Connection:
        """A connection that never writes. A WAL file in a read-only folder without its -wal/-shm
        files cannot be opened the usual way; then nothing can be writing it, so it is read as
        immutable.

        ``tidy``, for a file that has passed the checks: where it could be written, the
        connection is a plain one told to change nothing (query_only), so that, closing last, it
        folds the WAL back and removes the -wal and -shm files that a mode=ro connection would
        leave beside the game after `status`, `export` or `chart`."""
        uri = self.path.resolve().as_uri()
        writable = tidy and os.access(self.path, os.W_OK) and \
            os.access(self.path.parent, os.W_OK | os.X_OK)
        try:
            conn = _untrusted(sqlite3.connect(f"{uri}?mode={'rw' if writable else 'ro'}", uri=True,
                                              isolation_level=None, timeout=self.busy))
            if writable:
                conn.execute("PRAGMA query_only=ON")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error as exc:
            if _primary(exc) not in ("SQLITE_CANTOPEN", "SQLITE_READONLY") or \
                    pathlib.Path(f"{self.path}-wal").exists() or os.access(self.path.parent, os.W_OK):
                raise
        return _untrusted(sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None))

    def _check_read_only(self) -> None:
        with self._sqlite():
            conn = self._read_only_connection()
            try:
                self._check(conn)
            finally:
                conn.close()

    def _create(self, conn: sqlite3.Connection) -> None:
        """The tables of an empty file; several processes may create the same file at once."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            if conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 0:
                conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _check(self, conn: sqlite3.Connection) -> None:
        """Read-only checks: integrity, schema version, the tables this version needs."""
        try:
            (result,) = conn.execute("PRAGMA quick_check").fetchone()
        except sqlite3.DatabaseError as exc:
            if _primary(exc) in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
                result = "corrupt"
            else:
                raise
        if result != "ok":       # SQLite's report is many lines about pages; the user needs this
            raise StoreError(_("{path} is damaged (SQLite's integrity check fails); "
                               "restore a copy or choose another file").format(path=self.path))
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_version" not in tables:
            raise StoreError(_("{path} is an SQLite database but not a ledger game file; choose another "
                               "file").format(path=self.path))
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        version = row[0] if row else None
        if not isinstance(version, int):
            raise StoreError(_("{path} is damaged (no schema version); restore a copy").format(path=self.path))
        if version > SCHEMA_VERSION:
            raise StoreError(_("{path} was written by a newer version of the ledger (schema {version}, "
                               "this one reads {ours}); update videopac to open it").format(
                path=self.path, version=version, ours=SCHEMA_VERSION))
        if not {"games", "events"} <= tables:
            raise StoreError(_("{path} is damaged (tables missing); restore a copy").format(path=self.path))

    def close(self) -> None:
        self.conn.close()

    # -- reading --------------------------------------------------------------------------------
    def games(self) -> list[int]:
        with self._sqlite():
            return [row[0] for row in self.conn.execute("SELECT id FROM games ORDER BY id")]

    def latest_game(self) -> int | None:
        games = self.games()
        return games[-1] if games else None

    def last_seq(self, game: int) -> int:
        """The sequence number of game ``game``'s latest event (0: none). Cheap: a viewer polls it
        and reads the new events (``events_after``) only when it grew."""
        with self._sqlite():
            (seq,) = self.conn.execute("SELECT coalesce(max(seq), 0) FROM events WHERE game=?",
                                       (game,)).fetchone()
        return self._number(game, seq) if seq else 0

    def events_after(self, game: int, seq: int = 0) -> list[tuple[int, ev.Event]]:
        """The events of game ``game`` after sequence number ``seq``, with their numbers. Read
        bounded: no more events than a game keeps (and one to refuse), none larger than MAX_BODY."""
        with self._sqlite():
            rows = self.conn.execute(
                "SELECT seq, length(CAST(body AS BLOB)) <= ?1, CASE WHEN length(CAST(body AS BLOB)) <= ?1 "
                "THEN CAST(body AS BLOB) END FROM events WHERE game=?2 AND seq>?3 ORDER BY seq LIMIT ?4",
                (MAX_BODY, game, seq, MAX_EVENTS + 1)).fetchall()
        return [(self._number(game, seq), self._event(game, seq, None if fits == 0 else body or b""))
                for seq, fits, body in rows]

    def _number(self, game: int, seq: object) -> int:
        """An event's sequence number as stored; one that is no whole number from 1 to MAX_SEQ
        (text, a fraction, the largest integer) was not written by the ledger: the file is damaged."""
        if isinstance(seq, int) and 1 <= seq <= MAX_SEQ:
            return seq
        raise StoreError(_("{path} is damaged (game {game} has an event numbered '{seq}', which is "
                           "not a count of events); restore a copy").format(
                               path=self.path, game=game, seq=clipped(str(seq))))

    def events(self, game: int) -> list[ev.Event]:
        return [event for _, event in self.events_after(game)]

    def _event(self, game: int, seq: int, body: bytes | None) -> ev.Event:
        """The event a stored body writes (None: a body larger than MAX_BODY)."""
        try:
            if body is None:
                raise LedgerError(_("it is larger than {mib} MiB, more than any action").format(
                    mib=MAX_BODY // 1024 ** 2))
            return ev.from_json(json.loads(bytes(body).decode("utf-8")))
        except UnicodeDecodeError:
            reason = _("it is not UTF-8 text")
        except (ValueError, RecursionError):
            reason = _("it is not JSON")
        except LedgerError as exc:
            reason = str(exc)
        raise StoreError(_("{path} is damaged (event {seq} of game {game} cannot be read: "
                           "{reason}); restore a copy").format(path=self.path, seq=seq, game=game,
                                                               reason=reason))

    def load(self, game: int | None = None, create: bool = True) -> tuple[int, Game]:
        """Game ``game`` (default: the latest; none yet and ``create``: a new one) replayed and
        bound to this file: its ``play`` goes through ``apply``."""
        if game is None:
            game = self._latest_or_new(create)
        elif game not in self.games():
            raise StoreError(_("{path} holds no game {game} (games: {games})").format(
                path=self.path, game=game, games=self.games() or _("none")))
        played = Game()
        self._take_in(game, played)
        self._games[game] = played
        played.book = lambda action: self.apply(game, action, played).event
        return game, played

    def _latest_or_new(self, create: bool) -> int:
        latest = self.latest_game()
        if latest is not None:
            return latest
        if not create:
            raise StoreError(_("{path} holds no game yet").format(path=self.path))
        with self._write():               # two processes starting on a new file share one game
            latest = self.latest_game()
            return latest if latest is not None else self._insert_game()

    def _take_in(self, game_id: int, game: Game) -> list[ev.Event]:
        """Replay onto ``game`` the events stored after the ones it has; returns them."""
        taken = []
        for seq, event in self.events_after(game_id, game.seq):
            try:
                taken.append(game.take(event))
            except LedgerError as exc:
                raise StoreError(_("{path} is damaged (event {seq} of game {game} no longer passes "
                                   "the rules: {reason}); restore a copy").format(
                    path=self.path, game=game_id, seq=seq, reason=exc)) from None
            game.seq = seq
        return taken

    def refresh(self, game_id: int, game: Game | None = None) -> list[ev.Event]:
        """Take in what other processes stored in game ``game_id`` since ``game`` (default: the
        one ``load`` gave) last looked; returns those events (empty: nothing new)."""
        game = game or self._games[game_id]
        if self.last_seq(game_id) == game.seq:
            return []
        return self._take_in(game_id, game)

    # -- writing --------------------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction: BEGIN IMMEDIATE waits for other writers; an error rolls back."""
        with self._sqlite():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:  # SQLite may have rolled back already (disk full)
                    try:
                        self.conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise

    def _insert_game(self) -> int:
        cur = self.conn.execute("INSERT INTO games (created) VALUES (?)", (_now(),))
        assert cur.lastrowid is not None      # an INSERT always sets it
        return cur.lastrowid

    def new_game(self) -> int:
        with self._write():
            return self._insert_game()

    def _insert(self, game: int, seq: int, event: ev.Event) -> None:
        body = json.dumps(event.to_json(), ensure_ascii=False)
        self.conn.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, body, _now()))

    def apply(self, game_id: int, action: ev.Event, game: Game | None = None,
              after: int | None = None) -> Applied:
        """Check ``action`` against the latest state of game ``game_id`` and store it, in one
        transaction. ``game`` (default: the one ``load`` gave) first takes in what other processes
        stored; then the rules judge the action (LedgerError: nothing stored, the game stays
        caught up). An ``undo`` from a process that was behind is refused: it would cancel an
        action its user has not seen. ``after``: the sequence number of the latest event the
        action's author saw; if the game has moved past it, MovedOn and nothing is stored (the
        optimistic check of the web ledger's phones). The event is on disk when this returns."""
        game = game or self._games[game_id]
        with self._write():
            caught_up = self._take_in(game_id, game)
            if after is not None and game.seq != after:
                raise MovedOn(_("the turn has moved on: the game is at event {seq}, this was booked on "
                                "event {after}; look at the game again and book anew").format(
                                    seq=game.seq, after=after))
            if caught_up and isinstance(action, ev.Undo):
                raise LedgerError(ngettext(
                    "the game changed in another window ({n} new action); look at it and undo "
                    "again if you still mean it",
                    "the game changed in another window ({n} new actions); look at it and undo "
                    "again if you still mean it", len(caught_up)).format(n=len(caught_up)))
            new_state, canonical = game.check(action)
            seq = game.seq + 1
            self._insert(game_id, seq, canonical)
        game.adopt(canonical, new_state)     # committed: only now is it shown as accepted
        game.seq = seq
        return Applied(seq, canonical, tuple(caught_up))

    def add_game(self, events: list[ev.Event]) -> int:
        """Store a whole game (already checked, e.g. a replayed notation file) as a new game in
        one transaction: all of it or nothing. Returns its number."""
        with self._write():
            game_id = self._insert_game()
            for seq, event in enumerate(events, start=1):
                self._insert(game_id, seq, event)
        return game_id
