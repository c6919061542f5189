"""The bus of the console (docs/hardware.md §4–6): program memory (internal BIOS ROM and the
cartridge with P10/P11 bank selection), the MOVX external data space decoded by port-1 bits,
and the keyboard and joysticks read through P2 and the data bus."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import int64, njit, uint8

from . import vdc
from .pointer import view
from .state import CART_BANK_MASK, CART_BANK_SIZE, CART_HIGH, CART_MASK

BIOS_SIZE = 0x400
P1_BANK = 0x03                      # P10, P11: cartridge bank = P1 & 3
P1_KBD, P1_VDC, P1_RAM, P1_COPY, P1_LUM = 0x04, 0x08, 0x10, 0x40, 0x80   # active low


class Board(NamedTuple):
    """How a cartridge board maps its ROM into CPU 0x400–0xFFF (docs/hardware.md §4.2).

    The CPU window 0x400–0xBFF always shows ``bank_size`` × bank + 0x000–0x7FF; the window
    0xC00–0xFFF shows bank offset ``high`` + 0x000–0x3FF. ``bank_mask`` is the part of P10/P11
    the board decodes (the number of banks − 1)."""

    name: str
    bank_size: int        # bytes between two banks in the image
    bank_mask: int        # bank = P1 & bank_mask
    high: int             # bank offset seen at CPU 0xC00–0xFFF


# Standard board: A10 is not connected, so a 2 KB bank shows ROM 0x000–0x7FF at 0x400–0xBFF and
# 0xC00–0xFFF repeats 0x800–0xBFF (bank offset 0x400). The 3 KB-per-bank board connects A10:
# CPU 0x400–0xFFF is bank offset 0x000–0xBFF (0x000–0x3FF of each 4 KB is under the BIOS).
# At reset P1 = 0xFF, so both show their last bank (bank = 3 & bank_mask).
STANDARD, THREE_KB = "standard", "3 KB per bank"
BOARDS: dict[int, Board] = {
    2048: Board(STANDARD, 0x800, 0, 0x400),
    4096: Board(STANDARD, 0x800, 1, 0x400),
    8192: Board(STANDARD, 0x800, 3, 0x400),
    3072: Board(THREE_KB, 0xC00, 0, 0x800),
    6144: Board(THREE_KB, 0xC00, 1, 0x800),
    12288: Board(THREE_KB, 0xC00, 3, 0x800),
}
CART_SIZES = tuple(sorted(BOARDS))      # the image sizes a Machine accepts


@njit(cache=True)
def map_program(prog: np.ndarray, bios: np.ndarray, cart: np.ndarray, regs: np.ndarray,
                p1: int) -> None:
    """Lay out the 4 KB program space for the bank selected by P10/P11: the BIOS at
    0x000–0x3FF; the cartridge's bank (``Board``, from the registers CART_BANK_SIZE,
    CART_BANK_MASK and CART_HIGH) at 0x400–0xFFF; an empty slot reads 0xFF. (Programs switch
    banks several times a frame, so this copies in loops LLVM vectorizes.)"""
    # int64 arguments, never constants: numba compiles a function once per literal value
    _copy(prog, np.int64(0), bios, np.int64(0), np.int64(BIOS_SIZE))
    if regs[CART_MASK] < 0:
        for i in range(BIOS_SIZE, 0x1000):
            prog[i] = 0xFF
        return
    bank = (p1 & regs[CART_BANK_MASK]) * regs[CART_BANK_SIZE]
    _copy(prog, np.int64(0x400), cart, bank, np.int64(0x800))
    _copy(prog, np.int64(0xC00), cart, bank + regs[CART_HIGH], np.int64(0x400))


@njit(cache=True)
def map_program_at(prog_at: int, bios_at: int, cart_at: int, regs_at: int, p1: int) -> None:
    """``map_program`` on the addresses of the machine's arrays (pointer.py): the same compiled
    code the hot loop uses, so a first start compiles it once."""
    map_program(view(prog_at, uint8), view(bios_at, uint8), view(cart_at, uint8),
                view(regs_at, int64), p1)


@njit(cache=True)
def _copy(dst: np.ndarray, at: int, src: np.ndarray, start: int, n: int) -> None:
    """dst[at:at + n] = src[start:start + n] (element by element, so that it works on arrays
    and on the compiled loop's pointers alike; LLVM vectorizes it)."""
    for i in range(n):
        dst[at + i] = src[start + i]


@njit(cache=True)
def movx_read(regs: np.ndarray, xram: np.ndarray, vregs: np.ndarray, work: np.ndarray,
              p1: int, tick: int, addr: int) -> int:
    """MOVX A,@Ri: every selected device drives the bus, the result is their AND (open bus
    0xFF). VDC: P13 = 0 and P16 = 0; RAM (A7 = 0 only): P14 = 0."""
    value = 0xFF
    if (p1 & (P1_VDC | P1_COPY)) == 0:
        value &= vdc.read(regs, vregs, work, p1, tick, addr)
    if (p1 & P1_RAM) == 0 and addr < 0x80:
        value &= int(xram[addr])
    return value


@njit(cache=True)
def movx_write(regs: np.ndarray, xram: np.ndarray, vregs: np.ndarray, work: np.ndarray,
               snd: np.ndarray, p1: int, tick: int, addr: int, value: int) -> None:
    """MOVX @Ri,A: VDC when P13 = 0 (P16 ignored); RAM (A7 = 0 only) when P14 = 0 and P16 = 0.
    P16 = 1 is the BIOS "copy" mode: RAM read + VDC write in one MOVX pair."""
    if (p1 & P1_VDC) == 0:
        vdc.write(regs, vregs, work, snd, p1, tick, addr, value)
    if (p1 & (P1_RAM | P1_COPY)) == 0 and addr < 0x80:
        xram[addr] = value


@njit(cache=True)
def read_p2(keys: np.ndarray, p1: int, p2: int) -> int:
    """IN A,P2: the latch ANDed with the 74148 encoder of the selected key row: bit 4 = 0 when a
    key is down, bits 7–5 = 7 − highest pressed column (docs/hardware.md §5.1)."""
    if (p1 & P1_KBD) == 0:
        row_bits = int(keys[p2 & 7])
        if row_bits:
            col = 7
            while not (row_bits >> col) & 1:
                col -= 1
            return p2 & (((7 - col) << 5) | 0x0F)
    return p2


@njit(cache=True)
def read_bus(joys: np.ndarray, p1: int, p2: int) -> int:
    """INS A,BUS: the selected joystick (P12 = 0, P20–P22 = 0 or 1) pulls its lines low."""
    if (p1 & P1_KBD) == 0 and (p2 & 7) < 2:
        return 0xFF & ~int(joys[p2 & 7])
    return 0xFF
