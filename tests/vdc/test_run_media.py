"""`videopac run` --screenshot / --scale / --audio / --frame-hash and the dump's frame_sha256."""
from __future__ import annotations

import hashlib
import json
import pathlib
import subprocess
import sys
import wave

import numpy as np

from o2em_core import Machine
from o2em_core.machine import FIRST_COMPILE_NOTICE
from tests.vdc.programs import image
from tests.vdc.test_palette_png import decode_png

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(tmp_path, *extra):
    """`videopac run` on the moving test program; stderr without the cold-cache notice."""
    bios = tmp_path / "moving.bin"
    bios.write_bytes(image("moving"))
    res = subprocess.run([sys.executable, "-m", "videopac", "run", "--no-cart", "--bios",
                          str(bios), *extra], capture_output=True, text=True, cwd=ROOT)
    res.stderr = res.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "")
    return res


def test_screenshot_audio_hash_and_dump(tmp_path):
    res = run(tmp_path, "--frames", "12", "--screenshot", str(tmp_path / "shot.png"),
              "--scale", "3", "--audio", str(tmp_path / "sound.wav"), "--frame-hash",
              "--dump", str(tmp_path / "d.json"))
    assert res.returncode == 0, res.stderr
    m = Machine(image("moving"), None, "pal")
    audio = []
    for _ in range(12):
        m.run_frame()
        audio.append(m.audio())
    digest = hashlib.sha256(m.frame.tobytes()).hexdigest()
    assert res.stdout.split() == [digest]
    assert json.loads((tmp_path / "d.json").read_text())["frame_sha256"] == digest
    png = decode_png((tmp_path / "shot.png").read_bytes())
    assert png.shape == (243 * 3, 360 * 3, 3)
    from o2em_core import palette
    assert (png[::3, ::3] == palette.to_rgb(m.frame)).all()
    with wave.open(str(tmp_path / "sound.wav")) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 44100)
        pcm = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    expected = np.concatenate(audio)
    assert len(pcm) == len(expected) and (pcm == expected).all()
    assert np.abs(pcm).max() > 1000                  # the program plays a tone


def test_bad_scale_is_one_line_and_exit_2(tmp_path):
    res = run(tmp_path, "--frames", "1", "--screenshot", str(tmp_path / "x.png"),
              "--scale", "0")
    assert res.returncode == 2
    assert res.stderr.strip().count("\n") == 0 and "--scale" in res.stderr
    assert not (tmp_path / "x.png").exists()


def test_unwritable_screenshot_is_one_line(tmp_path):
    """A file that cannot be written is trouble outside the input: status 1, like every command's."""
    res = run(tmp_path, "--frames", "1", "--screenshot", str(tmp_path / "no" / "x.png"))
    assert res.returncode == 1 and res.stderr.startswith("videopac run: cannot write")
