"""A virtual X display for window tests and screenshots: `Xvfb -screen 0 1280x1024x24` on a
display number Xvfb chooses, with DISPLAY pointing at it while the context is open."""
from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time
from typing import Iterator


@contextlib.contextmanager
def virtual_display() -> Iterator[str]:
    """Start Xvfb, set DISPLAY, yield it; stop Xvfb and restore DISPLAY afterwards. Xvfb picks
    a free display number itself (-displayfd) and says it when it is ready: choosing one by
    looking for lock files raced with other test sessions starting at the same moment (the
    loser then used the winner's display, which went away under it)."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24",
                             "-nolisten", "tcp"], pass_fds=(write_end,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        number = b""
        deadline = time.monotonic() + 10
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_end], [], [], 0.1)
            chunk = os.read(read_end, 16) if ready else b""
            if (ready and not chunk) or proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("Xvfb did not start")
            number += chunk
        display = f":{int(number)}"
        old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = display
        try:
            yield display
        finally:
            if old is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = old
    finally:
        os.close(read_end)
        proc.terminate()
        proc.wait(5)
