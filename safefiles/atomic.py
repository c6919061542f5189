"""Writing files whole or not at all: through symlinks, to devices as they are, ``-`` as standard
output, with the modes the umask gives (the assembler's outputs, the app's states, screenshots,
dumps and exports)."""
from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

STDOUT = "-"          # the name that means standard output


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _is_stdout(path: Path | str) -> bool:
    return str(path) == STDOUT


def _special(path: Path) -> bool:
    """True for a target that is written to as it is, never replaced: an existing device or
    FIFO, or anything under /dev or /proc (/dev/stdout is a link to the process's own file)."""
    if Path(os.path.realpath(path)).parts[1:2] in (("dev",), ("proc",)) or \
            Path(os.path.abspath(path)).parts[1:2] in (("dev",), ("proc",)):
        return True
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def _refuse_unwritable(path: Path | str) -> None:
    """An OSError now, before any file is replaced, for a target written as it is that cannot
    be written at all: a folder, or a device or FIFO without write permission."""
    if _is_stdout(path):
        return
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def write_stdout(content: bytes | str) -> None:
    """``content`` on standard output, flushed; an OSError naming STDOUT when standard output
    is closed (``>&-``: sys.stdout is None), full (``>/dev/full``) or a pipe nobody reads. After
    a failure standard output points at /dev/null, so that Python's own flush at exit does not
    fail a second time with a traceback of its own."""
    stream = sys.stdout
    try:
        if stream is None:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF), STDOUT)
        if isinstance(content, str):
            stream.write(content)
            stream.flush()
        else:
            stream.flush()
            stream.buffer.write(content)
            stream.buffer.flush()
    except OSError as exc:
        if stream is not None:
            silence(stream)
        raise _naming(exc, STDOUT) from None


def silence(stream: TextIO) -> None:
    """Point the stream's file descriptor at /dev/null (what is still buffered goes there)."""
    try:
        fileno = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fileno)
        os.close(devnull)
    except (OSError, ValueError):      # no file descriptor (a test's StringIO)
        pass


def _write_stream(path: Path | str, content: bytes) -> None:
    if _is_stdout(path):
        write_stdout(content)
        return
    with open(path, "wb") as f:
        f.write(content)


def _naming(exc: OSError, path: Path | str) -> OSError:
    """``exc`` again (the same class, e.g. FileNotFoundError) but naming ``path`` as the caller
    gave it: the user typed that name, not the temporary file beside it, nor a link's target."""
    return OSError(exc.errno, exc.strerror, str(path))


def _write_files(files: Iterable[tuple[Path | str, bytes]]) -> None:
    temps: list[tuple[str, Path, Path | str]] = []
    direct: list[tuple[Path | str, bytes]] = []
    try:
        for path, content in files:
            try:
                if _is_stdout(path) or _special(Path(path)):
                    _refuse_unwritable(path)
                    direct.append((path, content))
                    continue
                target = Path(os.path.realpath(path))
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
                temps.append((tmp, target, path))
                with os.fdopen(fd, "wb") as f:
                    f.write(content)
                try:
                    mode = stat.S_IMODE(os.stat(target).st_mode)
                except FileNotFoundError:
                    mode = 0o666 & ~_umask()
                os.chmod(tmp, mode)
            except OSError as exc:
                raise _naming(exc, path) from None
        for tmp, target, path in temps:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise _naming(exc, path) from None
    finally:
        for tmp, _target, _path in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)
    for stream, content in direct:
        try:
            _write_stream(stream, content)
        except OSError as exc:
            if _is_stdout(stream):   # a closed pipe stays a BrokenPipeError without a name
                raise
            raise _naming(exc, stream) from None


def write_all(files: dict[Path, bytes]) -> None:
    """Write every file or none: each regular file goes to a temporary file beside its target
    (the target of a symlink, so the link stays a link) and all are renamed only when all were
    written; a failed run leaves the old files as they were. A new file gets the mode the umask
    allows, a replaced one keeps its mode. ``-`` (STDOUT) and existing devices or FIFOs are
    written directly, after the regular files. An OSError names the file it is about as the
    caller gave it (``filename``), never the temporary file."""
    _write_files(files.items())


def write_atomically(path: Path | str, data: bytes, parents: bool = False) -> None:
    """Write one file as ``write_all`` does; ``parents`` creates missing folders (for the app's
    own data folders, not for a path the user typed)."""
    if parents and not _is_stdout(path):
        Path(os.path.realpath(path)).parent.mkdir(parents=True, exist_ok=True)
    _write_files([(path, data)])      # '-' is STDOUT; the path as given names it in errors
