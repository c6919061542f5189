"""`videopac run --input`: a script is read and applied in time linear in its length, its frame
numbers are ASCII digits up to about a day of play, and its keys are the console's (issue 26
item 8)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from o2em_core.keyboard import key_position
from videopac import UsageError
from videopac.run import MAX_FRAMES, parse_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("line, sentence", [
    ("\u0663 press A", "s.txt line 1: '\u0663' is not a frame number"),       # Arabic-Indic 3
    ("\uff15 press A", "s.txt line 1: '\uff15' is not a frame number"),       # fullwidth 5
    ("1_0 press A", "s.txt line 1: '1_0' is not a frame number"),
    ("+5 press A", "s.txt line 1: '+5' is not a frame number"),
    ("-1 end", "s.txt line 1: the frame number must not be negative"),
    ("99999999999999999999 end",
     f"s.txt line 1: frame 99999999999999999999 is beyond {MAX_FRAMES}, about a day of play"),
    (f"{MAX_FRAMES + 1} press A",
     f"s.txt line 1: frame {MAX_FRAMES + 1} is beyond {MAX_FRAMES}, about a day of play"),
    ("5 press \u0131", "s.txt line 1: unknown key '\u0131'; keys are 0-9, A-Z, SPACE, ENTER, "
                       "CLEAR, ?, ., +, -, *, /, =, YES, NO"),                 # dotless i
    ("5 release \u017f", "s.txt line 1: unknown key '\u017f'; keys are 0-9, A-Z, SPACE, ENTER, "
                         "CLEAR, ?, ., +, -, *, /, =, YES, NO"),               # long s
])
def test_a_script_line_outside_the_format_is_refused(line, sentence):
    with pytest.raises(UsageError) as err:
        parse_script(line + "\n", "s.txt")
    assert str(err.value) == sentence


def test_the_largest_frame_and_ascii_keys_still_work():
    events = parse_script(f"0 press i\n{MAX_FRAMES} end\n", "s.txt")
    assert [(e.frame, e.action, e.key) for e in events] == [(0, "press", "i"),
                                                            (MAX_FRAMES, "end", "")]
    assert key_position("i") == key_position("I")


def videopac_run(folder: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "videopac", "run", "--no-cart", *argv],
                          capture_output=True, text=True, cwd=folder, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), LANGUAGE="",
                                   LC_ALL="C.UTF-8"))


@pytest.mark.parametrize("argv", [["--frames", "99999999999999999999"],
                                  ["--frames", str(MAX_FRAMES + 1)], ["--frames", "-1"],
                                  ["--input", "s.txt"]])
def test_a_run_longer_than_a_day_is_refused_before_it_starts(tmp_path, argv):
    """A recording whose `end` frame has 20 digits ran for ever."""
    (tmp_path / "s.txt").write_text("0 press A\n99999999999999999999 end\n")
    r = videopac_run(tmp_path, *argv)
    assert r.returncode == 2
    assert r.stderr in (
        f"videopac run: --frames must be from 0 to {MAX_FRAMES} (about a day of play)\n",
        f"videopac run: s.txt line 2: frame 99999999999999999999 is beyond {MAX_FRAMES}, about a "
        "day of play\n")


@pytest.mark.slow
def test_a_script_of_800000_events_is_applied_in_linear_time(tmp_path):
    """All at frame 0, so that one frame applies them all: taking each from the front of a list
    made this quadratic (800,000 events: minutes); the child's timeout fails the test instead of
    stalling it."""
    (tmp_path / "s.txt").write_text("0 press A\n0 release A\n" * 400_000 + "1 end\n")
    r = videopac_run(tmp_path, "--input", "s.txt", "--dump", "out.json")
    assert r.returncode == 0, r.stderr
    assert '"frames": 1' in (tmp_path / "out.json").read_text()


def test_audio_of_more_than_twenty_minutes_is_refused_before_it_starts(tmp_path):
    """--audio keeps every frame's sound in memory: a day of frames would have been 9 GB."""
    from videopac.run import MAX_AUDIO_FRAMES

    r = videopac_run(tmp_path, "--frames", str(MAX_AUDIO_FRAMES + 1), "--audio", "a.wav")
    assert r.returncode == 2 and not (tmp_path / "a.wav").exists()
    assert r.stderr == (f"videopac run: --audio keeps the sound in memory: give at most "
                        f"{MAX_AUDIO_FRAMES} frames (about 20 minutes), or run shorter parts\n")
