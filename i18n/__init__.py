"""Translatable text: ``_()`` and friends, one catalog for every part of the project.

This package is a leaf: it imports only the standard library, so ``o2em_core``, ``cartridge``,
``board_ledger`` and ``videopac`` may all import it without an arrow between them
(docs/i18n.md). Text is translated when it is made, in the language chosen once per process:
``set_language('de')`` (``--lang``), or else the system locale (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG). English is the source language; the catalogs are gettext ``.po`` files in
``i18n/locale/LANG/LC_MESSAGES/videopac.po``.

Mark text with ``_("...")`` where it is used, ``N_("...")`` where it is stored in a table and
translated later with ``_(value)``, ``ngettext(singular, plural, n)`` for counts. Put the
variable parts in with ``.format(name=...)`` after translating, never inside the marked string.
"""
from __future__ import annotations

import errno
import gettext as _gettext
import os
import unicodedata
from collections.abc import Mapping

from i18n.catalog import load_translations

SOURCE_LANGUAGE = "en"
#: languages the user may choose; a catalog is added here only when it is complete
LANGUAGES: tuple[str, ...] = ("en", "de")
#: environment variables that name the language, in the order gettext consults them
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_current: str | None = None
_translations: dict[str, _gettext.NullTranslations] = {}


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for, as gettext reads it; English when none we have.

    The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set decides (LANGUAGE may list
    several, ``fr:de``: the first we have wins); ``C`` and ``POSIX`` mean English.
    """
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in ("c", "posix"):
                code = SOURCE_LANGUAGE
            if code in LANGUAGES:
                return code
        if variable != "LANGUAGE":   # a locale we have no catalog for: the source language
            return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def set_language(code: str | None) -> str:
    """Choose the language of every later ``_()`` (None: follow the system locale again)."""
    global _current
    if code is not None and code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}; choose one of {', '.join(LANGUAGES)}")
    _current = code
    return language()


def language() -> str:
    """The language ``_()`` translates into now."""
    global _current
    if _current is None:
        _current = detect_language()
    return _current


def _catalog() -> _gettext.NullTranslations:
    code = language()
    if code not in _translations:
        _translations[code] = (_gettext.NullTranslations() if code == SOURCE_LANGUAGE
                               else load_translations(code))
    return _translations[code]


def _(message: str) -> str:
    """``message`` in the current language (itself when the catalog has no translation)."""
    return _catalog().gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    return _catalog().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells two same English words apart."""
    return _catalog().pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it yet (tables, constants)."""
    return message


def translate_argparse() -> None:
    """Let argparse's own words ("usage:", "error:", "options"...) come from our catalog.

    argparse looks its ``_`` and ``ngettext`` up in its module at call time, so pointing them at
    ours is enough; the German for argparse's messages is in our catalog (docs/i18n.md).
    """
    import argparse
    argparse._ = _            # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def sort_key(text: str) -> str:
    """The key that sorts names as a German reader expects: Ägypten beside Afghanistan, not last."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def gettext(message: str) -> str:
    """Same as ``_``; for code that prefers the long name."""
    return _(message)


#: the operating system's reasons a user meets with files (and the web ledger's address), as
#: glibc words them in English.
#: ``strerror`` stays English whatever the locale (Python does not set LC_MESSAGES, and a
#: system may lack glibc's German messages), so the catalog translates these.
OS_REASONS: dict[int, str] = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.EEXIST: N_("File exists"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EIO: N_("Input/output error"),
    errno.EBUSY: N_("Device or resource busy"),
    errno.ENXIO: N_("No such device or address"),
    errno.ENODEV: N_("No such device"),
    errno.EFBIG: N_("File too large"),
    errno.EDQUOT: N_("Disk quota exceeded"),
    errno.EBADF: N_("Bad file descriptor"),        # a closed standard input or output (>&-)
    errno.EPIPE: N_("Broken pipe"),                # a reader of the output that went away
    errno.EADDRINUSE: N_("Address already in use"),             # the web ledger's --port
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),   # and its --host
}


def os_reason(exc: OSError) -> str:
    """Why ``exc`` happened, in the current language: the system's own words in English, our
    catalog's for the file errors of OS_REASONS otherwise (else the system's words)."""
    reason = exc.strerror or str(exc)
    if language() == SOURCE_LANGUAGE or exc.errno not in OS_REASONS:
        return reason
    return _(OS_REASONS[exc.errno])
