"""Cartridge boards (docs/hardware.md §4.2): the image size chooses the standard board (2 KB banks,
0xC00–0xFFF mirrors 0x800–0xBFF) or the board with 3 KB banks (A10 connected, KTAA), and the
program space, the reset bank, save states and the loaders all agree on it."""
from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from cartridge import romfile
from o2em_core import Machine, StateError, bus, savestate, state

from .programs import banks3k_cart, images, run


def _tagged(size: int, bank_size: int) -> bytes:
    """An image whose every byte says its bank (high nibble) and its 1 KB block in that bank
    (low nibble), so a program-space byte tells where it came from."""
    return bytes(((off // bank_size) << 4) | ((off % bank_size) >> 10) for off in range(size))


def _program_space(cart: bytes, p1: int) -> np.ndarray:
    m = Machine(bytes(1024), cart)
    bus.map_program(m._prog, m._bios, m._cart, m._regs, p1)
    return m._prog


# (image size, P1, expected bank) -- bank = P1 & (banks - 1)
@pytest.mark.parametrize("size, p1, bank", [
    (3072, 0xFF, 0), (3072, 0xFC, 0),
    (6144, 0xFF, 1), (6144, 0xFE, 0), (6144, 0xFD, 1),
    (12288, 0xFF, 3), (12288, 0xFC, 0), (12288, 0xFD, 1), (12288, 0xFE, 2),
])
def test_three_kb_bank_fills_0400_to_0fff(size: int, p1: int, bank: int) -> None:
    prog = _program_space(_tagged(size, 0xC00), p1)
    # CPU 0x400-0xFFF = bank offset 0x000-0xBFF: 1 KB blocks 0, 1, 2 of the bank, no mirror
    blocks = [int(prog[a]) for a in (0x400, 0x7FF, 0x800, 0xBFF, 0xC00, 0xFFF)]
    assert blocks == [bank << 4 | blk for blk in (0, 0, 1, 1, 2, 2)]


@pytest.mark.parametrize("size, p1, bank", [(2048, 0xFF, 0), (4096, 0xFE, 0), (4096, 0xFF, 1),
                                            (8192, 0xFD, 1), (8192, 0xFF, 3)])
def test_standard_board_still_mirrors_0800_at_0c00(size: int, p1: int, bank: int) -> None:
    prog = _program_space(_tagged(size, 0x800), p1)
    blocks = [int(prog[a]) for a in (0x400, 0x800, 0xC00, 0xFFF)]
    assert blocks == [bank << 4 | blk for blk in (0, 1, 1, 1)]


def test_reset_selects_the_last_three_kb_bank() -> None:
    # RESET sets P1 = 0xFF: bank 3 & (banks - 1), the last bank of the file, as on the
    # standard board (the reset vector area of a banked cart is at the end of the file)
    bios, cart = images("banks3k")
    m = run("banks3k", "pal", 2)
    m.reset()
    assert m.cpu.p1 == 0xFF
    assert m._prog[0x400:].tobytes() == cart[0x2400:]


def test_board_is_chosen_by_size() -> None:
    assert Machine(None, bytes(12288)).board == bus.Board("3 KB per bank", 0xC00, 3, 0x800)
    assert Machine(None, bytes(6144)).board.bank_mask == 1
    assert Machine(None, bytes(8192)).board == bus.Board("standard", 0x800, 3, 0x400)
    assert Machine(None, None).board is None


def test_loaders_accept_the_same_sizes(tmp_path) -> None:
    # cartridge/ may not import o2em_core (docs/architecture.md), so the two lists must agree
    assert romfile.CART_SIZES == bus.CART_SIZES
    path = tmp_path / "ktaa.rom"
    path.write_bytes(banks3k_cart())
    assert romfile.load_cart(path) == banks3k_cart()
    path.write_bytes(bytes(10240))
    with pytest.raises(romfile.RomFileError) as err:
        romfile.load_cart(path)
    assert str(err.value) == ("ktaa.rom is 10240 bytes; a cartridge image must be 2, 3, 4, 6, "
                              "8 or 12 KB")


def test_wrong_size_is_one_sentence() -> None:
    with pytest.raises(ValueError) as err:
        Machine(bytes(1024), bytes(10240))
    assert str(err.value) == ("the cartridge image is 10240 bytes; it must be 2048, 3072, "
                              "4096, 6144, 8192 or 12288 bytes")


def _mid_bank_machine() -> Machine:
    """banks3k stopped inside its bank loop, with bank 1 mapped (P1 & 3 = 1)."""
    m = Machine(*images("banks3k"))
    while not (m.cpu.p1 & 3 == 1 and m.cpu.pc >= 0x400):
        m.step()
    return m


def test_state_restores_the_three_kb_bank() -> None:
    m = _mid_bank_machine()
    saved = m.save_state()
    m.run_frame()
    after = m.save_state()
    fresh = Machine(*images("banks3k"))             # power-on: bank 3 mapped
    fresh.load_state(saved)
    assert fresh._prog[0x400:].tobytes() == banks3k_cart()[0xC00:0x1800]   # bank 1
    fresh.run_frame()
    assert fresh.save_state() == after
    assert fresh.xram[:18].tobytes() == m.xram[:18].tobytes()


def _as_old_state(saved: bytes) -> bytes:
    """The same state as an emulator without board registers wrote it: zeros there, version 1
    of the header without the layout field."""
    size = savestate.HEADER.size
    payload = bytearray(saved[size:])
    payload[state.CART_BANK_SIZE * 8:(state.CART_HIGH + 1) * 8] = bytes(24)
    fields = list(savestate.HEADER.unpack(saved[:size]))
    fields[-1] = zlib.crc32(payload)
    fields[1], fields[3] = 1, 0
    return savestate.HEADER.pack(*fields) + bytes(payload)


@pytest.mark.parametrize("name", ["banks", "banks3k"])
def test_old_state_without_board_registers_loads(name: str) -> None:
    m = _mid_bank_machine() if name == "banks3k" else run(name, "pal", 1)
    saved = m.save_state()
    other = Machine(*images(name))
    other.load_state(_as_old_state(saved))
    assert other.save_state() == saved               # the board comes from the image
    assert (other._prog == m._prog).all()


def test_state_of_another_board_is_refused() -> None:
    m = _mid_bank_machine()
    saved = bytearray(m.save_state())
    size = savestate.HEADER.size
    struct.pack_into("<q", saved, size + state.CART_BANK_SIZE * 8, 0x800)
    fields = list(savestate.HEADER.unpack(bytes(saved[:size])))
    fields[-1] = zlib.crc32(bytes(saved[size:]))
    bad = savestate.HEADER.pack(*fields) + bytes(saved[size:])
    before = m.save_state()
    with pytest.raises(StateError) as err:
        m.load_state(bad)
    assert str(err.value) == "the save state was made with a different cartridge board"
    assert m.save_state() == before
