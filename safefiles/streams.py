"""The standard streams as a command's user expects them: a closed standard input (``<&-``)
reads as empty, like ``</dev/null``, and every failure to write the standard output (closed with
``>&-``, full as ``>/dev/full``, a pipe whose reader left) is an OSError that names it as STDOUT,
so the command says "cannot write the standard output" in its own sentence instead of a
traceback or nothing at all."""
from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from safefiles.atomic import STDOUT, silence


def _closed() -> OSError:
    return OSError(errno.EBADF, os.strerror(errno.EBADF), STDOUT)


class NamedStdout:
    """Standard output (or None when it was closed before the program started) whose write and
    flush raise OSError naming STDOUT; after the first failure its file descriptor points at
    /dev/null, so that Python's own flush at exit stays quiet. Everything else is the stream's."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if self.stream is None:
            raise _closed()
        try:
            return self.stream.write(text)
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        if self.stream is None:
            return
        try:
            self.stream.flush()
        except OSError as exc:
            raise self._failed(exc) from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise _closed()
        return self.stream.fileno()

    def _failed(self, exc: OSError) -> OSError:
        if self.stream is not None:
            silence(self.stream)
        return OSError(exc.errno, exc.strerror, STDOUT)

    def __getattr__(self, name: str) -> Any:
        if self.stream is None:
            if name == "encoding":
                return "utf-8"
            raise _closed()
        return getattr(self.stream, name)


def open_text_output(path: str | os.PathLike[str]) -> TextIO:
    """``path`` opened to write text to as it goes (a trace, a recording), line by line, without
    waiting: a FIFO nobody reads is an OSError (ENXIO) at once instead of a program that hangs
    before it starts."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o666)
    os.set_blocking(fd, True)
    return open(fd, "w", encoding="utf-8", buffering=1)


@contextlib.contextmanager
def standard_streams() -> Iterator[None]:
    """While open: a closed standard input reads as empty and standard output is a NamedStdout;
    both as they were afterwards."""
    stdin, stdout = sys.stdin, sys.stdout
    empty = open(os.devnull, encoding="utf-8") if stdin is None else None
    if empty is not None:
        sys.stdin = empty
    if not isinstance(stdout, NamedStdout):
        sys.stdout = NamedStdout(stdout)     # a TextIO in all but name
    try:
        yield
    finally:
        sys.stdin, sys.stdout = stdin, stdout
        if empty is not None:
            empty.close()
