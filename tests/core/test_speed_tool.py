"""tools/speed.py, the side-by-side timing of README "Speed": without O2EM's core it prints our
figures and how to get the core; with the core (``$O2EM_CORE``, built outside the repository)
it also times O2EM through tools/o2em_host.c and prints the ratio."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIGURE = r"{name}\s+\d+ frames/s CPU \[\d+-\d+\]\s+\d+ frames/s wall\s+=\s+\d+x real time"


def _speed(*args: str, core: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "O2EM_CORE"}
    if core:
        env["O2EM_CORE"] = core
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "speed.py"), "--frames", "40",
                          "--rounds", "2", *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_without_the_core_it_says_how_to_get_it() -> None:
    out = _speed()
    for name in ("run_frame", r"run_frame \+ RGB", "play loop work"):
        assert re.search(FIGURE.format(name=name), out), out
    assert "median of 2 interleaved rounds" in out and "this machine:" in out
    assert "git clone https://github.com/libretro/libretro-o2em" in out
    assert "O2EM_CORE not set" in out and "O2EM (C)" not in out
    assert "does not exist" in _speed("--o2em", "/nonexistent/o2em_libretro.so")


@pytest.mark.skipif(not os.environ.get("O2EM_CORE"), reason="O2EM_CORE (O2EM's libretro core, "
                    "built outside the repository) is not set")
def test_with_the_core_it_times_o2em_beside_ours() -> None:
    out = _speed(core=os.environ["O2EM_CORE"])
    assert re.search(FIGURE.format(name=r"O2EM \(C\)"), out), out
    assert re.search(r"run_frame \+ RGB / O2EM: \d+\.\d\dx \(rounds \d+\.\d\d-\d+\.\d\d\)", out)
