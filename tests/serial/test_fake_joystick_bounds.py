"""tools/fake_joystick.py and `videopac joystick test` take only bounded numbers: the fake's
steps in ASCII digits, from a bounded UTF-8 script ('²' passed str.isdigit and then failed int()
with a traceback; `garbage 99999999` built 100 MB of random bytes first), and the command's baud
rate up to the largest one the adapter's reader takes."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

FAKE = "tools/fake_joystick.py"


@pytest.mark.parametrize("step, sentence", [
    ("garbage \u00b2", "line 1: '\u00b2' is not a number of bytes"),
    ("garbage 99999999", "line 1: 99999999 bytes is more than 65536"),
    ("uf l \u0663", "line 1: '\u0663' is not a number of ms"),
    ("silence 1_0", "line 1: '1_0' is not a number of ms"),
    ("silence 3600001", "line 1: 3600001 ms is more than 3600000"),
])
def test_a_step_beyond_the_bounds_is_one_sentence(root, step, sentence):
    fake = subprocess.run([sys.executable, FAKE], input=step + "\n", capture_output=True,
                          text=True, cwd=root, timeout=60)
    assert (fake.returncode, fake.stderr) == (2, f"fake_joystick: {sentence}.\n")


@pytest.mark.parametrize("content, sentence", [
    (b"\0" * (1 << 20) + b"\n", "s.txt is 1048577 bytes, larger than 1048576, the limit for "
                                "scripts"),
    (b"\xff\xfe", "s.txt is not UTF-8 text (byte 1 cannot be read); save it as UTF-8"),
])
def test_a_script_file_too_large_or_not_text_is_one_sentence(root, tmp_path, content, sentence):
    (tmp_path / "s.txt").write_bytes(content)
    fake = subprocess.run([sys.executable, str(root / FAKE), "--script", "s.txt"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert (fake.returncode, fake.stderr) == (2, f"fake_joystick: {sentence}.\n")


@pytest.mark.parametrize("baud", ["0", "-5", "4000001", "99999999999999999999"])
def test_joystick_test_refuses_a_baud_rate_out_of_range(root, baud):
    """A 20-digit --baud overflowed inside pyserial: a traceback."""
    r = subprocess.run([sys.executable, "-m", "videopac", "joystick", "test", "/dev/ptmx",
                        "--baud", baud, "--seconds", "1"], capture_output=True, text=True,
                       cwd=root, timeout=60, env={**os.environ, "LANGUAGE": "", "LC_ALL": "C.UTF-8"})
    assert (r.returncode, r.stderr) == (2, "videopac joystick: the baud rate must be from 1 to "
                                           "4000000 (the adapter uses 115200).\n")
