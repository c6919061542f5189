"""The shipped BIOS image: rebuilt from source, every entry where bios.md puts it, the fixed
vectors and the sound data layout of bios.md 2.1, 3.6 and 5.6."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cartridge.images import ROMS, builtin_image

# bios.md section 4, routine table (our choice for the disputed pair: divide 3CF, multiply 3DD)
ENTRIES = {
    "irq": 0x009, "irqend": 0x014, "vsyncirq": 0x01A, "soundirq": 0x044, "parsesnd": 0x04B,
    "copyregs": 0x089, "readkey": 0x0B0, "readkey_plus": 0x0BC, "vdcenable": 0x0E7,
    "extramenable": 0x0EC, "init": 0x0F1, "gfxoff": 0x11C, "gfxon": 0x127, "tableend": 0x132,
    "waitforkey": 0x13D, "calcchar23": 0x14B, "clearchar": 0x16B, "waitvsync": 0x176,
    "tablebcdbyte": 0x17C, "tableprintchar": 0x197, "playsound": 0x1A2, "doclock": 0x1B0,
    "tablebcdnibble": 0x229, "tablechar23": 0x22C, "tableput2": 0x235, "initclock": 0x23A,
    "putchar23": 0x261, "bittest": 0x26A, "bitclear": 0x280, "bitset": 0x28A, "random": 0x293,
    "nibblemixer": 0x2A4, "plusselectgame": 0x2C2, "selectgame": 0x2C3, "bank02": 0x37F,
    "bank01": 0x383, "bank0": 0x387, "bank3": 0x38B, "getjoystick": 0x38F,
    "getjoystick_p17": 0x395, "decodejoystick": 0x3B1, "divide": 0x3CF, "multiply": 0x3DD,
    "printchar": 0x3EA,
}
TUNES = [0x28, 0x2E, 0x3C, 0x4A, 0x56, 0x5A, 0x5E, 0x6A]


@pytest.fixture(scope="module")
def bios() -> bytes:
    return builtin_image("bios")


def test_rebuilt_from_source_equals_shipped_image(root):
    done = subprocess.run([sys.executable, str(root / "tools" / "build_roms.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_image_is_the_1k_internal_rom(bios):
    assert len(bios) == 1024


def test_every_entry_at_its_documented_address():
    symbols = json.loads((ROMS / "bios.json").read_text())
    assert {name: symbols.get(name) for name in ENTRIES} == ENTRIES


def test_vectors_jump_to_the_cartridge_header_without_io_first(bios):
    assert bios[0x000:0x002] == bytes([0x84, 0x00])      # JMP 400, the very first instruction
    assert bios[0x003:0x005] == bytes([0x84, 0x02])      # JMP 402
    assert bios[0x007:0x009] == bytes([0x84, 0x04])      # JMP 404


def test_plusselectgame_is_a_one_byte_noop_before_selectgame(bios):
    assert bios[0x2C2] == 0x00


def test_nibblemixer_table_is_one_16_cycle(bios):
    table = bios[0x2B3:0x2C3]
    seen, n = [], 0
    for _ in range(16):
        seen.append(n)
        n = table[n]
    assert n == 0 and sorted(seen) == list(range(16))


def _walk(bios: bytes, start: int) -> list[int]:
    """Offsets of every byte a built-in tune uses, following jumps, until stop (bios.md 3.6)."""
    used, offset, visited = [], start, set()
    while offset not in visited:
        visited.add(offset)
        cmd = bios[0x300 + offset]
        used.append(offset)
        if cmd & 0x80:                                   # tone: parameter = record offset
            record = bios[0x300 + offset + 1]
            assert record % 4 == 0 and record <= 0x24, f"tune {start:02X}: record {record:02X}"
            used.append(offset + 1)
            offset += 2
        elif cmd & 0x40:
            used.append(offset + 1)
            offset += 2
        elif cmd & 0x20:
            offset += 1
        elif cmd & 0x10:
            used.append(offset + 1)
            offset = bios[0x300 + offset + 1]
        else:
            return used
    raise AssertionError(f"tune {start:02X} never stops")


@pytest.mark.parametrize("tune", TUNES)
def test_builtin_tunes_stop_and_stay_below_offset_76(bios, tune):
    used = _walk(bios, tune)
    assert max(used) < 0x76
    nxt = min([t for t in TUNES if t > tune] + [0x76])
    own = [o for o in used if o >= tune and o < nxt]
    assert own and min(own) == tune                      # its own bytes start at its ID


def test_tone_records_switch_the_sound_on(bios):
    for record in range(10):
        control = bios[0x300 + 4 * record + 3]
        assert control & 0x80 and control & 0x0F        # enabled, non-zero volume
