"""The MCS-48 instruction set as data: the opcode table of the leaf package ``mcs48``
(`mcs48/data/opcodes.tsv`, which the emulator's CPU reads too) turned into an encoding table
(mnemonic + operand pattern -> opcode) for asm48 and a decoding table (opcode -> instruction)
for dis48.  Nothing here knows an opcode number; every fact comes from the table."""
from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from typing import Iterator

import mcs48

# Operand placeholders used by the table; every other operand word is a literal keyword
# (A, @R0, R3, P1, BUS, T, PSW, CLK, ...).
IMMEDIATE = "#data"
ADDRESS = "addr"


@dataclass(frozen=True)
class Opcode:
    """One row of the opcode table."""

    code: int
    mnemonic: str
    operands: tuple[str, ...]      # as written in the table, e.g. ("A", "#data")
    size: int                      # bytes including the opcode
    cycles: int
    flags: str
    semantics: str

    @property
    def legal(self) -> bool:
        return self.mnemonic != "ILLEGAL"

    long_address: bool = False
    """JMP/CALL: the table lists the instruction once per 256-byte page of a 2 KB bank
    because address bits 10-8 live in opcode bits 7-5."""


@dataclass(frozen=True)
class Encoding:
    """How one (mnemonic, operand pattern) pair is encoded.  `code` is the opcode; for a
    long address it is the opcode with A10-A8 = 0 (the table's eight rows folded)."""

    mnemonic: str
    operands: tuple[str, ...]
    code: int
    size: int
    long_address: bool


def _rows() -> Iterator[Opcode]:
    for row in mcs48.ROWS:
        mnemonic, _, operand_text = row.instruction.partition(" ")
        operands = tuple(o.strip() for o in operand_text.split(",")) if operand_text else ()
        yield Opcode(row.code, mnemonic, operands, row.size, row.cycles, row.flags, row.semantics)


def _load() -> tuple[tuple[Opcode, ...], dict[str, list[Encoding]]]:
    rows = list(_rows())
    seen: dict[tuple[str, tuple[str, ...]], int] = {}
    for op in rows:
        seen[op.mnemonic, op.operands] = seen.get((op.mnemonic, op.operands), 0) + 1
    # An addressing instruction listed once per page (8 times) has page bits in its opcode.
    rows = [replace(op, long_address=ADDRESS in op.operands and seen[op.mnemonic, op.operands] > 1)
            for op in rows]
    table = tuple(rows)               # in opcode order: mcs48.ROWS[n] is opcode n
    encodings: dict[str, list[Encoding]] = {}
    for op in table:
        if not op.legal:
            continue
        forms = encodings.setdefault(op.mnemonic, [])
        if op.long_address:
            # keep the row for page 0 (lowest opcode); the encoder adds A10-A8 itself
            if any(f.long_address for f in forms):
                continue
        forms.append(Encoding(op.mnemonic, op.operands, op.code, op.size, op.long_address))
    return table, encodings


OPCODES, ENCODINGS = _load()
"""OPCODES[n] is the row of opcode n; ENCODINGS[mnemonic] lists its operand patterns."""


def _load_cpus() -> dict[str, dict[str, list[Encoding]]]:
    """`data/mcs48_cpus.tsv`: for each CPU name, its encodings by mnemonic (the 8048's forms
    it has, with the variant's opcode where it differs, and the variant's own forms)."""
    text = resources.files("cartridge").joinpath("data/mcs48_cpus.tsv").read_text("utf-8")
    known = {(f.mnemonic, f.operands): f for forms in ENCODINGS.values() for f in forms}
    cpus: dict[str, dict[str, list[Encoding]]] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        mnemonic, operand_text, code, names = line.split("\t")
        operands = tuple(operand_text.split(",")) if operand_text else ()
        base = known.get((mnemonic, operands))
        size = base.size if base else 1 + sum(o in (IMMEDIATE, ADDRESS) for o in operands)
        encoding = Encoding(mnemonic, operands, int(code, 16), size,
                            base.long_address if base else False)
        for cpu in names.split():
            cpus.setdefault(cpu, {}).setdefault(mnemonic, []).append(encoding)
    return cpus


CPU_ENCODINGS = _load_cpus()
"""CPU_ENCODINGS[cpu][mnemonic]: the forms of the instruction on that MCS-48 CPU (asl's CPU
names: 8021, 8022, 8039, 80C39, MSM80C39, 8048, 80C48, MSM80C48, 8041, 8042, 80C382)."""
ALL_MNEMONICS = frozenset(m for table in CPU_ENCODINGS.values() for m in table) | set(ENCODINGS)

# Operand keywords of the instruction set (everything that is not a placeholder).
KEYWORDS = frozenset(o.upper() for op in OPCODES for o in op.operands
                     if o not in (IMMEDIATE, ADDRESS))
