"""Keeping numba's on-disk cache honest.

numba (``cache=True``) keys a compiled function on its own source file only, but the hot loop
inlines functions from the other modules of the core (``vdc``, ``bus``, ``raster``, ``sound``,
…). After any of those change, the cached loop would still run the old code. So the whole
core's sources are hashed, and when the hash differs from the one stored beside the cache, the
cache is dropped and rebuilt on the next call.
"""
from __future__ import annotations

import hashlib
import os
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent
STAMP_NAME = "o2em_core.sources.sha256"


def cache_dir() -> pathlib.Path:
    """Where numba keeps this package's cache (``NUMBA_CACHE_DIR`` or ``__pycache__``)."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        # numba mirrors the source path below the custom directory
        return pathlib.Path(custom) / PACKAGE.relative_to(PACKAGE.anchor)
    return PACKAGE / "__pycache__"


def sources_digest() -> str:
    """SHA-256 over every module and data file of the core."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")) + sorted((PACKAGE / "data").glob("*")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def is_compiled() -> bool:
    """True when a compiled hot loop is already in the cache."""
    return any(cache_dir().glob("cpu.run-*.nbi"))


def refresh() -> None:
    """Drop the cache when the core's sources changed since it was written."""
    folder = cache_dir()
    stamp = folder / STAMP_NAME
    digest = sources_digest()
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        for pattern in ("*.nbi", "*.nbc"):
            for f in folder.glob(pattern):
                f.unlink()
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass  # a read-only install: numba then compiles in memory, which is only slower
