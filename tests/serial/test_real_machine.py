"""Adapter frame -> reader -> source -> the real `o2em_core.Machine` -> an 8048 program reading
the joystick bus as docs/hardware.md §6 describes: the state is on the bus in the next frame."""
from __future__ import annotations

import pytest

from joystick_test_support import Pty, wait_until
from videopac.sticks.serial_line import (RELEASED, JoystickState, SerialJoystickReader,
                                         SerialJoystickSource, encode_frame)

# Reads joystick 0 and 1 over the data bus in a loop and keeps the bytes in internal RAM
# 0x20 / 0x21 (no BIOS: the 0xFF of the empty BIOS slides into the cartridge at 0x400).
SCANNER = """
        relaxed on        ; asl reads 0x.. numbers only after RELAXED ON
        org 0x400
loop:   anl p1,#0xfb      ; P12 = 0: joystick select on
        mov a,#0xf0       ; P20-P22 = 0: joystick 0
        outl p2,a
        ins a,bus         ; the selected stick pulls its bus lines low
        mov r0,#0x20
        mov @r0,a
        mov a,#0xf1       ; P20-P22 = 1: joystick 1
        outl p2,a
        ins a,bus
        mov r0,#0x21
        mov @r0,a
        jmp loop
"""


@pytest.fixture
def machine():
    o2em_core = pytest.importorskip("o2em_core")
    asm = pytest.importorskip("cartridge.asm48.core")
    image = bytearray(b"\xff" * 2048)
    for address, byte in asm.assemble(SCANNER).memory.items():
        image[address - 0x400] = byte
    return o2em_core.Machine(None, bytes(image), region="pal")


def test_adapter_state_is_on_the_joystick_bus_in_the_next_frame(machine, make_reader):
    pty = Pty()
    try:
        reader = make_reader(pty.path).start(must_open=True)
        source = SerialJoystickSource(reader, (0, 1))
        source.apply(machine)
        machine.run_frame()
        assert (machine.iram[0x20], machine.iram[0x21]) == (0xFF, 0xFF)     # nothing pressed
        for s0, s1 in [(JoystickState(up=True, fire=True), JoystickState(left=True)),
                       (JoystickState(down=True, right=True), RELEASED),
                       (RELEASED, RELEASED)]:
            published = reader.published
            pty.write(encode_frame(s0, s1))
            assert wait_until(lambda: reader.published > published)
            source.apply(machine)                        # the frame loop, once ...
            machine.run_frame()                          # ... and one emulated frame
            # active low: bit 0 up, 1 right, 2 down, 3 left, 4 fire
            assert machine.iram[0x20] == 0xFF & ~s0.to_bits()
            assert machine.iram[0x21] == 0xFF & ~s1.to_bits()
    finally:
        pty.close()


def test_silent_adapter_lets_go_on_the_real_bus(machine, make_reader):
    pty = Pty()
    try:
        reader: SerialJoystickReader = make_reader(pty.path, silence_s=0.1).start(must_open=True)
        source = SerialJoystickSource(reader, (0,))
        pty.write(encode_frame(JoystickState(fire=True), RELEASED))
        assert wait_until(lambda: reader.state(0).fire)
        source.apply(machine)
        machine.run_frame()
        assert machine.iram[0x20] == 0xFF & ~0x10
        assert wait_until(lambda: reader.state(0) == RELEASED)            # no keep-alive came
        source.apply(machine)
        machine.run_frame()
        assert machine.iram[0x20] == 0xFF
    finally:
        pty.close()
