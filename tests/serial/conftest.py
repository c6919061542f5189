"""Fixtures for the serial joystick tests: pseudo-terminal pairs, readers that always stop,
and a check that no thread outlives its test (helpers: joystick_test_support.py)."""
from __future__ import annotations

import threading

import pytest

from joystick_test_support import Pty, wait_until
from videopac.sticks.serial_line import SerialJoystickReader


@pytest.fixture
def pty_pair():
    pair = Pty()
    yield pair
    pair.close()


@pytest.fixture
def make_reader():
    """Start readers (short retry backoff for replug tests); all are closed after the test."""
    readers: list[SerialJoystickReader] = []

    def make(port: str, **kwargs) -> SerialJoystickReader:
        kwargs.setdefault("retry_max_s", 0.2)
        reader = SerialJoystickReader(port, **kwargs)
        readers.append(reader)
        return reader

    yield make
    for reader in readers:
        reader.close()


@pytest.fixture(autouse=True)
def no_thread_left_behind():
    before = set(threading.enumerate())
    yield
    assert wait_until(lambda: not set(threading.enumerate()) - before, 2.0), \
        f"threads left running: {set(threading.enumerate()) - before}"
