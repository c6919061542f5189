"""The files a command starts the console from: the BIOS and cartridge images (given or
built in), input scripts and save states, each read with a bound; what is wrong with one is a
UsageError in one sentence."""
from __future__ import annotations

import argparse
from typing import Callable, TypeVar

from cartridge.images import builtin_image
from cartridge.romfile import RomFileError, load_bios, load_cart
from i18n import _, os_reason
from safefiles import read_at_most, read_text_at_most
from videopac import UsageError

SCRIPT_LIMIT = 16 << 20     # bytes of an input script


def _image(path: str | None, loader: Callable[[str], bytes], builtin: str) -> bytes:
    """The image in ``path`` (checked by ``loader``), else the built-in one named ``builtin``."""
    if path:
        try:
            return loader(path)
        except RomFileError as exc:
            raise UsageError(str(exc)) from None
    return builtin_image(builtin)


def load_images(args: argparse.Namespace) -> tuple[bytes, bytes | None]:
    """(BIOS, cartridge or None for --no-cart): the files given or the built-in images;
    UsageError in one sentence for a bad file (also `videopac debug`)."""
    bios = _image(args.bios, load_bios, "bios")
    if args.no_cart:
        return bios, None
    return bios, _image(args.cart, load_cart, "conquest")


Content = TypeVar("Content", str, bytes)


def _read_input(path: str, read: Callable[[str], Content]) -> Content:
    """``read(path)`` (a bounded reader of safefiles); UsageError in one sentence when
    the file is missing, unreadable, too large or not text."""
    try:
        return read(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(_("cannot read {path}: {reason}").format(
            path=path, reason=os_reason(exc))) from None


def read_text(path: str) -> str:
    """The text file ``path``, read with the input scripts' size limit; UsageError in one
    sentence when it cannot be (also `videopac debug --script`)."""
    return _read_input(path, lambda p: read_text_at_most(p, SCRIPT_LIMIT, _("input scripts")))


def read_state(path: str) -> bytes:
    """The save state in ``path``, read with the state files' size limit; UsageError in one
    sentence when it cannot be."""
    from o2em_core.savestate import STATE_FILE_LIMIT    # lazy: numba, which a refused command line never needs

    return _read_input(path, lambda p: read_at_most(p, STATE_FILE_LIMIT, _("save states")))
