"""asl's character translation: CODEPAGE selects a table (256 codes) and CHARSET edits it;
strings in DB and character constants are stored through the active table."""
from __future__ import annotations

from dataclasses import dataclass, field

STANDARD = "STANDARD"


def identity() -> list[int]:
    return list(range(256))


@dataclass
class Codepages:
    """The translation tables by NAME, the active one, and whether translation is on (CHARSET
    reads its own operands untranslated)."""

    tables: dict[str, list[int]] = field(default_factory=lambda: {STANDARD: identity()})
    active: str = STANDARD
    translating: bool = True

    def translate(self, text: str) -> bytes:
        table = self.tables[self.active] if self.translating else identity()
        out = bytearray()
        for ch in text:
            code = ord(ch)
            if code < 256:
                out.append(table[code])
            else:                      # a character outside Latin-1: its UTF-8 bytes
                out.extend(ch.encode("utf-8"))
        return bytes(out)
