"""``python -m o2em_core``: compile the emulator core into its cache now (``make play`` does it
during its set-up, so that the window opens at once); nothing to do when the cache is warm."""
from __future__ import annotations

from . import jit_cache

jit_cache.build()
