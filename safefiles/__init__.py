"""Files as users expect them, for every command of the project: an outside file is read with a
bound (``bounded``: a size limit, regular files only where a device must not be opened, UTF-8
text), and a file is written whole or not at all (``atomic``); the standard streams fail in words
(``streams``).

A leaf like ``mcs48`` and ``i18n`` (docs/architecture.md): ``cartridge`` (the assembler's inputs
and outputs, ROM and symbol files), ``board_ledger`` (notation and board files) and ``videopac``
(states, scripts, keymaps, screenshots, exports) all read and write through it, and it imports
only ``i18n`` for its sentences.
"""
from __future__ import annotations

from safefiles.atomic import STDOUT, write_all, write_atomically, write_stdout
from safefiles.bounded import NotRegularFile, NotText, TooLarge, read_at_most, read_text_at_most
from safefiles.streams import open_text_output, standard_streams

__all__ = ["STDOUT", "write_all", "write_atomically", "write_stdout", "NotRegularFile", "NotText",
           "TooLarge", "read_at_most", "read_text_at_most", "open_text_output",
           "standard_streams"]
