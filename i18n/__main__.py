"""``python -m i18n update|check|compile``: the catalog workflow (docs/i18n.md).

update   add the newly marked messages to every catalog (then translate them in the .po)
check    list the messages a catalog lacks; exit 1 if any
compile  write the .mo files that gettext loads (``make`` does this)
"""
from __future__ import annotations

import pathlib
import sys

from i18n.catalog import compile_catalog, po_path
from i18n.extract import languages, missing, update


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else ""
    targets = argv[1:] or languages()
    if command == "update":
        for lang in targets:
            added, untranslated = update(lang)
            print(f"{po_path(lang)}: {added} new, {untranslated} to translate")
        return 0
    if command == "check":
        status = 0
        for lang in targets:
            for msgid in missing(lang):
                print(f"{lang}: no translation for {msgid!r}")
                status = 1
        return status
    if command == "compile":
        for target in targets:      # a language code or the path of a .po file
            print(compile_catalog(pathlib.Path(target) if target.endswith(".po") else po_path(target)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
