"""Our disassembler against Debian's d48 (package d52) on a ROM holding every valid opcode:
same addresses, same mnemonics, same operands (numbers compared as numbers)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cartridge.asm48 import assemble
from cartridge.dis48 import disassemble
from cartridge.opcodes import OPCODES

D48 = shutil.which("d48")
pytestmark = pytest.mark.skipif(D48 is None, reason="d48 (Debian package d52) not installed; "
                                "`make test` installs it")

# d48 writes `; aaaa - bb bb` after each instruction with -d; labels are Xhhhh.
D48_LINE = re.compile(r"^(?:\w+:)?\t(?P<mn>[a-z0-9]+)\t*(?P<ops>[^;]*?)\s*;\s*"
                      r"(?P<addr>[0-9a-f]{4}) - (?P<bytes>[0-9a-f]{2}(?: [0-9a-f]{2})*)")
OUR_LINE = re.compile(r"^\t(?P<mn>[a-z0-9]+)\s+(?P<ops>[^;]*?)\s*;\s*(?P<addr>[0-9A-F]{3})"
                      r"\s+(?P<bytes>[0-9A-F]{2}(?: [0-9A-F]{2})*)$")
# Spelling differences between the two disassemblers, normalised explicitly (none expected
# for mnemonics; listed here so a difference shows up as a deliberate entry, not a fudge).
SPELLING: dict[str, str] = {}


def operand_value(text: str) -> object:
    t = text.strip().lower()
    if m := re.fullmatch(r"x([0-9a-f]{4})", t):            # d48 label X0123
        return int(m.group(1), 16)
    if m := re.fullmatch(r"(#?)0*([0-9a-f]+)h", t):         # 10h, #10h, 0ffh
        return (m.group(1), int(m.group(2), 16))
    return SPELLING.get(t, t)


def normalise(mn: str, ops: str) -> tuple[str, tuple[object, ...]]:
    words = tuple(operand_value(o) for o in ops.split(",")) if ops.strip() else ()
    words = tuple(("", w[1]) if isinstance(w, tuple) and w[0] == "" else w for w in words)
    # an address operand is a plain number on both sides
    words = tuple(w[1] if isinstance(w, tuple) and w[0] == "" else w for w in words)
    return SPELLING.get(mn, mn), words


def all_opcodes_rom() -> bytes:
    """Every valid opcode once (operand byte 10h); NOP inside straight-line code (d48 treats a 00 after a jump or at the start as padding)."""
    rom = bytearray()
    codes = [o for o in OPCODES if o.legal]
    codes.insert(5, codes.pop(0))       # NOP moves into straight-line code
    for op in codes:
        rom.append(op.code)
        if op.size == 2:
            rom.append(0x10)
    return bytes(rom)


def run_d48(rom: bytes, tmp_path) -> dict[int, tuple[str, tuple[object, ...]]]:
    (tmp_path / "rom.bin").write_bytes(rom)
    subprocess.run([D48, "-d", "-b", "rom.bin"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=30)
    result = {}
    for line in (tmp_path / "rom.d48").read_text("latin-1").splitlines():
        if m := D48_LINE.match(line):
            result[int(m.group("addr"), 16)] = normalise(m.group("mn"), m.group("ops"))
    return result


def ours(rom: bytes) -> dict[int, tuple[str, tuple[object, ...]]]:
    result = {}
    for line in disassemble(rom, 0).splitlines():
        if m := OUR_LINE.match(line):
            result[int(m.group("addr"), 16)] = normalise(m.group("mn"), m.group("ops"))
    return result


def test_every_valid_opcode_matches_d48(tmp_path):
    rom = all_opcodes_rom()
    theirs = run_d48(rom, tmp_path)
    mine = ours(rom)
    assert len(mine) == 230
    # every instruction d48 shows is one of ours, identical in mnemonic and operands
    assert set(theirs) == set(mine), sorted(set(theirs) ^ set(mine))
    diffs = {a: (mine[a], theirs[a]) for a in mine if mine[a] != theirs[a]}
    assert diffs == {}
    # and the disassembly reassembles to the ROM
    assert assemble(disassemble(rom, 0)).data == rom


def test_d48_output_assembles_with_asm48(tmp_path):
    """d48's own source (asl-compatible 8048 syntax) assembles to the same ROM with asm48."""
    rom = all_opcodes_rom()
    run_d48(rom, tmp_path)
    text = (tmp_path / "rom.d48").read_text("latin-1")
    # d48 ends each comment with the bytes as characters; for 5Ch that is a backslash, which
    # continues the line in asl (and asm48), so the next instruction would vanish
    text = re.sub(r"\\$", "", text, flags=re.MULTILINE)
    assert assemble(text).image(1, len(rom) - 1) == rom[1:]
