"""Save states written by earlier versions of the emulator load and run on to the very frames
and sounds those versions produced (tests/core/data/make_old_states.py made them)."""
from __future__ import annotations

import hashlib
import json
import pathlib
import struct
import zlib

import pytest

from o2em_core import Machine

DATA = pathlib.Path(__file__).with_name("data")
ROOT = DATA.parents[2]
# name: region, red's weapon, blue's weapon, frames of battle before the state was saved
CASES = {
    "pal_tanks": ("pal", "T", "T", 400),
    "pal_planes": ("pal", "P", "P", 100),
    "ntsc_tanks": ("ntsc", "T", "T", 400),
    "ntsc_subs": ("ntsc", "S", "S", 300),
}
STICK = ("up", "down", "left", "right", "fire")


def drive(m: Machine, frames: int, seed: int) -> dict[str, list[str]]:
    """Run ``frames`` frames with both sticks changing every 8 frames (a fixed pseudo-random
    walk from ``seed``); the hashes of every 30th frame and of all the sound."""
    state, frame_hashes, audio = seed, [], hashlib.sha256()
    for n in range(frames):
        if n % 8 == 0:
            for stick in (0, 1):
                state = (state * 1103515245 + 12345) & 0x7FFFFFFF
                m.set_joystick(stick, **{k: bool(state >> (8 + i) & 1) for i, k in enumerate(STICK)})
        m.run_frame()
        audio.update(m.audio().tobytes())
        if n % 30 == 29:
            frame_hashes.append(hashlib.sha256(m.frame.tobytes()).hexdigest())
    return {"frames": frame_hashes, "audio": [audio.hexdigest()]}


def fingerprint_of(saved: bytes) -> str:
    """The header's version and layout field of a state (magic, version, region, layout)."""
    _magic, version, _ntsc, layout = struct.unpack_from("<8sHBxI", saved)
    return f"{version}:{layout:08x}"


RECORDED = json.loads((DATA / "old_states.json").read_text())
BIOS = (ROOT / "cartridge/roms/bios.bin").read_bytes()
# The battle program as it was when the states were saved (our own image of main at 5c5f52b):
# a state holds the RAM and registers, not the cartridge, so it runs on only with the program
# it was saved from, and the battle program on main changes.
CART = zlib.decompress((DATA / "conquest.bin.z").read_bytes())


def saved(name: str) -> bytes:
    return zlib.decompress((DATA / f"{name}.state.z").read_bytes())


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_state_of_main_before_the_register_table_runs_on_identically(name: str) -> None:
    data = saved(name)
    assert fingerprint_of(data) == RECORDED[name]["layout"] == "2:121f8e41"
    m = Machine(BIOS, CART, region=CASES[name][0])
    m.load_state(data)
    assert drive(m, 150, seed=11) == {k: RECORDED[name][k] for k in ("frames", "audio")}


def as_version_1(data: bytes) -> bytes:
    """``data`` as version 1 wrote it: no layout field, and (states made before other cartridge
    boards existed) zero in the three board registers at the end of the register file."""
    payload = bytearray(data[32:])
    payload[50 * 8:53 * 8] = bytes(24)          # CART_BANK_SIZE, CART_BANK_MASK, CART_HIGH
    head = bytearray(data[:32])
    struct.pack_into("<H", head, 8, 1)
    struct.pack_into("<I", head, 12, 0)
    struct.pack_into("<I", head, 28, zlib.crc32(payload))
    return bytes(head + payload)


@pytest.mark.parametrize("name", ["pal_tanks", "ntsc_subs"])
def test_a_version_1_state_of_the_same_layout_runs_on_identically(name: str) -> None:
    m = Machine(BIOS, CART, region=CASES[name][0])
    m.load_state(as_version_1(saved(name)))
    assert drive(m, 150, seed=11) == {k: RECORDED[name][k] for k in ("frames", "audio")}


def with_header_fields(data: bytes, version: int, layout: int, cut: int = 0) -> bytes:
    """``data`` with another header version and layout field (and the payload ``cut`` bytes
    shorter), its length and checksum made right again."""
    payload = data[32:len(data) - cut]
    head = bytearray(data[:32])
    struct.pack_into("<H", head, 8, version)
    struct.pack_into("<I", head, 12, layout)
    struct.pack_into("<II", head, 24, len(payload), zlib.crc32(payload))
    return bytes(head + payload)


OLDER_VERSION = ("the save state was made by an older version of this emulator, whose states "
                 "this version cannot read; start the game anew and save again")


@pytest.mark.parametrize("version, layout, cut", [
    (2, 0x12345678, 0),          # another layout
    (2, 0, 0),
    (1, 0x121F8E41, 0),          # version 1 had no layout field
    (1, 0, 2048),                # version 1 of arrays of other sizes
    (2, 0x121F8E41, 2048),
    (0, 0, 0),
])
def test_states_of_other_layouts_are_refused_as_older(version: int, layout: int,
                                                      cut: int) -> None:
    m = Machine(BIOS, CART)
    before = m.save_state()
    with pytest.raises(Exception) as err:
        m.load_state(with_header_fields(saved("pal_tanks"), version, layout, cut))
    assert type(err.value).__name__ == "StateError" and str(err.value) == OLDER_VERSION
    assert m.save_state() == before
