"""Latency of the serial joysticks: from the adapter's write to the state the frame loop sets on
the machine's joystick bits (over a pseudo-terminal, so without the USB-serial chip's own delay).
Reported in docs/serial-joystick.md; run with `make bench`."""
from __future__ import annotations

import itertools
import os
import sys
import time
import tty

from videopac.sticks.serial_line import (JoystickState, SerialJoystickReader, SerialJoystickSource,
                                         encode_frame)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "serial"))
from joystick_test_support import FakeMachine  # noqa: E402

DEADLINE_S = 2.0


def test_latency_write_to_joystick_bits(benchmark):
    master, slave = os.openpty()
    tty.setraw(slave)
    reader = SerialJoystickReader(os.ttyname(slave)).start(must_open=True)
    source = SerialJoystickSource(reader, (0, 1))
    machine = FakeMachine()
    presses = itertools.cycle([(JoystickState(up=True, fire=True), 0xFF & ~0b10001),
                               (JoystickState(left=True), 0xFF & ~0b01000)])

    def press_and_wait() -> None:
        state, bus = next(presses)
        os.write(master, encode_frame(state, state))
        end = time.monotonic() + DEADLINE_S
        while True:
            source.apply(machine)                 # what the frame loop does each frame
            if machine.bus(0) == bus and machine.bus(1) == bus:
                return
            assert time.monotonic() < end, "state never arrived"
            time.sleep(0.00005)                   # let the reader thread run, as a frame loop does

    try:
        benchmark.pedantic(press_and_wait, rounds=200, iterations=1, warmup_rounds=3)
    finally:
        reader.close()
        os.close(master)
        os.close(slave)
