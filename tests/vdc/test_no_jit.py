"""The drawing and sound code interpreted by Python (NUMBA_DISABLE_JIT=1) gives exactly what the
compiled loop gives, on the busiest program: every object moving, collisions watched, the
status register polled all frame (the lazy catch-up and its deferral on status reads)."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import zlib

from o2em_core import Machine
from tests.vdc.programs import image

ROOT = pathlib.Path(__file__).resolve().parents[2]
FRAMES = 3


def _summary(m: Machine, audio: bytes) -> str:
    return " ".join(f"{zlib.crc32(b):08x}" for b in
                    (m.frame.tobytes(), m.iram.tobytes(), m.xram.tobytes(),
                     m.vdc_regs.tobytes(), audio))


def test_moving_poll_without_the_jit_matches_the_compiled_loop() -> None:
    code = ("import zlib; from o2em_core import Machine; from tests.vdc.programs import image; "
            "from tests.vdc.test_no_jit import FRAMES, _summary; "
            "m = Machine(image('moving_poll'), None, 'pal'); "
            "audio = b''.join(m.run_frame() or m.audio().tobytes() for _ in range(FRAMES)); "
            "print(_summary(m, audio))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    m = Machine(image("moving_poll"), None, "pal")
    audio = b"".join(m.run_frame() or m.audio().tobytes() for _ in range(FRAMES))
    assert len(set(m.frame.ravel().tolist())) > 4 and audio   # objects drawn, sound made
    assert out.stdout.split() == _summary(m, audio).split()
