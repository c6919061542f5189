"""bank02 / bank01 / bank0 / bank3 (bios.md 4.11) on a 4 KB two-bank cartridge: only P1 bits
0/1 change and each continues at 408 of the new bank."""
from __future__ import annotations

from cartridge.images import builtin_image
from o2em_core import Machine

from .carts import cart, run


def test_bank_routines_switch_p1_bits_and_enter_408():
    # file 000-7FF = the bank with P1.0 = 0, 800-FFF = the one shown after reset
    m = Machine(builtin_image("bios"), cart("bank_lo") + cart("bank_hi"), region="pal")
    run(m, 5)
    ir = m.iram
    assert list(ir[0x21:0x25]) == [0xB7, 0xB7, 0xB7, 0xB5]   # reset, 2x back via bank3, bank01
    assert list(ir[0x29:0x2B]) == [0xB6, 0xB4]               # bank02 (3 -> 2), bank0 (3 -> 0)
