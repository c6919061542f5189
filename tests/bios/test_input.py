"""readkey's edge detection (bios.md 4.5) with keys.a48, and getjoystick/decodejoystick
steering a sprite through the VBLANK table with joystick.a48."""
from __future__ import annotations

from .carts import machine, run


def tap(m, key: str, hold: int = 4, gap: int = 3) -> None:
    m.press(key)
    run(m, hold)
    m.release(key)
    run(m, gap)


def test_each_press_is_reported_once():
    m = machine("keys", frames=3)
    tap(m, "A")
    tap(m, "A", hold=8)
    tap(m, "5")
    tap(m, "CLEAR")
    assert m.iram[0x20] == 4
    assert list(m.iram[0x21:0x25]) == [0x20, 0x20, 0x05, 0x2E]
    assert m.iram[7] == 0xFF                  # RB0.R7 forgets the key once none is down


def test_a_second_key_while_the_first_is_held_is_new():
    m = machine("keys", frames=3)
    m.press("Q")
    run(m, 3)
    m.press("1")                              # row 0 is scanned first: 1 wins
    run(m, 3)
    m.release_all()
    run(m, 3)
    assert list(m.iram[0x20:0x23]) == [2, 0x18, 0x01]


def test_joystick_moves_the_sprite_through_the_table():
    m = machine("joystick", frames=5)
    x0, y0 = int(m.iram[0x21]), int(m.iram[0x22])
    m.set_joystick(0, right=True, up=True)
    run(m, 10)
    m.set_joystick(0)
    run(m, 2)
    x1, y1 = int(m.iram[0x21]), int(m.iram[0x22])
    assert (x1 - x0, y0 - y1) == (10, 10)
    assert m.iram[0x24] == 1                  # decodejoystick: up-right
    assert (m.vdc_regs[0x00], m.vdc_regs[0x01]) == (y1, x1)   # copied while graphics on
    assert m.vdc_regs[0xA0] & 0x28 == 0x28


def test_joystick_directions_and_fire():
    m = machine("joystick", frames=5)
    m.set_joystick(0, left=True, down=True, fire=True)
    run(m, 4)
    assert m.iram[0x24] == 5 and m.iram[0x23] == 1    # down-left, fire held
    m.set_joystick(0)
    run(m, 3)
    assert m.iram[0x23] == 0


def test_the_other_stick_is_not_read():
    m = machine("joystick", frames=5)
    x0 = int(m.iram[0x21])
    m.set_joystick(1, right=True)
    run(m, 5)
    assert m.iram[0x21] == x0


def test_getjoystick_p17_keeps_the_cart_p1_and_readkey_plus_scans_the_caller_bank():
    m = machine("plus")
    m.set_joystick(0, left=True, up=True)
    m.press("A")
    run(m, 6)
    ir = m.iram
    assert ir[0x20] == 0x3B                  # 38 | bank 3: P1.7 still 0
    assert (ir[0x21], ir[0x22]) == (0xFF, 0xFF)   # left, up
    assert (ir[0x23], ir[0x24]) == (0x20, 0x20)   # A, and RB1.R7 = the key
    assert ir[0x25] & 0x80                   # held: no new key


def test_getjoystick_leaves_the_raw_stick_byte_in_r1_and_gives_the_callers_p1_back():
    m = machine("joyraw", frames=3)
    m.set_joystick(0, up=True, fire=True)
    m.set_joystick(1, left=True)
    run(m, 3)
    ir = m.iram
    raw0, raw1 = int(ir[0x20]), int(ir[0x22])
    assert raw0 & 0x1F == 0x1F & ~0x11        # active low: up (bit 0) and fire (bit 4)
    assert raw1 & 0x1F == 0x1F & ~0x08        # left (bit 3) on the other stick
    assert ir[0x21] & 0xFC == 0xB4            # 38F: the caller's P1 back, the VDC selected
    assert m.vdc_regs[0x02] == raw0           # so the MOVX after it reached the VDC
    assert ir[0x25] & 0xFC == 0xAC            # 38F called with external RAM: P1 = AC|bank
    assert m.xram[0x10] == raw0               # so the MOVX after it reached external RAM
    assert ir[0x23] & 0xFC == 0x38            # 395: P1 from R0 (the cart's), P1.7 = 0
    m.set_joystick(0)
    m.set_joystick(1)
    frames = int(ir[0x24])
    run(m, 2)
    assert int(m.iram[0x24]) > frames
    assert m.iram[0x20] & 0x1F == 0x1F and m.iram[0x22] & 0x1F == 0x1F   # released
