"""Gettext catalogs: read a ``.po`` file and compile it to the ``.mo`` form gettext loads.

What the standard library's Tools/i18n/msgfmt.py does, kept here because Debian's Python does not
install that script: ``make`` compiles every ``.po`` beside it (``python -m i18n compile``), and a
catalog whose ``.mo`` is missing or older than its ``.po`` is compiled in memory when loaded, so a
fresh clone or an edited ``.po`` works without a build step. The format is GNU gettext's
(docs/i18n.md).
"""
from __future__ import annotations

import ast
import dataclasses
import gettext
import io
import pathlib
import struct

LOCALE_DIR = pathlib.Path(__file__).resolve().parent / "locale"
DOMAIN = "videopac"


@dataclasses.dataclass
class Entry:
    """One message of a ``.po`` file: its id (and plural id, context) and its translations."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = dataclasses.field(default_factory=list)
    fuzzy: bool = False
    comments: list[str] = dataclasses.field(default_factory=list)
    obsolete: bool = False            # a ``#~`` entry: no longer in the source, never compiled

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


def po_path(language: str) -> pathlib.Path:
    """Where the catalog of ``language`` lives in the repository."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_po(path: pathlib.Path, obsolete: bool = False) -> list[Entry]:
    """The entries of a ``.po`` file (the header is the entry with the empty msgid).

    Obsolete ``#~`` entries (messages the source no longer uses, kept as GNU msgmerge keeps them)
    are left out unless ``obsolete`` is true; then they come with ``Entry.obsolete`` set.
    """
    entries: list[Entry] = []
    entry = Entry(msgid="")
    field: str | None = None          # the keyword the next continuation string belongs to
    index = 0
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~|"):  # no line, or an obsolete entry's previous msgid
            continue
        dead = line.startswith("#~")
        if dead:                                 # "#~ msgid ...": an obsolete entry's own line
            line = raw = line[2:].strip()
        keyword, _, rest = line.partition(" ")
        starts_entry = line.startswith("#") or keyword in ("msgctxt", "msgid")
        if starts_entry and entry.msgstr:        # the previous entry is complete
            entries.append(entry)
            entry, field = Entry(msgid=""), None
        entry.obsolete |= dead
        if line.startswith("#"):
            entry.fuzzy |= line.startswith("#,") and "fuzzy" in line
            entry.comments.append(raw)
            continue
        if line.startswith('"'):
            if field is None:
                raise ValueError(f"{path}:{lineno}: a string continues nothing")
            _append(entry, field, index, _unquote(line, path, lineno))
            continue
        if keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            field, index = "msgstr", int(keyword[7:-1])
        elif keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
            field, index = keyword, 0
        else:
            raise ValueError(f"{path}:{lineno}: unknown keyword {keyword!r}")
        if field == "msgctxt":
            entry.msgctxt = ""
        elif field == "msgid_plural":
            entry.msgid_plural = ""
        elif field == "msgstr":
            while len(entry.msgstr) <= index:
                entry.msgstr.append("")
        _append(entry, field, index, _unquote(rest, path, lineno))
    if entry.msgstr:
        entries.append(entry)
    return [e for e in entries if obsolete or not e.obsolete]


def _unquote(text: str, path: pathlib.Path, lineno: int) -> str:
    text = text.strip()
    if not (len(text) >= 2 and text[0] == text[-1] == '"'):
        raise ValueError(f"{path}:{lineno}: a string must be in double quotes")
    value: str = ast.literal_eval(text)     # a literal in double quotes is a str
    return value


def _append(entry: Entry, field: str, index: int, text: str) -> None:
    if field == "msgstr":
        entry.msgstr[index] += text
    else:
        setattr(entry, field, getattr(entry, field) + text)


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` image of the translated entries (fuzzy and empty ones are left out)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.obsolete or not (e.translated or e.msgid == ""):
            continue
        key = e.msgid if e.msgid_plural is None else f"{e.msgid}\0{e.msgid_plural}"
        if e.msgctxt is not None:
            key = f"{e.msgctxt}\x04{key}"
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    ids = strs = b""
    offsets = []
    for k in keys:
        offsets.append((len(ids), len(k), len(strs), len(pairs[k])))
        ids += k + b"\0"
        strs += pairs[k] + b"\0"
    start = 7 * 4 + 16 * len(keys)
    key_table, value_table = [], []
    for id_off, id_len, str_off, str_len in offsets:
        key_table += [id_len, start + id_off]
        value_table += [str_len, start + len(ids) + str_off]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return (header + struct.pack(f"{len(key_table)}i", *key_table)
            + struct.pack(f"{len(value_table)}i", *value_table) + ids + strs)


def compile_catalog(po: pathlib.Path) -> pathlib.Path:
    """Write ``videopac.mo`` beside ``po``; returns its path."""
    mo = po.with_suffix(".mo")
    mo.write_bytes(mo_bytes(read_po(po)))
    return mo


def load_translations(language: str) -> gettext.NullTranslations:
    """The translations of ``language``: its ``.mo`` when up to date, else its ``.po`` compiled now."""
    po = po_path(language)
    mo = po.with_suffix(".mo")
    try:
        if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as f:
                return gettext.GNUTranslations(f)
        return gettext.GNUTranslations(io.BytesIO(mo_bytes(read_po(po))))
    except (OSError, ValueError, SyntaxError, IndexError, struct.error):
        return gettext.NullTranslations()   # no catalog or a broken one: the English text is read
