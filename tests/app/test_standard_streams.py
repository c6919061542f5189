"""A closed standard input or output (issue 26 item 10): `<&-` reads as empty input, and a
standard output that is closed (`>&-`) or full (`>/dev/full`) is one sentence and exit status 1,
never a traceback and never silence with status 0 (which would say an export was written). Run as
a user runs the commands, through the shell's redirections."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE

ROOT = Path(__file__).resolve().parents[2]
REASONS = {"closed": "Bad file descriptor", "full": "No space left on device"}
REDIRECT = {"closed": ">&-", "full": ">/dev/full", "no input": "<&-"}


def videopac(folder: Path, redirect: str, *argv: str, stdin: str = "",
             **env: str) -> subprocess.CompletedProcess[str]:
    """``videopac ARGV`` from the shell with ``redirect`` applied (as `exec` does it)."""
    command = " ".join([f"'{sys.executable}'", "-m", "videopac", *argv, REDIRECT[redirect]])
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "", "LC_ALL": "C.UTF-8", **env}
    return subprocess.run(["bash", "-c", "exec " + command], input=stdin, capture_output=True,
                          text=True, cwd=folder, env=environ, timeout=300)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    (tmp_path / "g.txt").write_text("players Anna Bert\nstart Anna\n")
    r = videopac(tmp_path, "full", "ledger", "replay", "g.txt", "--db", "g.sqlite")
    assert r.returncode == 1          # replay's report went nowhere ...
    r = subprocess.run([sys.executable, "-m", "videopac", "ledger", "status", "--db", "g.sqlite"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and "Anna" in r.stdout     # ... the game was booked all the same
    return tmp_path


@pytest.mark.parametrize("trouble", ["closed", "full"])
@pytest.mark.parametrize("argv, stdin", [
    (["ledger", "--db", "g.sqlite"], "status\n"),                       # the REPL
    (["ledger", "export", "--db", "g.sqlite"], ""),
    (["ledger", "export", "--db", "g.sqlite", "-o", "-"], ""),
    (["ledger", "status", "--db", "g.sqlite"], ""),
], ids=["repl", "export", "export-dash", "status"])
def test_the_ledger_says_its_output_cannot_be_written(game, argv, stdin, trouble):
    r = videopac(game, trouble, *argv, stdin=stdin)
    assert (r.returncode, r.stderr) == (
        1, f"videopac ledger: cannot write the standard output: {REASONS[trouble]}.\n")


def test_the_ledger_says_so_in_german(game):
    r = videopac(game, "closed", "ledger", "export", "--db", "g.sqlite", LANGUAGE="de")
    assert (r.returncode, r.stderr) == (
        1, "videopac ledger: die Standardausgabe kann nicht geschrieben werden: Ungültiger "
           "Dateideskriptor.\n")


def test_the_ledger_repl_without_input_ends_quietly(game):
    r = videopac(game, "no input", "ledger", "--db", "g.sqlite")
    assert r.returncode == 0 and r.stderr == "" and "Anna" in r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("trouble", ["closed", "full"])
@pytest.mark.parametrize("argv, stdin, sentence", [
    (["debug", "--no-cart"], "r\nq\n", "videopac debug: cannot write the standard output: {}\n"),
    (["run", "--no-cart", "--frames", "1", "--frame-hash"], "",
     "videopac run: cannot write the standard output: {}\n"),
    (["run", "--no-cart", "--frames", "1", "--dump", "-"], "",
     "videopac run: cannot write -: {}; choose another file or free some space\n"),
], ids=["debug", "run-hash", "run-dump"])
def test_the_machine_commands_say_their_output_cannot_be_written(tmp_path, argv, stdin,
                                                                  sentence, trouble):
    r = videopac(tmp_path, trouble, *argv, stdin=stdin)
    err = r.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "")       # a cold numba cache
    assert (r.returncode, err) == (1, sentence.format(REASONS[trouble]))


@pytest.mark.slow
def test_the_debugger_without_input_ends_quietly(tmp_path):
    r = videopac(tmp_path, "no input", "debug", "--no-cart")
    assert r.returncode == 0 and r.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "") == ""
    assert "'help' lists the commands" in r.stdout
