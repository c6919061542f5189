"""Where numba keeps the compiled core, and the progress of a first compile.

numba (``cache=True``) keys a compiled function on its own source file only, but the hot loop
has the functions of the other modules of the core (``vdc``, ``bus``, ``raster``, ``sound``,
…) compiled into it. After any of those change, a cached loop would still run the old code.
So the core keeps its cache in a folder named after a hash of all of its sources: changed
sources look into a new, empty folder and compile afresh, and no cache file is ever deleted
(another process may be reading it).

The folder is below ``NUMBA_CACHE_DIR`` when that is set, else in the package's
``__pycache__``, else (a read-only install) in the user's cache folder (``~/.cache/numba``);
``in_use()`` points numba there while the core's modules are imported and leaves numba's
setting as it was for everybody else.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

PACKAGE = pathlib.Path(__file__).resolve().parent
ENTRY = "cpu.run-*.nbi"            # the index numba writes for the compiled hot loop


def sources_digest() -> str:
    """SHA-256 over every module and data file of the core."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.glob("*.py")) + sorted((PACKAGE / "data").glob("*")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _writable(folder: pathlib.Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        return True
    except OSError:
        return False


def _user_cache() -> pathlib.Path:
    base = os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
    return pathlib.Path(base) / "numba"


def candidates() -> list[pathlib.Path]:
    """The folders the cache may live in, in order of preference (see the module's text)."""
    name = "o2em_core-" + sources_digest()[:16]
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        return [pathlib.Path(custom) / name]
    return [PACKAGE / "__pycache__" / name, _user_cache() / name]


_chosen: pathlib.Path | None = None


def cache_dir() -> pathlib.Path:
    """The folder numba keeps this version of the core's compiled code in (the first writable
    candidate; a temporary folder, compiled anew each start, if none is)."""
    global _chosen
    if _chosen is None:
        _chosen = next((c for c in candidates() if _writable(c)), None) or \
            pathlib.Path(tempfile.mkdtemp(prefix="o2em_core-numba-"))
    return _chosen


@contextlib.contextmanager
def in_use() -> Iterator[pathlib.Path]:
    """Import the core's compiled modules inside this block: numba binds each function's cache
    to ``cache_dir()`` when it is decorated."""
    from numba import config
    before = config.CACHE_DIR
    config.CACHE_DIR = str(cache_dir())
    try:
        yield cache_dir()
    finally:
        config.CACHE_DIR = before


def is_compiled() -> bool:
    """True when a compiled hot loop is already in the cache."""
    return any(cache_dir().rglob(ENTRY))


# ---- the progress bar of a first compile ------------------------------------------------------

# Compiled functions (numba "numba:compile" events of the core) in a first start up to the end
# of the hot loop's compile (the units of linkage.py first, then cpu.run): the 100 % mark of
# the progress bar.
EXPECTED_COMPILES = 51
BAR = 30


class Progress:
    """Shows on ``stream`` (a terminal) which function of the core numba is compiling and how
    far the first compile has come, on one line redrawn in place."""

    def __init__(self, stream: IO[str], notice: str, expected: int = EXPECTED_COMPILES) -> None:
        self.stream, self.notice, self.expected = stream, notice, expected
        self.done = 0
        self.listener: object | None = None      # numba's event listener while it runs

    def line(self, name: str) -> str:
        share = min(self.done / self.expected, 0.99)
        filled = int(share * BAR)
        return (f"\r{self.notice} [{'#' * filled}{'-' * (BAR - filled)}] {share:4.0%} "
                f"{name[:40]:<40}")

    def start(self) -> None:
        from numba.core import event

        progress = self

        class Listener(event.Listener):   # type: ignore[misc]  # numba is untyped (pyproject)
            def on_start(self, ev: event.Event) -> None:
                name = _name(ev)
                if name:
                    progress.show(name)

            def on_end(self, ev: event.Event) -> None:
                name = _name(ev)
                if name:
                    progress.done += 1
                    progress.show(name)
                    if name == "cpu.run":
                        progress.finish()

        self.listener = Listener()
        event.register("numba:compile", self.listener)
        self.show("")

    def show(self, name: str) -> None:
        self.stream.write(self.line(name))
        self.stream.flush()

    def finish(self) -> None:
        from numba.core import event
        if self.listener is not None:
            event.unregister("numba:compile", self.listener)
            self.listener = None
            filled = "#" * BAR
            self.stream.write(f"\r{self.notice} [{filled}] 100% {'':<40}\n")
            self.stream.flush()


def _name(ev: Any) -> str:
    """module.function of a compile event of the core, else ''."""
    dispatcher = (ev.data or {}).get("dispatcher")
    fn = getattr(dispatcher, "py_func", None)
    module = getattr(fn, "__module__", "") or ""
    if fn is None or not module.startswith("o2em_core."):
        return ""
    return f"{module.split('.', 1)[1]}.{fn.__name__}"


def announce(notice: str, stream: IO[str] | None = None) -> Progress | None:
    """Before a first compile: a progress bar on a terminal, else the one line ``notice``."""
    stream = stream or sys.stderr
    if stream.isatty():
        progress = Progress(stream, notice)
        progress.start()
        return progress
    print(notice, file=stream, flush=True)
    return None


def build() -> None:
    """Compile the core into the cache now, as a first start would (with its progress bar or
    notice), and the conversions a frontend uses; nothing to do when the cache is warm. The
    code compiled depends on the types only, so an empty machine compiles all of it."""
    from . import palette
    from .machine import Machine
    m = Machine(None, None)
    m.run_frame()
    m.frame_rgb()
    palette.texture_rgba(m.frame, palette.new_texture())
