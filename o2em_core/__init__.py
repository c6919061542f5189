"""The Videopac G7000 / Odyssey² console: Intel 8048 CPU, Intel 8244/8245 video and sound chip,
bus, keyboard and joysticks. Knows nothing of windows, files, serial ports or the ledger."""
from . import jit_cache

with jit_cache.in_use():      # numba binds each compiled function's cache as it is decorated
    from .machine import Machine
    from .savestate import StateError

__all__ = ["Machine", "StateError"]
