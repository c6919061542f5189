"""playsound and the sound sequencer (bios.md 3.6, 4.6) with the built-in tunes: tunes.a48
measures how many VBLANKs each tune keeps 3F bit 6 set; that must match the opcode contract
applied to the tune bytes in page 3."""
from __future__ import annotations

import pytest

from cartridge.images import builtin_image

from .carts import machine

TUNES = [0x28, 0x2E, 0x3C, 0x4A, 0x56, 0x5A, 0x5E, 0x6A]


def frames_until_stop(rom: bytes, tune: int) -> tuple[int, int]:
    """VBLANKs from playsound until the stop opcode runs, and the loudest AA value written."""
    page, offset, vblank, loudest = rom[0x300:], tune, 1, 0   # first opcode: next VBLANK
    while True:
        cmd = page[offset]
        if cmd & 0x80:
            loudest = max(loudest, page[page[offset + 1] + 3])
            vblank += (cmd & 0x7F) or 256
            offset += 2
        elif cmd & 0x40:
            loudest = max(loudest, page[offset + 1])
            vblank += (cmd & 0x3F) or 256
            offset += 2
        elif cmd & 0x20:
            vblank += (cmd & 0x1F) or 256
            offset += 1
        elif cmd & 0x10:
            offset = page[offset + 1]
        else:
            return vblank, loudest


@pytest.fixture(scope="module", params=["pal", "ntsc"])
def played(request):
    m = machine("tunes", request.param, frames=250)
    assert m.iram[0x3F] & 0x40 == 0
    return m.iram


@pytest.mark.parametrize("index, tune", list(enumerate(TUNES)))
def test_builtin_tune_lasts_as_its_opcodes_say(played, index, tune):
    frames, loudest = frames_until_stop(builtin_image("bios"), tune)
    assert played[0x20 + index] == frames
    # the tone records reached vdc_soundctrl (bit 6 is not connected: it reads back 0)
    assert played[0x28 + index] == loudest & 0xBF
