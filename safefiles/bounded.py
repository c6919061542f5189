"""Reading an outside file with a bound: never more than the limit + 1 bytes, so that
``/dev/zero`` or a huge file given by mistake costs nothing; where a device must not even be
opened (a serial port resets the board behind it, a FIFO waits for a writer), regular files
only; and as UTF-8 text when text is wanted. Each refusal is a ValueError whose message is one
sentence naming the file, and which carries the facts a caller may word in its own sentence."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from i18n import _


class TooLarge(ValueError):
    """A file larger than the reader allows; the message is one sentence. ``size`` is the
    file's size when it is a regular file, else None (a device: endless, perhaps)."""

    def __init__(self, path: Path | str, limit: int, what: str, size: int | None) -> None:
        if size is None:
            message = _("{path} is larger than {limit} bytes, the limit for {what}")
        else:
            message = _("{path} is {size} bytes, larger than {limit}, the limit for {what}")
        super().__init__(message.format(path=path, size=size, limit=limit, what=what))
        self.path, self.limit, self.size = path, limit, size


class NotText(ValueError):
    """A file that is not UTF-8 text; ``byte`` is the position (from 1) of the first byte that
    cannot be read."""

    def __init__(self, path: Path | str, byte: int) -> None:
        super().__init__(_("{path} is not UTF-8 text (byte {n} cannot be read); save it as "
                           "UTF-8").format(path=path, n=byte))
        self.path, self.byte = path, byte


class NotRegularFile(ValueError):
    """A device, FIFO, socket or folder where a regular file was asked for (``regular_only``)."""

    def __init__(self, path: Path | str, what: str) -> None:
        super().__init__(_("{path} is not a regular file; give {what}").format(path=path, what=what))
        self.path = path


def _refuse_special(path: Path | str, what: str) -> None:
    """NotRegularFile if ``path`` names something other than a regular file, found without
    opening it; a missing or unreachable path passes (opening it says why)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, what)


def _nonblocking(path: str, flags: int) -> int:
    """Open without waiting: a FIFO put in the file's place after the check opens at once, and
    fstat then refuses it."""
    return os.open(path, flags | os.O_NONBLOCK)


def read_at_most(path: Path | str, limit: int, what: str, *, regular_only: bool = False) -> bytes:
    """The bytes of ``path`` if there are at most ``limit``; else TooLarge naming the file and
    the limit for ``what`` (a plural noun, translated: "save states"). Never reads more than
    ``limit`` + 1 bytes (devices, endless or huge files). ``regular_only`` refuses anything but a
    regular file with NotRegularFile (what: "a board file (CSV text)"), before opening it and
    again on the file opened. OSError when the file cannot be opened or read."""
    if regular_only:
        _refuse_special(path, what)
    with open(path, "rb", opener=_nonblocking if regular_only else None) as f:
        info = os.fstat(f.fileno())
        if regular_only and not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, what)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(path, limit, what, info.st_size if stat.S_ISREG(info.st_mode) else None)
    return data


def read_text_at_most(path: Path | str, limit: int, what: str, *, regular_only: bool = False) -> str:
    """``read_at_most`` decoded as UTF-8 (a byte order mark, as Notepad writes, is dropped);
    NotText when it is not UTF-8 text."""
    data = read_at_most(path, limit, what, regular_only=regular_only)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotText(path, exc.start + 1) from None
