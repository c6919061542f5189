"""Helpers for the serial joystick tests: waiting with a deadline, a pseudo-terminal pair, and a
fake machine that records `set_joystick` and shows the bus bits the console would read."""
from __future__ import annotations

import os
import time
import tty
from typing import Callable

DEADLINE_S = 3.0     # a failing wait gives up after this long (never a speed assertion)


def wait_until(predicate: Callable[[], object], timeout: float = DEADLINE_S) -> bool:
    """Poll `predicate` until true or `timeout` passes; returns its last truth value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.002)
    return bool(predicate())


class Pty:
    """The adapter's end (master fd) and the path a reader opens (slave)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class FakeMachine:
    """Records `set_joystick` like `o2em_core.Machine`, and the bits the console would read."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, dict]] = []
        self.sticks = [dict(up=False, down=False, left=False, right=False, fire=False)] * 2

    def set_joystick(self, n: int, *, up: bool = False, down: bool = False, left: bool = False,
                     right: bool = False, fire: bool = False) -> None:
        state = dict(up=up, down=down, left=left, right=right, fire=fire)
        self.calls.append((n, state))
        self.sticks = [state if i == n else s for i, s in enumerate(self.sticks)]

    def bus(self, n: int) -> int:
        """What INS A,BUS returns with stick n selected: active low, docs/hardware.md §6."""
        s = self.sticks[n]
        pressed = s["up"] | s["right"] << 1 | s["down"] << 2 | s["left"] << 3 | s["fire"] << 4
        return 0xFF & ~pressed
