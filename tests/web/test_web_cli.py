"""`videopac ledger --serve` as a person starts it in a terminal, and stops it with Ctrl+C."""
from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

from tests.web.web_helpers import request

COMMAND = [sys.executable, "-m", "videopac", "ledger", "--serve"]


def run(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(COMMAND + args, capture_output=True, text=True, timeout=timeout)


def test_the_server_says_where_it_listens_shows_the_code_and_a_qr_code_and_stops_on_ctrl_c(tmp_path):
    db = tmp_path / "game.sqlite"
    proc = subprocess.Popen(COMMAND + ["--db", str(db), "--port", "0", "--code", "2468"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while not any(line.startswith("Ctrl+C") for line in lines):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(lines) + proc.stderr.read()
            lines.append(proc.stdout.readline())
        out = "".join(lines)
        assert "Listening on 127.0.0.1 only" in out and "--host 0.0.0.0" in out
        assert "Join code for booking: 2468" in out
        assert "▀" in out or "█" in out                       # the QR code drawn in the terminal
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", out).group(1))
        status, _, body = request(port, "GET", "/")
        assert status == 200 and b"/static/app.js" in body
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_file_that_is_no_game_a_bad_port_or_code_is_one_sentence_and_nothing_listens(tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database")
    result = run(["--db", str(bad), "--port", "0"])
    assert result.returncode == 2 and "not a ledger game file" in result.stderr
    assert result.stderr.count("\n") == 1 and bad.read_text() == "not a database"
    result = run(["--db", str(tmp_path / "g.sqlite"), "--port", "70000"])
    assert result.returncode == 2 and "not a port number" in result.stderr
    result = run(["--db", str(tmp_path / "g.sqlite"), "--port", "0", "--code", "<x>"])
    assert result.returncode == 2 and "--code" in result.stderr
    result = run(["--db", str(tmp_path / "g.sqlite"), "--window"])
    assert result.returncode == 2 and "choose one" in result.stderr


def test_a_port_in_use_is_refused_with_a_sentence(tmp_path):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run(["--db", str(tmp_path / "g.sqlite"), "--port", str(port)])
    assert result.returncode == 1 and "cannot listen on 127.0.0.1" in result.stderr and "Traceback" not in result.stderr
