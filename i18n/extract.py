"""Find the marked messages in the source and keep the ``.po`` catalogs in step with them.

A message is a string literal given to ``_``, ``N_``, ``gettext``, ``ngettext`` or ``pgettext``
(docs/i18n.md). ``update`` adds new messages to every catalog untranslated, keeps the
translations of the others, and keeps vanished ones as obsolete (``#~``) entries. The entries
are sorted and carry the files that use them but no line numbers, so that engineers adding
messages in different places rarely touch the same lines.
"""
from __future__ import annotations

import argparse as _argparse_module
import ast
import pathlib

from i18n.catalog import LOCALE_DIR, Entry, po_path, read_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: the packages whose messages the user reads (asm48 and dis48 included: homebrew authors read them)
PACKAGES = ("videopac", "board_ledger", "o2em_core", "cartridge", "safefiles", "i18n")
#: marker name -> (positions of msgid, msgid_plural, msgctxt), None when absent
MARKERS: dict[str, tuple[int, int | None, int | None]] = {
    "_": (0, None, None), "N_": (0, None, None), "gettext": (0, None, None),
    "ngettext": (0, 1, None), "pgettext": (1, None, 0),
}


class MarkError(ValueError):
    """A marker called with something other than a string literal where the catalog needs one."""


def _marker(node: ast.Call) -> str | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return name if name in MARKERS else None


def messages_in(source: str, filename: str) -> list[Entry]:
    """The messages marked in one Python source text (the entry's comments name the file)."""
    found: list[Entry] = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or (name := _marker(node)) is None:
            continue
        id_at, plural_at, ctxt_at = MARKERS[name]
        args = node.args
        if len(args) <= max(i for i in (id_at, plural_at, ctxt_at) if i is not None):
            continue
        values: list[str | None] = []
        for at in (id_at, plural_at, ctxt_at):
            if at is None:
                values.append(None)
                continue
            arg = args[at]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                values.append(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                raise MarkError(f"{filename}:{node.lineno}: an f-string in {name}() cannot be "
                                "translated; mark the text with {name} placeholders and .format() it")
            else:
                values.append(None)   # _(variable): a value marked elsewhere with N_()
        msgid, plural, ctxt = values
        if msgid:
            found.append(Entry(msgid=msgid, msgid_plural=plural, msgctxt=ctxt,
                               comments=[f"#: {filename}"]))
    return found


def source_files() -> list[pathlib.Path]:
    files = []
    for package in PACKAGES:
        files.extend(sorted((ROOT / package).rglob("*.py")))
    return files


def extract() -> dict[tuple[str | None, str], Entry]:
    """Every message of the project and of argparse (whose words the CLI shows), by key."""
    result: dict[tuple[str | None, str], Entry] = {}
    sources = [(p, p.relative_to(ROOT).as_posix()) for p in source_files()]
    sources.append((pathlib.Path(_argparse_module.__file__), "argparse (Python standard library)"))
    for path, name in sources:
        for entry in messages_in(path.read_text(encoding="utf-8"), name):
            known = result.setdefault(entry.key, entry)
            if entry.comments[0] not in known.comments:
                known.comments.append(entry.comments[0])
            if entry.msgid_plural and not known.msgid_plural:
                known.msgid_plural = entry.msgid_plural
    return result


def _quote(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
               .replace("\r", "\\r"))
    lines = escaped.split("\n")
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    if len(parts) <= 1:
        return f'"{parts[0] if parts else ""}"'
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def format_entry(entry: Entry, obsolete: bool = False) -> str:
    """One entry as ``.po`` text."""
    lines = [c for c in entry.comments if not c.startswith("#,")]
    if entry.fuzzy:
        lines.append("#, fuzzy")
    if any("{" in s for s in [entry.msgid, entry.msgid_plural or ""]):
        lines.append("#, python-brace-format")
    body = []
    if entry.msgctxt is not None:
        body.append(f"msgctxt {_quote(entry.msgctxt)}")
    body.append(f"msgid {_quote(entry.msgid)}")
    if entry.msgid_plural is not None:
        body.append(f"msgid_plural {_quote(entry.msgid_plural)}")
        strs = entry.msgstr or ["", ""]
        body += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(strs)]
    else:
        body.append(f"msgstr {_quote(entry.msgstr[0] if entry.msgstr else '')}")
    if obsolete:
        body = ["#~ " + line for text in body for line in text.split("\n")]
    return "\n".join(lines + body) + "\n"


HEADER = {
    "de": 'Language: de\\nMIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\n'
          'Content-Transfer-Encoding: 8bit\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n',
}


def update(language: str) -> tuple[int, int]:
    """Bring the catalog of ``language`` in step with the source; (added, untranslated) counts."""
    path = po_path(language)
    # the obsolete entries too: a message the source uses again gets its translation back
    old = {e.key: e for e in read_po(path, obsolete=True)} if path.exists() else {}
    header = old.pop((None, ""), None)
    current = extract()
    parts = []
    if header is None:
        header_text = HEADER.get(language, HEADER["de"].replace("de", language, 1))
        parts.append(f'# Translations of videopac into {language} (docs/i18n.md).\n'
                     f'msgid ""\nmsgstr "{header_text}"\n')
    else:
        parts.append(format_entry(header))
    added = untranslated = 0
    for key in sorted(current, key=lambda k: (k[1].lower(), k[1], k[0] or "")):
        entry = current[key]
        before = old.pop(key, None)     # a live entry, or an obsolete one the source uses again
        if before is None:
            added += 1
        else:
            entry.msgstr, entry.fuzzy = before.msgstr, before.fuzzy
            entry.comments = [c for c in before.comments if not c.startswith(("#:", "#,"))] + entry.comments
        if entry.msgid_plural is not None and len(entry.msgstr) < 2:
            entry.msgstr = (entry.msgstr + ["", ""])[:2]
        untranslated += not entry.translated
        parts.append(format_entry(entry))
    for key in sorted(old, key=lambda k: (k[1].lower(), k[1], k[0] or "")):
        gone = old[key]             # kept as an obsolete entry (untranslated ones go, as in msgmerge)
        if gone.translated:
            gone.comments = [c for c in gone.comments if not c.startswith("#:")]   # used nowhere
            parts.append(format_entry(gone, obsolete=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), encoding="utf-8")
    return added, untranslated


def missing(language: str) -> list[str]:
    """The messages of the source that the catalog of ``language`` does not translate."""
    entries = {e.key: e for e in read_po(po_path(language))} if po_path(language).exists() else {}
    return [key[1] for key in sorted(extract(), key=lambda k: k[1])
            if key not in entries or not entries[key].translated]


def languages() -> list[str]:
    """The languages that have a catalog in the repository."""
    return sorted(p.name for p in LOCALE_DIR.iterdir() if po_path(p.name).exists())
