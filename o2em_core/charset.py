"""The 8244/8245 character ROM: 64 glyphs × 8 rows (docs/hardware.md §14), from
``data/i8244_charset.txt`` (CRC-32 b46a3f31, the dump of a real chip)."""
from __future__ import annotations

import pathlib

import numpy as np

CHARSET_FILE = pathlib.Path(__file__).with_name("data") / "i8244_charset.txt"


def load(path: pathlib.Path = CHARSET_FILE) -> bytes:
    """The 512 ROM bytes, glyph by glyph, row 0 first (bit 7 = leftmost pixel)."""
    out = bytearray()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split(";", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        index, *rows = line.split()
        if int(index, 16) * 8 != len(out) or len(rows) != 8:
            raise ValueError(f"{path.name}: glyph {index} is out of order or not 8 rows")
        out += bytes(int(r, 16) for r in rows)
    return bytes(out)


CHARSET = np.frombuffer(load(), dtype=np.uint8).copy()
