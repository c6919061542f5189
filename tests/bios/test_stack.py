"""Stack budget (bios.md 5.4): stepping the test carts instruction by instruction, cart code
plus BIOS never nests deeper than 3 levels, and an interrupt never needs more than its own
frame plus one call."""
from __future__ import annotations

import pytest

from .carts import machine


def deepest(m, steps: int, press: str | None = None) -> tuple[int, int]:
    """(deepest SP outside interrupts, deepest levels used by an interrupt incl. its frame)."""
    main = irq = 0
    base = None
    for n in range(steps):
        if press and n == steps // 2:
            m.press(press)
        m.step()
        cpu = m.cpu
        if cpu.in_irq:
            if base is None:
                base = cpu.sp - 1                 # SP before the interrupt pushed its frame
            irq = max(irq, cpu.sp - base)
        else:
            base = None
            main = max(main, cpu.sp)
    return main, irq


@pytest.mark.parametrize("name, steps, press", [
    ("hello", 60000, "1"),        # selectgame, init, printchar, waitforkey, playsound
    ("clock", 30000, None),       # initclock, doclock (table + sound-free VBLANKs)
    ("routines", 60000, None),    # tables, tablebcdbyte, bit fields, multiply/divide
    ("hooks", 30000, None),       # sound events, custom player, timer handler
])
def test_stack_within_the_budget(name, steps, press):
    main, irq = deepest(machine(name), steps, press)
    assert main <= 3
    assert irq <= 2
