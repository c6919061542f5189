"""Register discipline: clobbers.a48 records which RB1 registers each routine changed; none
may change a register outside its bios.md outputs and clobber list (bios.md 7.2: carts depend
on registers not being clobbered as much as on the outputs)."""
from __future__ import annotations

import pytest

from .carts import machine

# slot in internal RAM -> (routine, registers bios.md lets it change)
ALLOWED = {
    0x28: ("calcchar23", {5, 6}),
    0x29: ("putchar23", {0, 5, 6}),
    0x2A: ("printchar", {0, 3, 5, 6}),
    0x2B: ("clearchar", {0, 2}),
    0x2C: ("initclock", {0, 1, 5, 6}),
    0x2D: ("multiply", {2}),
    0x2E: ("divide", {4, 5, 6}),
    0x2F: ("nibblemixer", {3, 5}),
    0x30: ("decodejoystick", {0, 1}),
    0x31: ("vdcenable", set()),
    0x32: ("extramenable", set()),
    0x33: ("tableprintchar", {0, 3, 5, 6}),
    0x34: ("tablechar23", {0, 5, 6}),
    0x35: ("tablebcdnibble", {0, 5, 6}),
    0x36: ("tableput2", {0}),
    0x37: ("bittest", {1, 2}),
    0x38: ("bitset", {1, 2}),
    0x39: ("bitclear", {1, 2}),
    0x3A: ("getjoystick", {0, 1, 2, 3}),
    0x3B: ("waitvsync", set()),
}


@pytest.fixture(scope="module", params=["pal", "ntsc"])
def masks(request):
    m = machine("clobbers", request.param, frames=10)
    assert m.iram[0x3C] == 0x3C, "not every routine returned"
    return m.iram


@pytest.mark.parametrize("slot", sorted(ALLOWED), ids=[ALLOWED[s][0] for s in sorted(ALLOWED)])
def test_no_register_outside_the_documented_list_changes(masks, slot):
    changed = {n for n in range(8) if masks[slot] >> n & 1}
    assert changed <= ALLOWED[slot][1]


def test_the_outputs_do_change(masks):
    assert masks[0x2A] & 0x09 == 0x09          # printchar: R0 += 4, R3 += 8
    assert masks[0x2E] & 0x30 == 0x30          # divide: quotient R4, remainder R5
    assert masks[0x36] == 0x01                 # tableput2: R0 -= 1
