"""The save-state file: a header, then the machine's state arrays one after the other as named
sections (``SECTIONS``). The header's layout field is a fingerprint of what gives those bytes
their meaning, computed from the tables that define them (the sections, the register file
``state.REGISTERS``, the parts of ``mem`` ``state.MEM_PARTS``, the sound state
``sound.SOUND_STATE``, the compositor's scratch ``raster.SCRATCH_FIELDS``), so a state of another
layout is refused as one of an older version, never misread. ``EARLIER`` and
``SAME_BYTES`` say which states of earlier versions load, and how.
"""
from __future__ import annotations

import struct
import zlib
from typing import NamedTuple

import numpy as np

from i18n import N_, _

from . import raster, sound, state


class StateError(ValueError):
    """A save state that does not belong to this machine or is damaged."""


class Section(NamedTuple):
    """One state array as the file holds it, in the order of ``SECTIONS``."""

    name: str
    dtype: type[np.generic]
    shape: tuple[int, ...]
    meaning: str

    @property
    def nbytes(self) -> int:
        return int(np.dtype(self.dtype).itemsize * np.prod(self.shape))


SECTIONS: tuple[Section, ...] = (
    Section("regs", np.int64, (state.REGS_SIZE,), "the register file (state.REGISTERS)"),
    Section("mem", np.uint8, (state.MEM_SIZE,), "RAM, video registers, keys, sticks (state.py)"),
    Section("work", np.uint8, (raster.WORK_ROWS * raster.WIDTH,),
            "the frame being drawn and the compositor's scratch (raster.py)"),
    Section("frame", np.uint8, (raster.HEIGHT, raster.WIDTH), "the last finished frame"),
    Section("snd", np.int64, (sound.SND_SIZE,), "the sound section's state (sound.py)"),
    Section("audio", np.int16, (sound.AUDIO_CAPACITY,), "room for a frame's samples"),
)

MAGIC = b"VPSTATE\x00"
VERSION = 2                 # of the header; version 1 had zeros where the layout field is
HEADER = struct.Struct("<8sHBxIIIII")  # magic, version, region, layout, BIOS CRC-32,
#                                        cartridge CRC-32, payload length, payload CRC-32
PAYLOAD_SIZE = sum(s.nbytes for s in SECTIONS)
STATE_SIZE = HEADER.size + PAYLOAD_SIZE
STATE_FILE_LIMIT = 2 * STATE_SIZE   # a file of more than that is no state at all


def layout_description() -> list[object]:
    """What gives a save state's bytes their meaning, read from the tables that define them:
    the sections (name, element type, shape); the register file's names in order (one int64
    each); the parts of ``mem`` (name, bytes); the sound state's names in order (one int64
    each); where the compositor's scratch starts in ``work`` and its fields (name, elements,
    bytes per element); and the values of our own making that the bytes hold (``codes``). Each
    table is in memory order, so the offsets follow from it. The meanings and the ranges a
    state may hold are not part of it: rewording a row or checking a value more strictly keeps
    every state readable."""
    codes = [("EV_LINE_END", state.EV_LINE_END), ("EV_VBLANK", state.EV_VBLANK),  # EV_KIND
             ("KIND_OBJECTS", raster.KIND_OBJECTS),                     # in the scratch's _KIND
             ("NO_EDGE_PASS", raster.NO_EDGE_PASS),                     # a bit of _RULES
             ("DC_SHIFT", sound.DC_SHIFT), ("POLE_SHIFT", sound.POLE_SHIFT)]  # fixed points
    return [
        [(s.name, np.dtype(s.dtype).str, s.shape) for s in SECTIONS],
        [row.name for row in state.REGISTERS],
        [(part.name, part.size) for part in state.MEM_PARTS],
        [row.name for row in sound.SOUND_STATE],
        raster.SCRATCH_AT,
        [(row.name, row.count, row.size) for row in raster.SCRATCH_FIELDS],
        codes,
    ]


def layout_fingerprint() -> int:
    """CRC-32 of ``layout_description()``: a change to any table of the state's layout changes
    it, and nothing else does."""
    return zlib.crc32(repr(layout_description()).encode())


class Earlier(NamedTuple):
    """Headers of earlier versions that did not carry their layout's fingerprint: the layout
    their bytes have, and whether they may hold 0 in the board registers (filled in)."""

    version: int
    layout: int
    bytes_of: int
    zero_board: bool
    note: str


EARLIER: tuple[Earlier, ...] = (
    Earlier(1, 0, 0x121F8E41, True,
            "version 1 wrote no layout field; its last layout is 0x121F8E41, and states saved "
            "before boards other than the standard one existed hold 0 in the board registers"),
)

# Earlier fingerprints whose bytes are exactly today's (a rename that kept every byte), keyed by
# today's fingerprint: a real change of the layout makes a new fingerprint and so drops them.
# 0x64B56BAA: before the fingerprint was computed from the tables alone (it took module constants
# by their names: any new private upper-case integer of raster.py changed it) and the sound state
# and the parts of ``mem`` became tables; tests/vdc/states holds states of it with today's bytes.
# 0x121F8E41: before the compositor's scratch was named from one table (raster.SCRATCH_FIELDS:
# _DRAWN_LO/_HI and _SPAN became _DRAWN, _SPAN_LEFT/_RIGHT; tests/vdc/states proves the bytes).
SAME_BYTES: dict[int, tuple[int, ...]] = {0xC5BA7A2C: (0x64B56BAA, 0x121F8E41)}

def readable_layouts() -> tuple[int, ...]:
    """The fingerprints whose states this emulator reads: its own and ``SAME_BYTES``'s."""
    ours = layout_fingerprint()
    return (ours,) + SAME_BYTES.get(ours, ())


OLDER_VERSION = N_("the save state was made by an older version of this emulator, whose states "
                   "this version cannot read; start the game anew and save again")


class Read(NamedTuple):
    """A state file taken apart: the header's region and CRC-32s, and its sections by name."""

    ntsc: int
    bios_crc: int
    cart_crc: int
    zero_board: bool            # its board registers may be 0 (Earlier.zero_board)
    sections: dict[str, np.ndarray]


def write(sections: dict[str, np.ndarray], ntsc: bool, bios_crc: int, cart_crc: int) -> bytes:
    """A state file of the named arrays (each shaped as its entry of ``SECTIONS``)."""
    payload = b"".join(sections[s.name].tobytes() for s in SECTIONS)
    return HEADER.pack(MAGIC, VERSION, int(ntsc), layout_fingerprint(), bios_crc, cart_crc,
                       len(payload), zlib.crc32(payload)) + payload


def read(data: bytes) -> Read:
    """Take a state file apart: copies of its sections, by name. A file that is no state, is
    damaged or has another layout raises StateError (one sentence); what belongs to which
    machine (region, ROMs, values) is the caller's to check."""
    if len(data) < HEADER.size or data[:len(MAGIC)] != MAGIC:
        raise StateError(_("this is not a Videopac save state"))
    _magic, version, ntsc, layout, bios_crc, cart_crc, length, crc = \
        HEADER.unpack_from(data)
    payload = memoryview(data)[HEADER.size:]
    if version > VERSION:
        raise StateError(_("the save state was made by a newer version of this emulator "
                           "(state version {version}, this one reads up to {ours}); update "
                           "videopac to load it").format(version=version, ours=VERSION))
    if length != len(payload) or zlib.crc32(payload) != crc:
        raise StateError(_("the save state is damaged (length or checksum wrong)"))
    earlier = [e for e in EARLIER if (e.version, e.layout) == (version, layout)]
    if version == VERSION:
        bytes_of: int | None = layout
    else:                       # a header without the fingerprint: what its row says, if any
        bytes_of = earlier[0].bytes_of if earlier else None
    if bytes_of not in readable_layouts() or length != PAYLOAD_SIZE:
        raise StateError(_(OLDER_VERSION))
    sections, offset = {}, 0
    for s in SECTIONS:
        count = s.nbytes // np.dtype(s.dtype).itemsize
        sections[s.name] = np.frombuffer(payload, s.dtype, count, offset).reshape(s.shape).copy()
        offset += s.nbytes
    return Read(ntsc, bios_crc, cart_crc, bool(earlier) and earlier[0].zero_board, sections)
