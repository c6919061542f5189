"""The --joystick N=SOURCE grammar: every source kind, and one clear sentence for each mistake."""
from __future__ import annotations

import pytest

from joystick_test_support import Pty, wait_until
from videopac.sticks.routing import (JoystickSpec, JoystickSpecError, open_serial_sources,
                                     parse_joystick_spec, parse_joystick_specs)
from videopac.sticks.serial_line import JoystickState, SerialJoystickReader, encode_frame


@pytest.mark.parametrize("text, spec", [
    ("0=keys", JoystickSpec(0, "keys")),
    ("1=gamepad", JoystickSpec(1, "gamepad")),
    ("1=gamepad:2", JoystickSpec(1, "gamepad", gamepad=2)),
    ("0=serial:/dev/ttyUSB0", JoystickSpec(0, "serial", port="/dev/ttyUSB0", baud=115200)),
    ("0=serial:COM3@57600", JoystickSpec(0, "serial", port="COM3", baud=57600)),
    ("1=serial:socket://host:7000", JoystickSpec(1, "serial", port="socket://host:7000")),
    ("1=serial:rfc2217://a@b:2217@9600", JoystickSpec(1, "serial", port="rfc2217://a@b:2217",
                                                      baud=9600)),
    (" 0 = keys ", JoystickSpec(0, "keys")),
])
def test_valid_specs(text, spec):
    assert parse_joystick_spec(text) == spec
    assert parse_joystick_spec(spec.describe()) == spec


@pytest.mark.parametrize("text, words", [
    ("keys", "expected N=keys"),
    ("0=", "expected N=keys"),
    ("2=keys", "must be 0 (left, red) or 1 (right, blue)"),
    ("x=keys", "must be 0"),
    ("0=mouse", "unknown source 'mouse'"),
    ("0=keys:wasd", "'keys' takes no argument"),
    ("0=gamepad:first", "gamepad number must be 0, 1, 2"),
    ("0=gamepad:-1", "gamepad number must be 0, 1, 2"),
    ("0=serial:", "give the adapter's port"),
    ("0=serial:@9600", "give the adapter's port"),
    ("0=serial:/dev/ttyUSB0@0", "baud rate 0 is out of range"),
    ("0=serial:/dev/ttyUSB0@99999999", "out of range"),
])
def test_bad_specs_give_one_sentence(text, words):
    with pytest.raises(JoystickSpecError) as info:
        parse_joystick_spec(text)
    message = str(info.value)
    assert words in message and message.startswith(f"--joystick '{text}': ")
    assert "\n" not in message and message.endswith(".")


def test_list_is_ordered_and_each_joystick_given_once():
    specs = parse_joystick_specs(["1=keys", "0=serial:/dev/ttyUSB0"])
    assert [s.joystick for s in specs] == [0, 1]
    with pytest.raises(JoystickSpecError, match="joystick 0 already comes from 0=keys"):
        parse_joystick_specs(["0=keys", "0=gamepad"])
    with pytest.raises(JoystickSpecError, match="already used at 115200 baud"):
        parse_joystick_specs(["0=serial:/dev/ttyUSB0", "1=serial:/dev/ttyUSB0@9600"])


def test_one_reader_per_adapter_port_drives_the_named_joysticks(tmp_path):
    specs = parse_joystick_specs([f"1=serial:{tmp_path}/a", f"0=serial:{tmp_path}/a@115200"])
    made: list[SerialJoystickReader] = []

    def factory(port, baud):
        made.append(SerialJoystickReader(port, baud, retry_max_s=0.1))
        return made[-1]

    sources = open_serial_sources(specs, factory)
    try:
        assert len(sources) == 1 and sources[0].joysticks == (0, 1)
        assert made[0].port == f"{tmp_path}/a" and made[0].baudrate == 115200
        # the port does not exist: the reader keeps retrying in the background, nothing blocks
        assert wait_until(lambda: sources[0].poll_messages())
    finally:
        for source in sources:
            source.close()


def test_serial_source_started_from_a_spec_reads_its_port():
    pty = Pty()
    try:
        sources = open_serial_sources(parse_joystick_specs([f"1=serial:{pty.path}", "0=keys"]))
        try:
            assert wait_until(lambda: sources[0].reader.connected)
            pty.write(encode_frame(JoystickState(), JoystickState(right=True)))
            assert wait_until(lambda: sources[0].reader.state(1).right)
            assert sources[0].joysticks == (1,)
        finally:
            sources[0].close()
    finally:
        pty.close()
