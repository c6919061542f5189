"""A program written like Videopac homebrew for asl: assembles, and d48 reads back every
instruction we emitted as the instruction written in the source."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cartridge.asm48 import assemble
from cartridge.asm48.lexer import parse_line

DATA = Path(__file__).parent / "data"
SOURCE = DATA / "homebrew_style.a48"
D48 = shutil.which("d48")


@pytest.fixture(scope="module")
def program():
    return assemble(SOURCE.read_text(), str(SOURCE))


def test_symbols(program):
    s = program.symbols
    assert s["start"] == 0x40D and s["timer"] == 0x40C
    assert s["text.loop"] != s["scroll.loop"]
    assert s["message"] % 16 == 0 and "text.message" not in s
    assert s["farbank"] == 0xC00
    assert s["colour"] == 5 and s["speed"] == 3


def test_vectors_sel_mb_and_data(program):
    # JMP: A10-A8 in opcode bits 7-5, A7-A0 in the second byte; BIOS targets in bank 0
    assert program.image(0x400, 0x40B) == bytes([0x44, 0xC3, 0x04, 0x09, 0x84, 0x0C,
                                                  0x04, 0x1A, 0x84, 0x0D, 0x04, 0x44])
    far = program.symbols["farbank"]
    # mov a,#'Z' through the codepage (Z -> 20h + 25), then SEL MB0 before the call down
    assert program.image(far, far + 5) == bytes([0x23, 0x39, 0xE5, 0x34, 0x27, 0x83])
    msg = program.symbols["message"]
    assert program.image(msg, msg + 11) == bytes([0x27, 0x24, 0x2B, 0x2B, 0x2E, 0x0C,
                                                  0x36, 0x2E, 0x31, 0x2B, 0x23, 0])
    start = program.symbols["start"]
    assert program.image(msg + 12, msg + 15) == bytes([start & 0xFF, start >> 8, msg & 0xFF,
                                                       msg >> 8])


@pytest.mark.skipif(D48 is None, reason="d48 (Debian package d52) not installed")
def test_d48_decodes_each_source_instruction(program, tmp_path):
    low = program.image(0x400, program.symbols["message"] - 1)
    (tmp_path / "low.bin").write_bytes(low)
    # control file: the JMPP table is bytes (d48 addresses count from the file start)
    table = program.symbols["dispatch"] - 0x400
    (tmp_path / "low.ctl").write_text(f"b {table:x}-{table + 3:x}\n")
    subprocess.run([D48, "-d", "-b", "low.bin"], cwd=tmp_path, check=True,
                   capture_output=True, timeout=30)
    decoded = {}
    for line in (tmp_path / "low.d48").read_text("latin-1").splitlines():
        m = re.match(r"^(?:\w+:)?\t([a-z0-9]+)\b[^;]*;\s*([0-9a-f]{4}) - ", line)
        if m:
            decoded[int(m.group(2), 16) + 0x400] = m.group(1)
    checked = 0
    for entry in program.listing.splitlines():
        # listing columns: line number (8), address (4), code bytes (12), source
        m = re.match(r"^[ \d+]{8} ([0-9A-F]{4})  ([0-9A-F]{2})[0-9A-F ]{10} (.*)$", entry)
        if not m or int(m.group(1), 16) >= program.symbols["message"]:
            continue
        addr, first, text = int(m.group(1), 16), int(m.group(2), 16), m.group(3)
        mnemonic = (parse_line(text).op or "").lower()
        if mnemonic in ("db", "dw") or not mnemonic:
            continue
        if mnemonic in ("call", "jmp") and first in (0xE5, 0xF5):
            assert decoded[addr] == "sel"
            addr += 1
        assert decoded.get(addr) == mnemonic, (hex(addr), text)
        checked += 1
    assert checked >= 35          # every instruction line of the low bank was compared
