"""`videopac debug`: a script whose line is refused fails (issue 26 item 12), and a trace file
that cannot be written is named and switched off, at the prompt, in a script and in the play
window's debugger (item 13), never an anonymous OSError."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from tests.app.test_debug import _read_until, at_the_prompt, console, run
from videopac.console.debugger import PlayDebugger

ROOT = Path(__file__).resolve().parents[2]
FULL = "error: cannot write the trace /dev/full: No space left on device; tracing is off"


def debug_script(folder: Path, text: str) -> subprocess.CompletedProcess[str]:
    (folder / "s.txt").write_text(text)
    r = subprocess.run([sys.executable, "-m", "videopac", "debug", "--no-cart", "--script",
                        "s.txt"], capture_output=True, text=True, cwd=folder, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), LANGUAGE="", LC_ALL="C.UTF-8"))
    r.stderr = r.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "")      # a cold numba cache
    return r


def test_a_refused_script_line_fails_the_run_and_stops_the_script(tmp_path):
    r = debug_script(tmp_path, "r\nbp nowhere\nshot after.png\n")
    assert r.returncode == 2
    assert r.stderr == "videopac debug: s.txt line 2 was refused; the script stops there\n"
    assert "error: 'nowhere' is not a number (hexadecimal, or #decimal)" in r.stdout.splitlines()
    assert not (tmp_path / "after.png").exists()          # line 3 never ran


def test_a_script_of_good_lines_still_succeeds(tmp_path):
    r = debug_script(tmp_path, "# a comment\n\nr\ns 2\nshot f.png\nq\nbogus after quit\n")
    assert (r.returncode, r.stderr) == (0, "")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"


def test_a_trace_on_a_full_disk_is_named_in_a_script(tmp_path):
    r = debug_script(tmp_path, "trace /dev/full\ns 10\nr\n")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert FULL in r.stdout.splitlines()
    assert r.stderr == "videopac debug: s.txt line 2 was refused; the script stops there\n"


def test_a_trace_on_a_full_disk_is_named_at_the_prompt_which_goes_on():
    """Through a terminal, as a person types: the sentence names the file; the prompt stays."""
    with at_the_prompt("--no-cart") as fd:
        os.write(fd, b"trace /dev/full\n")
        _read_until(fd, "> ", 30)
        os.write(fd, b"s 3\n")
        _read_until(fd, FULL, 30)
        os.write(fd, b"s 1\n")                 # tracing is off: a step just steps
        assert "error" not in _read_until(fd, "> ", 30)


class Terminal(io.StringIO):
    """Standard input as the terminal that started play, with nothing typed."""

    def isatty(self) -> bool:
        return True


def test_the_play_windows_debugger_pauses_when_its_trace_cannot_be_written():
    """Play runs frames through the debugger while a trace is on; a full disk paused nothing and
    ended the session with an OSError."""
    c, out = console()
    said: list[str] = []
    session = types.SimpleNamespace(machine=c.debugger.machine, say=said.append,
                                    debug_pause=lambda: None, debug_show=lambda lines: None,
                                    debug_resume=lambda: None)
    debugger = PlayDebugger(session, None, stdin=Terminal(), out=out.append)  # type: ignore[arg-type]
    run(debugger.console, "trace /dev/full")
    assert debugger.armed
    debugger.run_frame()
    assert debugger.active and not debugger.armed
    assert FULL in out


@pytest.mark.parametrize("line, sentence", [
    ("s 99999999999999999999", "error: 99999999999999999999 is more than 5000000; give a smaller "
                               "count"),
    ("nf 5000001", "error: 5000001 is more than 5000000; give a smaller count"),
    ("g - 99999999999", "error: 99999999999 is more than 5000000; give a smaller count"),
    ("dasm 0 4097", "error: 4097 is more than 4096; give a smaller count"),
    ("s \u00b2", "error: '\u00b2' is not a count; give a decimal number of 1 or more"),
])
def test_a_count_of_too_many_steps_frames_or_lines_is_refused_at_once(line, sentence):
    """A count of 20 digits ran for ever (a script could never end)."""
    c, out = console()
    assert run(c, line) == sentence


def test_watchpoints_are_bounded_and_a_repeated_one_is_set_once():
    """Every watchpoint is compared after each instruction: a script of a million `wp` lines
    made each step slow."""
    from videopac.console.debugger import MAX_WATCHPOINTS

    c, out = console()
    run(c, "wp iram 10", "wp iram 10")
    assert len(c.debugger.watchpoints) == 1
    run(c, *(f"wp xram {n:02X}" for n in range(MAX_WATCHPOINTS - 1)))
    assert run(c, "wp xram 7F") == f"error: {MAX_WATCHPOINTS} watchpoints are set already; " \
                                   "clear them with wpclear"
    assert len(c.debugger.watchpoints) == MAX_WATCHPOINTS
    run(c, "wpclear", "wp xram 7F")
    assert len(c.debugger.watchpoints) == 1


def test_go_in_a_script_needs_a_frame_count_so_that_the_script_ends(tmp_path):
    """A breakpoint or an address never reached held a script (and the test built on it) for
    ever; at the prompt Ctrl-C stops `go`, in a script nothing would."""
    r = debug_script(tmp_path, "bp 7FF\ng\n")
    assert r.returncode == 2
    assert "error: in a script, go needs a frame count so that it ends: g ADDR FRAMES, or " \
           "g - FRAMES" in r.stdout.splitlines()
    r = debug_script(tmp_path, "g 7FF 2\nr\n")
    assert (r.returncode, r.stderr) == (0, "")


def test_a_trace_into_a_fifo_nobody_reads_is_refused_at_once(tmp_path):
    """Opening it waited for a reader: the script, and the debugger, hung."""
    os.mkfifo(tmp_path / "fifo")
    r = debug_script(tmp_path, "trace fifo\ns 2\n")
    assert r.returncode == 2
    assert "error: cannot write fifo: No such device or address" in r.stdout.splitlines()
