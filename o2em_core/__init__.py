"""The Videopac G7000 / Odyssey² console: Intel 8048 CPU, Intel 8244/8245 video and sound chip,
bus, keyboard and joysticks. Knows nothing of windows, files, serial ports or the ledger."""
from . import jit_cache

jit_cache.refresh()   # before any compiled function is loaded from numba's cache

from .machine import Machine, StateError  # noqa: E402

__all__ = ["Machine", "StateError"]
