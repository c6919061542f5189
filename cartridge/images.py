"""The built-in ROM images (our open BIOS and our battle program), built from the sources in this
package into ``cartridge/roms/<name>.bin`` with their symbol tables ``<name>.json``.

They are committed and a test proves they match the sources, so a missing one means a broken
installation: FileNotFoundError saying so in one sentence, never a value every caller checks.
"""
from __future__ import annotations

import errno
import pathlib

from i18n import _

from .symbols import load_symbols

ROMS = pathlib.Path(__file__).resolve().parent / "roms"


def _shipped(name: str, suffix: str) -> pathlib.Path:
    """The path of a shipped file; FileNotFoundError (its filename set) if it is missing."""
    path = ROMS / f"{name}{suffix}"
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, _("a file of the installation is missing; install "
                                                "videopac again"), str(path))
    return path


def builtin_image(name: str) -> bytes:
    """The bytes of the built-in image ``name`` ("bios" or "conquest")."""
    return _shipped(name, ".bin").read_bytes()


def builtin_symbols(name: str) -> dict[str, int]:
    """The symbol table written next to the built-in image ``name``."""
    return load_symbols(_shipped(name, ".json"))
