"""The MCS-48 (Intel 8048) instruction set as data: ``data/opcodes.tsv``, one row per opcode.

This package is a leaf like ``i18n``: it imports only the standard library, so the emulator's
CPU (``o2em_core/cpu.py``: cycles and operation of each opcode) and the assembler and
disassembler (``cartridge/opcodes.py``: encodings and decodings) read the one table without an
arrow between them (docs/architecture.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

TABLE = "data/opcodes.tsv"


@dataclass(frozen=True)
class Row:
    """One opcode as the table writes it."""

    code: int            # the opcode byte
    instruction: str     # mnemonic and operands, e.g. "MOV A,#data"
    size: int            # bytes including the opcode
    cycles: int          # machine cycles
    flags: str           # the PSW flags it changes, "-" for none
    semantics: str       # what it does, in words


def _parse(text: str) -> tuple[Row, ...]:
    rows: list[Row] = []
    header_seen = False
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if not header_seen:          # the column header row
            header_seen = True
            continue
        code, instruction, size, cycles, flags, semantics = (line.split("\t") + [""] * 6)[:6]
        rows.append(Row(int(code, 16), instruction, int(size), int(cycles), flags, semantics))
    if sorted(row.code for row in rows) != list(range(256)):
        raise RuntimeError(f"mcs48/{TABLE} must list each of the 256 opcodes once")
    return tuple(sorted(rows, key=lambda row: row.code))


ROWS: tuple[Row, ...] = _parse(resources.files(__name__).joinpath(TABLE).read_text("utf-8"))
"""ROWS[n] is opcode n."""
