"""Writing result files atomically: everything goes to temporary files first and is renamed
only when all of them were written, so a failed run leaves no output file behind."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_all(files: dict[Path, bytes]) -> None:
    """Write every file or none (a partially written set is removed again)."""
    temps: list[tuple[str, Path]] = []
    try:
        for path, content in files.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
            temps.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(content)
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)
