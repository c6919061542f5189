"""Symbol files: the JSON object name -> address that `asm48 --sym` writes beside an image.

The one reader of them: the disassembler (--sym), the built-in images' tables
(cartridge/images.py) and the app (videopac/battle/published.py, the debugger) all load them here, read
with a bound like every outside file.
"""
from __future__ import annotations

import json
from pathlib import Path

from i18n import _
from safefiles import read_text_at_most

SYMBOL_FILE_LIMIT = 16 << 20     # bytes; the battle program's table is about 10 KB


class NotASymbolTable(ValueError):
    """The file is readable JSON text but not an object of names to whole numbers."""


def load_symbols(path: Path | str) -> dict[str, int]:
    """The symbol table in ``path``. OSError if it cannot be read; ValueError if it is too
    large, not UTF-8 or not JSON; NotASymbolTable if it is JSON of another shape."""
    try:
        table = json.loads(read_text_at_most(path, SYMBOL_FILE_LIMIT, _("symbol files")))
    except RecursionError:
        raise NotASymbolTable(_("its JSON is nested too deeply")) from None
    except json.JSONDecodeError as exc:    # json's own words are English: one sentence of ours
        raise ValueError(_("it is not JSON (line {line}, column {column})").format(
            line=exc.lineno, column=exc.colno)) from None
    if not isinstance(table, dict) or not all(isinstance(v, int) for v in table.values()):
        raise NotASymbolTable(_("expected a JSON object mapping names to integer addresses"))
    return table
