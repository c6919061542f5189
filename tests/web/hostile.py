"""Slow, dropping and hostile clients of the web ledger, for the soak test: run as
``python -m tests.web.hostile PORT SECONDS`` in a process of its own (at a lower priority: it
stands for other devices on the network, not for work of the server's machine). Prints one JSON
line at the end: what it did, and every request that got neither an answer nor a close within
HANG_SECONDS (there must be none)."""
from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import sys
import time

HANG_SECONDS = 40.0       # longer than any bound of the server: request 10 s, a stalled reader 20 s
SLOW_HEADERS = 400        # connections that send their headers a byte a second, for ever
SLOW_BODIES = 40          # bookings whose body comes a byte a second
SILENT_STREAMS = 20       # streams that never read a byte
GUESSER = "127.0.0.99"    # guesses join codes, each with a new X-Forwarded-For

CODE = "424242"


def hostile_requests(port: int) -> list[bytes]:
    """Whole requests no phone sends: each must be answered with a sentence or closed."""
    host = b"Host: 127.0.0.1:%d\r\n" % port

    def post(body: bytes, path: bytes = b"/api/book", extra: bytes = b"") -> bytes:
        return (b"POST " + path + b" HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n" + extra +
                b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)

    def get(path: bytes, extra: bytes = b"") -> bytes:
        return b"GET " + path + b" HTTP/1.1\r\n" + host + extra + b"Connection: close\r\n\r\n"

    return [
        post(b"{not json"),
        post(b"[" * 5000 + b"]" * 5000),
        post(json.dumps({"code": CODE, "role": "keeper", "seq": 0, "line": "x" * 600}).encode()),
        post(b'{"code": "\\ud800", "role": "keeper"}', b"/api/join"),
        post(b'{"code": "' + CODE.encode() + b'", "role": "keeper", "seq": 0, "line": "players \\udc00 B"}'),
        post(b'{"code": "' + CODE.encode() + b'", "role": "keeper", "seq": "0", "line": "undo"}'),
        post(b"x" * 9000),
        post(b"{}", extra=b"Expect: 100-continue\r\n"),
        b"POST /api/book HTTP/1.1\r\n" + host + b"Content-Length: 99999999999\r\nConnection: close\r\n\r\n{}",
        b"POST /api/book HTTP/1.1\r\n" + host + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + b"1000\r\n" + b"a" * 0x1000 + b"\r\n" + b"1000\r\n" + b"a" * 0x1000 + b"\r\n" + b"1000\r\n" + b"a" * 0x1000,
        get(b"/api/state", b"Host: evil.example\r\n"),
        get(b"/", b"X-Long: " + b"a" * 20000 + b"\r\n"),
        get(b"/../../etc/passwd"),
        get(b"/static/%2e%2e/%2e%2e/ledger_web.py"),
        get(b"/chart.svg"),
        get(b"/api/words?lang=%ED%A0%80"),
        get(b"/api/state?" + b"a=1&" * 2000),
        b"GET http://evil.example/api/state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
        b"GET /api/state HTTP/1.0\r\n\r\n",
        b"DELETE /api/state HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",
        b"OPTIONS * HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(64),
        b"GET / HTTP/1.1\r\n" + host + b"Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"GARBAGE\r\n\r\n",
        b"GET /api/state HTTP/1.1\r\n" + host + b"\r\nGET /chart.svg HTTP/1.1\r\n" + host
        + b"\r\nGET /nope HTTP/1.1\r\n" + host + b"Connection: close\r\n\r\n",     # three at once
    ]


class Hostile:
    def __init__(self, port: int, seconds: float) -> None:
        self.port, self.seconds = port, seconds
        self.end = time.monotonic() + seconds
        self.counts: dict[str, int] = {}
        self.hung: list[str] = []
        self.guesses_checked = 0        # wrong codes the server judged (403) rather than locked out (429)
        self.rng = random.Random(26)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def running(self) -> bool:
        return time.monotonic() < self.end

    async def open(self, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.open_connection("127.0.0.1", self.port, local_addr=(source, 0))

    async def until_closed(self, reader: asyncio.StreamReader, what: str) -> bytes:
        """Read to the end; a request that gets neither an answer nor a close in time is a hang."""
        data = b""
        try:
            async with asyncio.timeout(HANG_SECONDS):
                while chunk := await reader.read(65536):
                    data += chunk
        except TimeoutError:
            self.hung.append(what)
        except OSError:
            pass
        return data

    # -- the kinds of client --------------------------------------------------------------------
    async def trickle(self, opening: bytes, what: str) -> None:
        """Sends ``opening``, then a byte a second; when the server closes it, comes back."""
        while self.running():
            try:
                reader, writer = await self.open()
                writer.write(opening)
                while self.running() and not reader.at_eof():
                    await asyncio.sleep(1.0)
                    writer.write(b"a")
                    await writer.drain()
                self.count(what + (" cut off" if reader.at_eof() else ""))
                writer.close()
            except OSError:
                self.count(what + " cut off")
            await asyncio.sleep(self.rng.uniform(0.1, 1.0))

    async def silent_stream(self) -> None:
        """Opens the live stream and never reads it."""
        while self.running():
            try:
                sock = socket.create_connection(("127.0.0.1", self.port))
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                sock.setblocking(False)
                cut = False
                while self.running() and not cut:
                    await asyncio.sleep(1.0)
                    try:                       # a peek: still nothing is read
                        cut = sock.recv(1, socket.MSG_PEEK) == b""
                    except BlockingIOError:
                        continue
                    except OSError:
                        cut = True
                self.count("silent streams cut off" if cut else "silent streams")
                sock.close()
            except OSError:
                self.count("silent streams refused")
            await asyncio.sleep(1.0)

    async def dropper(self) -> None:
        """Connects and goes away at every point of a request."""
        n = 0
        while self.running():
            n += 1
            try:
                reader, writer = await self.open()
                kind = n % 4
                if kind == 1:
                    writer.write(b"POST /api/book HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 90\r\n\r\n{\"co")
                elif kind == 2:
                    writer.write(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    await reader.read(100)
                elif kind == 3:
                    body = json.dumps({"code": CODE, "role": "keeper", "seq": -1, "line": "undo"}).encode()
                    writer.write(b"POST /api/book HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n"
                                 % len(body) + body)
                await writer.drain()
                sock = writer.get_extra_info("socket")
                if n % 3 == 0 and sock is not None:       # a reset rather than a goodbye
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                writer.close()
                self.count("dropped")
            except OSError:
                self.count("dropped early")
            await asyncio.sleep(0.02)

    async def hostile(self) -> None:
        requests = hostile_requests(self.port)
        n = 0
        while self.running():
            raw = requests[n % len(requests)]
            n += 1
            try:
                reader, writer = await self.open()
                writer.write(raw)
                await writer.drain()
                answer = await self.until_closed(reader, raw[:60].decode("latin-1"))
                self.count("hostile answered" if answer.startswith(b"HTTP/1.") else "hostile closed")
                if b"Traceback" in answer:
                    self.hung.append("a traceback in an answer to " + raw[:60].decode("latin-1"))
                writer.close()
            except OSError:
                self.count("hostile refused")
            await asyncio.sleep(0.01)

    async def guesser(self) -> None:
        """Guesses join codes, each with another X-Forwarded-For: the server must not believe it."""
        k = 0
        while self.running():
            k += 1
            body = json.dumps({"code": f"{k:06d}", "role": "keeper"}).encode()
            try:
                reader, writer = await self.open(GUESSER)
                writer.write(b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             b"X-Forwarded-For: 10.%d.%d.%d\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                             % (k >> 16 & 255, k >> 8 & 255, k & 255, len(body)) + body)
                answer = await self.until_closed(reader, "a guess")
                if answer.startswith(b"HTTP/1.1 403"):
                    self.guesses_checked += 1
                writer.close()
            except OSError:
                pass
            await asyncio.sleep(0.05)

    async def run(self) -> dict[str, object]:
        headers = b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        body = (b"POST /api/book HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 300\r\n\r\n{\"line\": \"")
        kinds = ([self.trickle(headers, "slow headers") for _ in range(SLOW_HEADERS)]
                 + [self.trickle(body, "slow bodies") for _ in range(SLOW_BODIES)]
                 + [self.silent_stream() for _ in range(SILENT_STREAMS)] + [self.dropper() for _ in range(2)]
                 + [self.hostile() for _ in range(4)] + [self.guesser()])
        await asyncio.gather(*kinds)
        return {"counts": self.counts, "hung": self.hung, "guesses_checked": self.guesses_checked}


def main() -> None:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    os.nice(10)
    print(json.dumps(asyncio.run(Hostile(port, seconds).run())), flush=True)


if __name__ == "__main__":
    main()
