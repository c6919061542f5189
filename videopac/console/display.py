"""Whether a window can open here, asked before anything loads pyglet (`videopac play` and
`videopac ledger --window` refuse at once, in one sentence, without a display)."""
from __future__ import annotations

import os
import sys


def display_found() -> bool:
    """Whether a window can be opened here: on X11 systems pyglet needs $DISPLAY."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY"))
