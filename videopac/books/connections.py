"""The web ledger's connections: how many stay open, how long a request may take to arrive, how
they end, and what of it the terminal hears (docs/web.md, "Bounds").

uvicorn's HTTP protocol as it comes holds a connection whose request never finishes for ever,
accepts connections until the process has no file descriptor left (and asyncio then logs a
traceback for every failed accept), and logs an application's error with its traceback. Here:

- a request must arrive whole (headers and body) within REQUEST_SECONDS of the connection, or of
  the answer before it on the same connection; else the connection is closed;
- at most ``most`` connections stay open, fewer than the process's file descriptors; the one
  more closes the connection that has waited longest for an unfinished request, and if every
  connection is busy answering, it is itself closed. A phone sends its request at once, so
  many slow or silent connections cannot keep it out;
- at most half of them follow the game (``/api/stream``); one more ends the oldest stream (its
  browser reconnects and catches up);
- a client that reads nothing of an answer for WRITE_SECONDS is cut off;
- the terminal hears of trouble in one sentence, each kind at most once per QUIET_SECONDS, never
  a traceback.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import resource
import socket
import struct
import sys
import time
from collections import OrderedDict
from typing import Any, ClassVar

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from i18n import N_, _

REQUEST_SECONDS = 10.0        # a phone's request arrives in milliseconds; a stalled one is dropped
WRITE_SECONDS = 20.0          # an answer nobody reads for this long is given up
QUIET_SECONDS = 30.0          # each kind of trouble is told at most this often
MOST_CONNECTIONS = 512        # a table has a few phones; this is room for reloads and spare tabs
SPARE_FILES = 48              # descriptors kept for the game file, the page's files and Python
ACCEPT_BURST = 8              # connections asyncio takes per turn of the loop (its 'backlog'); they
                              # are counted in a turn or two later, so a few bursts fit in the spare
LISTEN_QUEUE = 256            # connections the system holds until they are taken
STREAM_PATH = "/api/stream"
PROG = "videopac ledger"

FULL = N_("more connections came than the server keeps open ({most}); it closed the slowest of "
          "them. If phones cannot reach it, something on the network is flooding it")
UNEXPECTED = N_("a request failed unexpectedly ({reason}); nothing was booked")
NO_FILES = N_("the server has no file handles left ({reason}); it answers again when connections close")


class Report:
    """One sentence per kind of trouble on standard error, each kind at most once per
    QUIET_SECONDS: a flood of bad requests must not flood the terminal."""

    def __init__(self) -> None:
        self.last: dict[str, float] = {}

    def say(self, kind: str, sentence: str) -> None:
        now = time.monotonic()
        if now - self.last.get(kind, -QUIET_SECONDS) < QUIET_SECONDS:
            return
        self.last[kind] = now
        try:
            print(f"{PROG}: {sentence}", file=sys.stderr, flush=True)
        except (OSError, ValueError):            # no terminal left to tell: the server goes on
            pass


REPORT = Report()


def most_connections() -> int:
    """How many connections may be open at once: MOST_CONNECTIONS, or fewer if the process may
    not open that many files (``ulimit -n``), keeping SPARE_FILES for everything else."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_CONNECTIONS
    return max(4, min(MOST_CONNECTIONS, soft - SPARE_FILES - _open_files()))


def _open_files() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 16


class Doors:
    """The connections of one server: which wait for their request (oldest first), which follow
    the game (oldest first), and how many may be open."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.streams_most = max(1, most // 2)
        self.open: set[TableProtocol] = set()
        self.waiting: OrderedDict[TableProtocol, None] = OrderedDict()
        self.streams: OrderedDict[TableProtocol, None] = OrderedDict()

    def arrived(self, door: TableProtocol) -> bool:
        """Count a new connection in; False if it must be closed at once (every other is busy)."""
        self.open.add(door)
        if len(self.open) <= self.most:
            return True
        REPORT.say("full", _(FULL).format(most=self.most))
        if self.waiting:
            oldest, _none = self.waiting.popitem(last=False)
            oldest.drop()
            return True
        return False

    def following(self, door: TableProtocol) -> None:
        self.streams[door] = None
        if len(self.streams) > self.streams_most:
            oldest, _none = self.streams.popitem(last=False)
            oldest.drop()

    def stopping(self) -> None:
        """The server stops: drop what would only hold it up, the requests still arriving (they
        are not booked) and the answers nobody reads."""
        for door in list(self.open):
            if door in self.waiting or door.flow.write_paused:
                door.drop()

    def left(self, door: TableProtocol) -> None:
        self.open.discard(door)
        self.waiting.pop(door, None)
        self.streams.pop(door, None)


class TableProtocol(H11Protocol):
    """uvicorn's h11 protocol with the bounds of this module (one subclass per server carries
    that server's Doors)."""

    doors: ClassVar[Doors]
    _deadline: asyncio.TimerHandle | None = None
    _stall: asyncio.TimerHandle | None = None
    _awaited: Any = None             # the request cycle that was current when the wait began

    @classmethod
    def for_server(cls, doors: Doors) -> type["TableProtocol"]:
        return type(cls.__name__, (cls,), {"doors": doors})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.doors.arrived(self):
            self.drop()
            return
        self._await_request()

    def _await_request(self) -> None:
        """Start the clock for the next request: it must arrive whole within REQUEST_SECONDS."""
        self._stop_clock()
        self._awaited = self.cycle
        self.doors.waiting[self] = None
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self.drop)

    def _stop_clock(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.doors.waiting.pop(self, None)

    def _check_arrived(self) -> None:
        """Stop the clock once a new request is in whole (its body too)."""
        cycle = self.cycle
        if self._deadline is None or cycle is None or cycle is self._awaited or cycle.more_body:
            return
        self._stop_clock()
        if cycle.scope["path"] == STREAM_PATH:
            self.doors.following(self)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._check_arrived()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._await_request()
        self.doors.streams.pop(self, None)
        super().on_response_complete()
        self._check_arrived()          # a request sent right behind the last one

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(WRITE_SECONDS, self.drop)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def drop(self) -> None:
        """Close this connection now, with a reset: what it has not read is thrown away at once
        rather than kept by the system for minutes. A request being answered sees its client gone."""
        self._stop_clock()
        self.doors.left(self)
        if not self.transport.is_closing():
            sock = self.transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self.doors.left(self)
        super().connection_lost(exc)


def loop_trouble(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's own errors (a failed accept, a callback's exception) as one quiet
    sentence instead of asyncio's traceback."""
    exc = context.get("exception")
    try:
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            REPORT.say("files", _(NO_FILES).format(reason=exc.strerror or exc))
        elif not isinstance(exc, (ConnectionError, ClientDisconnect)):   # else a phone went away
            reason = f"{type(exc).__name__}: {exc}" if exc is not None else str(context.get("message", ""))
            REPORT.say("unexpected", _(UNEXPECTED).format(reason=reason))
    except Exception:       # an error here would reach asyncio's own handler, a traceback
        pass


class QuietLog(logging.Handler):
    """uvicorn's log as the terminal should hear it: its errors as one sentence (at most once per
    QUIET_SECONDS), no traceback; its warnings (a malformed request, an upgrade we do not speak)
    are about one request from outside and are not told."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.ERROR:
            return
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, (ConnectionError, ClientDisconnect, asyncio.CancelledError)):
            return
        reason = f"{type(exc).__name__}: {exc}" if exc is not None else record.getMessage()
        REPORT.say("unexpected", _(UNEXPECTED).format(reason=reason))


LOG_CONFIG: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"quiet": {"()": QuietLog}},
    "loggers": {"uvicorn": {"handlers": ["quiet"], "level": "WARNING", "propagate": False},
                "uvicorn.error": {"level": "WARNING"},
                "uvicorn.access": {"handlers": [], "level": "CRITICAL", "propagate": False}},
}


class Guard:
    """The outermost layer of the application: whatever the routes raise ends here. A client
    that went away ends its request silently; anything else is one sentence (UNEXPECTED) and,
    if nothing was answered yet, a 500 with that sentence (the routes' own handler words it for
    the phone first, so this is the last net)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def send_noting(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, send_noting)
        except (ClientDisconnect, ConnectionError):
            return
        except Exception as exc:        # the last net: the routes' handler has already answered
            if started:
                return
            REPORT.say("unexpected", _(UNEXPECTED).format(reason=f"{type(exc).__name__}: {exc}"))
            if scope["type"] == "http":
                body = json.dumps({"ok": False, "rule": None, "error": _(
                    "the server met an unexpected problem; nothing was booked, try again")}).encode()
                await send({"type": "http.response.start", "status": 500,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
