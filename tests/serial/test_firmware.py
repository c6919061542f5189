"""The adapter firmware: its protocol constants match the Python reader's, its pin table is
complete, and the sketch itself, built for the host against a small Arduino shim, debounces,
sends a frame per change plus keep-alives, and produces exactly the Python encoder's frames.
avr-g++ (Debian gcc-avr + avr-libc), when installed, checks that it compiles for the ATmega328."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from videopac.sticks import serial_line as proto
from videopac.sticks.serial_line import FrameDecoder, JoystickState, encode_frame

SKETCH = "tools/joystick_adapter"
SHIM = "tests/serial/firmware_shim"


def defines(root) -> dict[str, int]:
    text = (root / SKETCH / "joystick_protocol.h").read_text()
    return {name: int(value, 0) for name, value in
            re.findall(r"^#define (\w+) (0x[0-9A-Fa-f]+|\d+)\b", text, re.M)}


def pin_table(root) -> list[tuple[int, int, str]]:
    text = (root / SKETCH / "joystick_adapter.ino").read_text()
    table = text[text.index("SWITCHES[] = {"):text.index("};", text.index("SWITCHES[] = {"))]
    return [(int(p), int(s), b) for p, s, b in re.findall(r"\{(\d+), (\d), (BIT_\w+)\}", table)]


def test_firmware_constants_are_the_python_ones(root):
    found = defines(root)
    assert set(found) >= {"PROTOCOL_VERSION", "START_FLAG", "FRAME_LENGTH", "CRC7_POLY",
                          "STICK_MASK", "BIT_UP", "BIT_RIGHT", "BIT_DOWN", "BIT_LEFT", "BIT_FIRE",
                          "DEFAULT_BAUD", "KEEPALIVE_MS"}
    for name, value in found.items():
        if name.endswith("_H"):
            continue                                         # include guard
        assert getattr(proto, name) == value, name


def test_pin_table_has_every_switch_once_and_spares_serial_and_led(root):
    table = pin_table(root)
    assert sorted((s, b) for _, s, b in table) == sorted(
        (s, f"BIT_{n}") for s in (0, 1) for n in ("UP", "DOWN", "LEFT", "RIGHT", "FIRE"))
    pins = [p for p, _, _ in table]
    assert len(set(pins)) == 10 and not {0, 1, 13} & set(pins)


@pytest.fixture(scope="module")
def adapter(root, tmp_path_factory):
    """Run the sketch on the host; returns run(commands) -> stdout lines."""
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed: the sketch cannot be built for the host")
    exe = tmp_path_factory.mktemp("fw") / "adapter"
    subprocess.run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", f"-I{root / SHIM}",
                    f"-I{root / SKETCH}", str(root / SHIM / "harness.cpp"), "-o", str(exe)],
                   check=True, capture_output=True)

    def run(commands: str) -> list[str]:
        res = subprocess.run([str(exe)], input=commands, capture_output=True, text=True,
                             timeout=10, check=True)
        lines = res.stdout.splitlines()
        assert not [l for l in lines if l.startswith("E ")], lines
        return lines
    return run


def frames_of(lines: list[str]) -> list[tuple[int, bytes]]:
    """(time ms, bytes) of every Serial.write."""
    return [(int(l.split()[1]), bytes.fromhex("".join(l.split()[2:])))
            for l in lines if l.startswith("T ")]


def test_firmware_frames_equal_the_python_encoder_for_every_state(adapter):
    commands = "".join(f"frame {a} {b}\n" for a in range(32) for b in range(32))
    got = [bytes.fromhex(l[2:].replace(" ", "")) for l in adapter(commands) if l.startswith("F ")]
    assert got == [encode_frame(JoystickState.from_bits(a), JoystickState.from_bits(b))
                   for a in range(32) for b in range(32)]


def test_firmware_speaks_115200_and_announces_itself(adapter):
    lines = adapter("")
    assert "B 115200" in lines
    assert frames_of(lines) == [(0, encode_frame(JoystickState(), JoystickState()))]


def test_firmware_debounces_and_sends_each_change_once(adapter):
    # stick 0 up is pin 2, stick 1 fire pin 11 (pin table); 0 = closed to ground
    lines = adapter("run 20\n"
                    "pin 2 0\nrun 2\npin 2 1\nrun 1\npin 2 0\nrun 1\npin 2 1\nrun 10\n"  # glitch
                    "pin 2 0\nrun 2\npin 2 1\nrun 1\npin 2 0\nrun 30\n"   # press, bounces till 37
                    "pin 11 0\nrun 30\n"                                  # clean press at 67
                    "pin 2 1\npin 11 1\nrun 30\n")                        # release both at 97
    decoder = FrameDecoder()
    sent = [(t, decoder.feed(data)[0]) for t, data in frames_of(lines)]
    assert decoder.counters.bad == 0
    changes = [(t, s) for i, (t, s) in enumerate(sent) if i == 0 or s != sent[i - 1][1]]
    up, fire = JoystickState(up=True), JoystickState(fire=True)
    assert changes == [(0, (JoystickState(), JoystickState())),
                       (42, (up, JoystickState())),            # 5 ms after the last bounce
                       (72, (up, fire)),
                       (102, (JoystickState(), JoystickState()))]


def test_firmware_repeats_its_state_every_100_ms(adapter):
    times = [t for t, _ in frames_of(adapter("run 450\n"))]
    assert times == [0, 100, 200, 300, 400]
    # a change restarts the keep-alive period
    times = [t for t, _ in frames_of(adapter("run 50\npin 3 0\nrun 200\n"))]
    assert times == [0, 55, 155]


def test_firmware_compiles_for_the_atmega328(root, tmp_path):
    if shutil.which("avr-g++") is None:
        pytest.skip("avr-g++ not installed (Debian gcc-avr, avr-libc)")
    obj = tmp_path / "adapter.o"
    res = subprocess.run(["avr-g++", "-mmcu=atmega328p", "-Os", "-Wall", "-Wextra", "-Werror",
                          f"-I{root / SHIM}", "-include", "Arduino.h", "-x", "c++", "-c",
                          str(root / SKETCH / "joystick_adapter.ino"), "-o", str(obj)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
