"""A virtual X display for window tests and screenshots: `Xvfb :N -screen 0 1280x1024x24` on a
free display number, with DISPLAY pointing at it while the context is open."""
from __future__ import annotations

import contextlib
import os
import pathlib
import subprocess
import time
from typing import Iterator


def _free_display() -> int:
    for n in range(90, 200):
        if not (pathlib.Path(f"/tmp/.X{n}-lock").exists()
                or pathlib.Path(f"/tmp/.X11-unix/X{n}").exists()):
            return n
    raise RuntimeError("no free X display number between :90 and :199")


@contextlib.contextmanager
def virtual_display() -> Iterator[str]:
    """Start Xvfb, set DISPLAY, yield it; stop Xvfb and restore DISPLAY afterwards."""
    n = _free_display()
    proc = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not pathlib.Path(f"/tmp/.X11-unix/X{n}").exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Xvfb :{n} did not start")
            time.sleep(0.05)
        old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = f":{n}"
        try:
            yield f":{n}"
        finally:
            if old is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = old
    finally:
        proc.terminate()
        proc.wait(5)
