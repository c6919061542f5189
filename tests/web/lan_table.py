"""A table on its own small network, for tests/web/test_web_hosts.py: run inside a private network
namespace (``unshare -rn``) whose loopback also carries a made-up LAN address, so the server can
listen on every interface (--host 0.0.0.0) as at a real table while nothing outside this machine
can reach it.

It starts `videopac ledger --serve --host 0.0.0.0 --port 0 ARGS…` as a person does, reads the
address the terminal shows, makes the requests a phone makes (with the Host header a browser sends
for the address typed) and prints a JSON report: the server's output, and per request its status
and answer. Ctrl+C stops the server; its exit status is in the report too.
"""
from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time


def ask(address: str, port: int, host: str, method: str = "GET", path: str = "/api/state",
        body: str | None = None) -> list:
    """A phone's request to ``address``:``port``, naming ``host`` in its Host header."""
    conn = http.client.HTTPConnection(address, port, timeout=20)
    try:
        headers = {"host": host, "content-type": "application/json"}
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return [response.status, response.read().decode("utf-8", "replace")]
    finally:
        conn.close()


def main(extra: list[str]) -> int:
    command = [sys.executable, "-m", "videopac", "--lang", "en", "ledger", "--serve", "--host", "0.0.0.0",
               "--port", "0", "--code", "2468", *extra]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    report: dict = {"answers": {}}
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while not any(line.startswith("Ctrl+C") for line in lines) and proc.poll() is None \
                and time.monotonic() < deadline:
            lines.append(proc.stdout.readline())
        report["out"] = "".join(lines)
        found = re.search(r"join at http://([0-9.]+):(\d+)/", report["out"])
        if found:
            shown, port = found.group(1), int(found.group(2))
            book = json.dumps({"code": "2468", "role": "keeper", "seq": 0, "line": "players Anna Bert"})
            report["shown"] = shown
            report["answers"] = {
                "shown": ask(shown, port, f"{shown}:{port}"),
                "localhost": ask("127.0.0.1", port, f"localhost:{port}"),
                "other address": ask("127.0.0.2", port, f"127.0.0.2:{port}"),
                "allowed name": ask(shown, port, f"table.example:{port}"),
                "rebound name": ask(shown, port, f"rebind.example:{port}"),
                "rebound booking": ask(shown, port, f"rebind.example:{port}", "POST", "/api/book", book),
                "after": ask(shown, port, f"{shown}:{port}"),
            }
        proc.send_signal(signal.SIGINT)
        report["status"] = proc.wait(timeout=30)
        report["err"] = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
