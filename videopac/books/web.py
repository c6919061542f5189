"""`videopac ledger --serve`: the ledger as a web page for the phones around the table.

One process serves one game file (the same SQLite file, rules and notation as the terminal ledger
and the window, which may run beside it). Phones read the game as JSON (``/api/state``) and follow
it live over server-sent events (``/api/stream``); they book notation lines with ``/api/book``,
which needs the table's join code and the number of events the phone has seen: a booking made on
an older state is refused ("the turn has moved on"), so two phones booking at once never both
land. Everything else is static package data (``videopac/data/web``): no CDN, no build step.
docs/web.md describes the routes and the rules of who may book.
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import io
import ipaddress
import json
import secrets
import signal
import socket
import sqlite3
import time
from importlib import resources
from typing import Any, AsyncIterator, Iterable, Iterator

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from board_ledger import events as ev
from board_ledger import notation
from board_ledger.chart import pbr_svg
from board_ledger.errors import LedgerError, MovedOn, StoreError
from board_ledger.seats import PAUSE, Seats
from board_ledger.store import Store
from i18n import LANGUAGES, N_, _, os_reason
from videopac.battle import headless
from videopac.books.connections import ACCEPT_BURST, LISTEN_QUEUE, LOG_CONFIG, REPORT, UNEXPECTED, Doors, \
    Guard, TableProtocol, loop_trouble, most_connections
from videopac.books.view import KEEPER, VIEWER, may_book, movers, speaking, view
from videopac.books.words import page_words

MAX_BODY = 8 * 1024                # a booking is one short line; anything bigger is refused
MAX_LINE = 500
POLL_SECONDS = 0.25                # how often the file is checked for actions booked elsewhere
KEEPALIVE_SECONDS = 15
WRONG_CODES = 10                   # wrong join codes from one address ...
WRONG_CODE_WINDOW = 60.0           # ... within this many seconds lock that address out for a while
WRONG_CODE_ADDRESSES = 1000        # addresses remembered before those without recent wrong codes go
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                                 b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")   # this computer: always answered (docs/web.md, "Addresses")
WILDCARDS = ("0.0.0.0", "::")                     # --host values that listen on every interface


MOVED_ON = N_("the turn has moved on: another booking came first; look at the game again and book anew")


class Refusal(Exception):
    """A request the server turns down: an HTTP status and one sentence for the page.

    ``message`` is an English template marked with N_() and filled with ``params`` in the phone's
    language when the answer is written; ``made=True``: a sentence the ledger already worded."""

    def __init__(self, status: int, message: str, rule: int | str | None = None, made: bool = False,
                 **params: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.rule, self.made, self.params = status, message, rule, made, params

    def text(self) -> str:
        return self.message if self.made else _(self.message).format(**self.params)


def web_dir() -> Any:
    """The page's files, shipped as package data."""
    return resources.files("videopac").joinpath("data", "web")


def new_code() -> str:
    """A join code for the table: six digits, easy to type on a phone."""
    return f"{secrets.randbelow(10 ** 6):06d}"


class SharedGame:
    """The game file as the phones share it: one game, a lock for bookings, a wake-up for streams."""

    def __init__(self, db: str, code: str, anyone: bool = False, pause: float = PAUSE) -> None:
        self.store = Store(db)
        try:
            self.game_id, self.game = self.store.load()
        except LedgerError:
            self.store.close()
            raise
        self.pause = pause
        self.seats = self._seats()
        self.code, self.anyone = code, anyone
        self.lock = asyncio.Lock()
        self._news = asyncio.Event()      # set (and replaced) at every change
        self.version = 0
        self.ending = False
        self._view: tuple[int, str] | None = None
        self._charts: tuple[int, dict[str, str]] = (-1, {})
        self._wrong: dict[str, list[float]] = {}

    def close(self) -> None:
        self.store.close()

    # -- following the file -------------------------------------------------------------------
    def refresh(self) -> bool:
        """Take in what another process (the terminal ledger, the window) stored; True if any."""
        if self.store.latest_game() != self.game_id:      # someone started a new game in the file
            self.game_id, self.game = self.store.load()
            self.seats = self._seats()
            return True
        return bool(self.store.refresh(self.game_id, self.game))

    def _seats(self) -> Seats:
        """The computer seats of the game (docs/generals.md); a war between two of them is fought
        on the battle program headless."""
        return Seats(self.game, self.store, self.game_id, pause=self.pause, fight=headless.fight)

    def announce(self) -> None:
        """Wake every stream: the game changed (or the server stops)."""
        self.version += 1
        news, self._news = self._news, asyncio.Event()
        news.set()

    async def wait_change(self, seen: int, timeout: float) -> None:
        """Return once the version is no longer ``seen``; TimeoutError after ``timeout`` seconds."""
        news = self._news
        if self.version == seen and not self.ending:
            await asyncio.wait_for(news.wait(), timeout)

    def end_streams(self) -> None:
        """The server stops: every phone's stream ends (the browser reconnects to the next server)."""
        self.ending = True
        self.announce()

    def view_json(self) -> str:
        """The current view as JSON text, built once per change for every phone."""
        if self._view is None or self._view[0] != self.version:
            data = view(self.game, self.game_id, self.anyone)
            self._view = (self.version, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        return self._view[1]

    def chart_svg(self, lang: str) -> str:
        """The PBR chart with its words in ``lang``, drawn once per change and language (the page
        asks for it after every change)."""
        if self._charts[0] != self.version:
            self._charts = (self.version, {})
        charts = self._charts[1]
        if lang not in charts:
            with speaking(lang):
                charts[lang] = pbr_svg(self.game.states)
        return charts[lang]

    async def watch(self) -> None:
        """Notice actions booked by other processes on the same file, and let the computer seats
        move. A computer move is planned in a worker thread, outside the lock: a war between two
        generals is a whole battle on the emulator, and the phones are answered meanwhile; it is
        booked under the lock, unless the game moved on first. Whatever goes wrong in one look
        is told and the next look comes: a watcher that stopped would leave the phones on an old
        state for good."""
        while True:
            await asyncio.sleep(POLL_SECONDS)
            changed, due = False, None
            async with self.lock:
                with self._told():
                    changed = self.refresh()
                    seats = self.seats
                    due = seats.due()
            if due is not None:
                planned = await asyncio.to_thread(seats.plan, *due)
                async with self.lock:
                    with self._told():
                        if seats is self.seats:          # not a new game in the meantime
                            changed = bool(seats.book(planned, due[1])) or changed
            if changed:                         # what was taken in before a failure is sent on
                self.announce()

    @contextlib.contextmanager
    def _told(self) -> Iterator[None]:
        """Tell what went wrong in one look at the game file, and let the watch go on."""
        try:
            yield
        except (LedgerError, sqlite3.Error) as exc:
            REPORT.say("unreadable", _("the game file cannot be read now ({reason}); the "
                                       "phones keep the last state").format(reason=exc))
        except Exception as exc:        # noqa: BLE001 - told; the watch goes on
            REPORT.say("watch", _("a look at the game file failed unexpectedly ({reason}); "
                                  "the server looks again").format(reason=f"{type(exc).__name__}: {exc}"))

    # -- who may book -------------------------------------------------------------------------
    def check_code(self, code: Any, client: str) -> None:
        """Refuse a wrong code, and every code from an address that sent WRONG_CODES wrong ones
        within WRONG_CODE_WINDOW. ``client`` is the connection's own address: a header such as
        X-Forwarded-For is never believed (the server stands behind no proxy)."""
        now = time.monotonic()
        if len(self._wrong) > WRONG_CODE_ADDRESSES:      # many addresses: forget the quiet ones
            self._wrong = {c: times for c, times in self._wrong.items()
                           if times and now - times[-1] < WRONG_CODE_WINDOW}
        wrong = [t for t in self._wrong.get(client, []) if now - t < WRONG_CODE_WINDOW]
        self._wrong[client] = wrong
        if len(wrong) >= WRONG_CODES:
            raise Refusal(429, N_("too many wrong join codes from this phone; wait a minute and type "
                                  "the code shown in the terminal"))
        if not isinstance(code, str) or not hmac.compare_digest(code.strip().encode(), self.code.encode()):
            wrong.append(now)
            raise Refusal(403, N_("wrong join code: type the code shown in the terminal where the "
                                  "ledger runs"))

    def check_role(self, role: Any) -> str:
        if not isinstance(role, str):
            raise Refusal(400, N_("the request names no seat: pick your player, the war-chest keeper "
                                  "or viewer"))
        names = self.game.state.names
        if role in (KEEPER, VIEWER) or role in names or (role == "" and not names):
            return role
        raise Refusal(403, N_("that seat is not at this table: pick one of the players, the war-chest "
                              "keeper or viewer"))

    async def book(self, data: dict[str, Any], client: str, lang: str) -> dict[str, Any]:
        """Book one notation line for the phone that sent ``data``; Refusal if it may not.
        The ledger's refusals are worded in the phone's language ``lang``."""
        line, seq = data.get("line"), data.get("seq")
        if not isinstance(line, str) or not isinstance(seq, int) or isinstance(seq, bool):
            raise Refusal(400, N_("a booking needs the line to book and the number of events seen (seq)"))
        if len(line) > MAX_LINE or "\n" in line or "\r" in line:
            raise Refusal(400, N_("a booking is one line of at most {count} characters"), count=MAX_LINE)
        self.check_code(data.get("code"), client)
        async with self.lock:             # nothing below awaits: the language is this phone's
            before = (self.game_id, self.game.seq)
            with speaking(lang):
                try:
                    return self._book(data.get("role"), seq, line)
                finally:
                    if (self.game_id, self.game.seq) != before:   # booked, or caught up with others
                        self.announce()

    def _book(self, role: Any, seq: int, line: str) -> dict[str, Any]:
        try:
            self.refresh()
        except LedgerError as exc:
            raise Refusal(503, N_("the game file cannot be read now ({reason}); try again"), reason=str(exc)) from None
        if seq != self.game.seq:
            raise Refusal(409, MOVED_ON)
        role = self.check_role(role)
        if role == VIEWER:
            raise Refusal(403, N_("viewers see the game and book nothing; join as a player to book"))
        try:
            event = notation.parse_line(line)
        except LedgerError as exc:
            raise Refusal(422, str(exc), made=True) from None
        if event is None:
            raise Refusal(422, N_("the line holds no action"))
        if isinstance(event, ev.BoardFile) and not event.text:
            raise Refusal(422, N_("a board file is read by the terminal ledger only; give the board "
                                  "inline or set it up there"))
        if not may_book(self.game, role, event, self.anyone):
            who = movers(self.game.state) or []
            if not who:
                raise Refusal(403, N_("nobody's move can be booked from this seat now; the war-chest "
                                      "keeper can"))
            raise Refusal(403, N_("it is {names}'s move: only the player whose move it is or the "
                                  "war-chest keeper books it (the table may allow anyone: --anyone)"),
                          names=", ".join(who))
        try:
            applied = self.store.apply(self.game_id, event, self.game, after=seq)
        except MovedOn as exc:
            raise Refusal(409, str(exc), made=True) from None
        except StoreError as exc:
            raise Refusal(503, str(exc), made=True) from None
        except LedgerError as exc:
            raise Refusal(422, str(exc), getattr(exc, "rule", None), made=True) from None
        return {"ok": True, "line": notation.format_event(applied.event), "seq": applied.seq}


# --- requests ------------------------------------------------------------------------------------
async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than MAX_BODY bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY):
        raise Refusal(413, N_("the request is too large: at most {count} bytes"), count=MAX_BODY)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refusal(413, N_("the request is too large: at most {count} bytes"), count=MAX_BODY)
    try:
        data = json.loads(bytes(body).decode("utf-8"))
        json.dumps(data, ensure_ascii=False).encode("utf-8")    # "\ud800" escapes to no character
    except UnicodeEncodeError:
        raise Refusal(400, N_("the request holds a lone surrogate (half of a UTF-16 pair), which is "
                              "no text; send the line as the page types it")) from None
    except (ValueError, RecursionError):
        raise Refusal(400, N_("the request is not valid JSON")) from None
    if not isinstance(data, dict):
        raise Refusal(400, N_("the request must be a JSON object"))
    return data


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _table(request: Request) -> SharedGame:
    table: SharedGame = request.app.state.table
    return table


def _language(header: str) -> str:
    """The first of our languages the browser asks for (Accept-Language), English otherwise."""
    ranked = []
    for i, part in enumerate(header.split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, tag.strip().lower()[:2]))
    for _q, _i, tag in sorted(ranked):
        if tag in LANGUAGES:
            return tag
    return LANGUAGES[0]


def phone_language(request: Request, data: dict[str, Any] | None = None) -> str:
    """The language the phone reads: its switch (``lang`` in a booking), else Accept-Language."""
    lang = (data or {}).get("lang")
    if lang not in LANGUAGES:
        lang = _language(request.headers.get("accept-language", ""))
    request.state.lang = lang
    return lang


async def page(request: Request) -> Response:
    text = web_dir().joinpath("index.html").read_text(encoding="utf-8")
    lang = _language(request.headers.get("accept-language", ""))
    return Response(text.replace("{{lang}}", lang), media_type="text/html; charset=utf-8",
                    headers={"cache-control": "no-store"})


async def state(request: Request) -> Response:
    return Response(_table(request).view_json(), media_type="application/json",
                    headers={"cache-control": "no-store"})


async def chart(request: Request) -> Response:
    table = _table(request)
    return Response(table.chart_svg(phone_language(request)), media_type="image/svg+xml",
                    headers={"cache-control": "no-store"})


async def words(request: Request) -> Response:
    """The page's own words in the language asked for (from the one gettext catalog)."""
    lang = request.query_params.get("lang")
    with speaking(lang if lang in LANGUAGES else phone_language(request)):
        return JSONResponse(page_words(), headers={"cache-control": "no-store"})


async def join(request: Request) -> Response:
    data = await _body(request)
    phone_language(request, data)
    table = _table(request)
    role = table.check_role(data.get("role"))
    if role != VIEWER:
        table.check_code(data.get("code"), _client(request))
    return JSONResponse({"ok": True, "role": role})


async def book(request: Request) -> Response:
    data = await _body(request)
    lang = phone_language(request, data)
    return JSONResponse(await _table(request).book(data, _client(request), lang))


async def stream(request: Request) -> Response:
    """Server-sent events: the view now, then again after every change (a reconnect catches up)."""
    table = _table(request)

    async def events() -> AsyncIterator[str]:
        seen = -1
        yield "retry: 1000\n\n"
        while not table.ending:
            if table.version != seen:
                seen = table.version
                yield f"event: view\ndata: {table.view_json()}\n\n"
            try:
                await table.wait_change(seen, KEEPALIVE_SECONDS)
            except asyncio.TimeoutError:
                yield ": still here\n\n"

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


def _error(status: int, message: str, rule: int | str | None = None) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message, "rule": rule}, status_code=status,
                        headers={"cache-control": "no-store"})


def _lang_of(request: Request) -> str:
    return getattr(request.state, "lang", None) or phone_language(request)


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refusal)
    with speaking(_lang_of(request)):
        return _error(exc.status, exc.text(), exc.rule)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    messages = {404: N_("there is no such page here; open the address shown in the terminal"),
                405: N_("this address does not take that kind of request")}
    with speaking(_lang_of(request)):
        return _error(status, _(messages.get(status, N_("the request cannot be served"))))


async def _crash(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, ClientDisconnect):   # a phone that went away mid-request: nothing to tell
        REPORT.say("unexpected", _(UNEXPECTED).format(reason=f"{type(exc).__name__}: {exc}"))
    with speaking(_lang_of(request)):
        return _error(500, _("the server met an unexpected problem; nothing was booked, try again"))


def host_name(header: str | None) -> str | None:
    """The host of a Host header as the server compares it: no port, lower case, no final dot, an
    IP address in its one written form ('[::FFFF:10.0.0.2]:8048' -> '10.0.0.2'); None if the
    header is missing or malformed."""
    if not header or len(header) > 300:
        return None
    if header.startswith("["):                       # an IPv6 address: [addr] or [addr]:port
        name, bracket, port = header[1:].partition("]")
        if not bracket or (port and not port.startswith(":")):
            return None
        port = port[1:]
    else:
        name, _colon, port = header.partition(":")
    if (port and not (port.isascii() and port.isdigit() and len(port) <= 5)) or not name:
        return None
    return canonical_host(name)


def canonical_host(name: str) -> str:
    """A host name or address in the form the Host check compares (see host_name)."""
    name = name.strip().lower().removesuffix(".")
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped           # an IPv4 phone reaching a server bound to '::'
    return str(address)


def usable_host(name: str) -> bool:
    """A host name (letters, digits, '-', '_', dots; not all digits at the end) or an IP address,
    as --host and --allow-host take it. Not '' (which would listen on every interface) nor a
    shorthand such as '0' or '127.1' (which the system reads as 0.0.0.0 or 127.0.0.1)."""
    name = canonical_host(name)
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        labels = name.split(".")
        return len(name) <= 253 and not labels[-1].isdigit() and all(
            0 < len(label) <= 63 and label.isascii() and label.replace("-", "").replace("_", "").isalnum()
            for label in labels)


WRONG_HOST = N_("this server answers only at the address shown in its terminal, not at {host}; open "
                "that address, or start the server with --allow-host {host} to use this name too")
NO_HOST = N_("the request names no host this server answers at; open the address shown in the terminal")


class HostCheck:
    """Answers only requests addressed to a name or address this server serves on: a page from
    the internet whose name is made to point at this machine (DNS rebinding) is refused before it
    can read the game or book (docs/web.md, "Addresses").

    Allowed are this computer's names (LOCAL_NAMES), the ``hosts`` given (the address the
    terminal shows and every --allow-host) and the address the request's connection arrived at,
    so a phone typing any of the machine's addresses is answered."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = {canonical_host(h) for h in (*LOCAL_NAMES, *hosts)}

    def allowed(self, name: str | None, scope: Scope) -> bool:
        arrived = scope.get("server")              # (address, port) this connection came in at
        return name is not None and (name in self.hosts or (
            arrived is not None and name == canonical_host(str(arrived[0]))))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = Headers(scope=scope)
            raw = headers.get("host")
            name = host_name(raw)
            if not self.allowed(name, scope):
                with speaking(_language(headers.get("accept-language", ""))):
                    text = _(WRONG_HOST).format(host=name) if name is not None else _(NO_HOST)
                if scope["path"].startswith("/api/"):          # the page's requests read JSON
                    response: Response = _error(403, text)
                else:                                          # a person opening the page reads text
                    response = Response(text + "\n", 403, media_type="text/plain; charset=utf-8",
                                        headers={"cache-control": "no-store"})
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Adds the content security policy and friends to every response (no inline script runs)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(db: str, code: str, anyone: bool = False, hosts: Iterable[str] = (),
               pause: float = PAUSE) -> Starlette:
    """The web application for the game file ``db`` (opened when the server starts); it answers
    at this computer's names, the connection's own address and ``hosts`` (HostCheck)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        table = SharedGame(db, code, anyone, pause)
        app.state.table = table
        watcher = asyncio.create_task(table.watch())
        try:
            yield
        finally:
            watcher.cancel()
            table.close()

    routes = [
        Route("/", page),
        Route("/api/state", state),
        Route("/api/words", words),
        Route("/api/stream", stream),
        Route("/api/join", join, methods=["POST"]),
        Route("/api/book", book, methods=["POST"]),
        Route("/chart.svg", chart),
        Mount("/static", StaticFiles(directory=str(web_dir())), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={Refusal: _refused, HTTPException: _http_error, Exception: _crash})
    app.add_middleware(HostCheck, hosts=hosts)
    app.add_middleware(SecurityHeaders)          # added last: outermost, so refusals carry it too
    return app


# --- the command ---------------------------------------------------------------------------------
def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(64)
    return sock


def server(app: Starlette) -> Any:
    """A uvicorn server for ``app`` within the bounds of books.connections (how many connections,
    how long a request may take, no traceback on the terminal), believing no proxy header, that
    ends the phones' streams and drops unfinished requests first when told to stop."""
    import uvicorn      # only a running server needs it, not the app

    doors = Doors(most_connections())

    class LedgerServer(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            asyncio.get_running_loop().set_exception_handler(loop_trouble)
            await super().startup(sockets)
            for sock in sockets or ():      # asyncio takes ACCEPT_BURST at a time; the system
                sock.listen(LISTEN_QUEUE)   # may hold more until then

        async def shutdown(self, sockets: Any = None) -> None:
            table = getattr(app.state, "table", None)
            if table is not None:
                table.end_streams()
            doors.stopping()
            await super().shutdown(sockets)

    config = uvicorn.Config(Guard(app), http=TableProtocol.for_server(doors), ws="none",
                            proxy_headers=False, log_config=LOG_CONFIG, timeout_graceful_shutdown=3,
                            lifespan="on", access_log=False, server_header=False, backlog=ACCEPT_BURST)
    return LedgerServer(config)


def qr_text(url: str) -> str:
    """The address as a QR code drawn with characters, for phones to scan from the terminal."""
    import segno        # only the terminal's QR code needs it

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


class CannotListen(Exception):
    """The address or port to serve on cannot be had (taken, not this computer's); the message
    is one sentence with what to do; the ledger command ends with status 1."""


class Stopped(Exception):
    """SIGTERM arrived: the server stops as on Ctrl+C."""


def _terminated(signum: int, frame: Any) -> None:
    raise Stopped


def serve(db: str, host: str, port: int, anyone: bool, code: str | None,
          allow_hosts: Iterable[str] = (), pause: float = PAUSE) -> int:
    """Run the web ledger until Ctrl+C or SIGTERM; the address, its QR code and the join code are
    printed. It answers at that address, this computer's names and ``allow_hosts`` (HostCheck)."""
    store = Store(db)           # a file that cannot be used is refused before anything listens
    try:
        game_id, game = store.load()
    finally:
        store.close()
    code = code or new_code()
    name = canonical_host(host)
    try:
        sock = bind(name, port)
    except OSError as exc:
        raise CannotListen(_("cannot listen on {host}:{port} ({reason}); choose another --port or "
                             "--host.").format(host=host, port=port, reason=os_reason(exc))) from None
    previous = signal.signal(signal.SIGTERM, _terminated)   # uvicorn hands SIGTERM on when stopped
    try:
        port = sock.getsockname()[1]
        shown = lan_address() if name in WILDCARDS else name
        url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
        print(_("Conquest of the World ledger on the web: game {game} in {file}, {count} actions so far.").format(
            game=game_id, file=db, count=len(game.events)))
        if name in LOCAL_NAMES:
            print(_("Listening on {host} only: this computer's browser can open {url}, phones cannot. Start "
                    "with --host 0.0.0.0 to let the phones on the local network join.").format(host=host, url=url))
        else:
            print(_("Listening on {host} port {port}: phones on the local network join at {url}").format(
                host=host, port=port, url=url))
        print(qr_text(url), end="")
        print(_("Join code for booking: {code}   (viewers need none)").format(code=code))
        print(_("Who may book: anyone at the table with the code.") if anyone else
              _("Who may book: the player whose move it is and the war-chest keeper (--anyone lets "
                "everyone book)."))
        print(_("Ctrl+C stops the server; every booked action is already in the file."), flush=True)
        server(create_app(db, code, anyone, [shown, *allow_hosts], pause)).run(sockets=[sock])
    except (KeyboardInterrupt, Stopped):   # uvicorn hands the signal on once it has stopped
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    print(_("Stopped; every booked action is in the file."))
    return 0
