"""The background reader over real pseudo-terminals: states reach the machine's joystick bits,
bad input is ignored and counted, a silent line releases the sticks, and an unplugged adapter
is found again when it comes back."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time

import pytest
import serial

from joystick_test_support import FakeMachine, wait_until
from videopac.sticks.serial_line import (RELEASED, JoystickState, SerialJoystickReader,
                                         SerialJoystickSource, encode_frame)

UP_FIRE = JoystickState(up=True, fire=True)
LEFT = JoystickState(left=True)


def started(make_reader, path: str, **kwargs) -> SerialJoystickReader:
    reader = make_reader(path, **kwargs).start(must_open=True)
    return reader


def send_and_wait(reader: SerialJoystickReader, pty, data: bytes, frames: int = 1) -> None:
    """Write `data` and wait until the reader has published `frames` more valid frames."""
    target = reader.published + frames
    pty.write(data)
    assert wait_until(lambda: reader.published >= target), "frame never decoded"


def run_one_frame(source: SerialJoystickSource, machine: FakeMachine) -> None:
    """What the app's frame loop does once per emulated frame, before machine.run_frame()."""
    source.apply(machine)


def test_state_reaches_the_joystick_bits_on_the_next_frame(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path)
    source = SerialJoystickSource(reader, (0, 1))
    machine = FakeMachine()
    run_one_frame(source, machine)
    assert machine.bus(0) == machine.bus(1) == 0xFF            # nothing pressed: all high
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, LEFT))
    run_one_frame(source, machine)                              # the very next frame has it
    assert machine.bus(0) == 0xFF & ~0b10001                    # bit 0 up, bit 4 fire low
    assert machine.bus(1) == 0xFF & ~0b01000                    # bit 3 left low
    assert machine.calls[-2:] == [(0, UP_FIRE._asdict()), (1, LEFT._asdict())]
    assert reader.poll_messages() == [f"joystick adapter connected on {pty_pair.path}"]


def test_source_for_one_joystick_leaves_the_other_alone(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path)
    machine = FakeMachine()
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, LEFT))
    SerialJoystickSource(reader, (1,)).apply(machine)
    assert [n for n, _ in machine.calls] == [1] and machine.bus(0) == 0xFF


def test_garbage_truncated_frames_and_bad_checksums_are_ignored_and_counted(make_reader,
                                                                            pty_pair):
    reader = started(make_reader, pty_pair.path)
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, RELEASED))
    corrupt = bytearray(encode_frame(LEFT, LEFT))
    corrupt[3] ^= 0x10
    truncated = encode_frame(LEFT, RELEASED)[:2]
    pty_pair.write(b"\x00\x13garbage\x7f" + truncated + bytes(corrupt))
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, JoystickState(down=True)))
    assert reader.state(0) == UP_FIRE and reader.state(1) == JoystickState(down=True)
    c = reader.counters
    assert (c.frames, c.stray, c.truncated, c.bad_checksum) == (2, 10, 1, 1)


def test_unknown_protocol_version_is_skipped_and_counted(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path)
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, RELEASED))
    pty_pair.write(encode_frame(LEFT, LEFT, version=2))
    send_and_wait(reader, pty_pair, encode_frame(RELEASED, LEFT))
    assert reader.state(0) == RELEASED and reader.counters.unknown_version == 1


def test_silent_line_releases_everything_and_says_so(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path, silence_s=0.15)
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, LEFT))
    assert reader.state(0) == UP_FIRE
    assert wait_until(lambda: reader.state(0) == RELEASED and reader.state(1) == RELEASED)
    assert wait_until(lambda: any("went silent" in m for m in reader.poll_messages()))
    send_and_wait(reader, pty_pair, encode_frame(UP_FIRE, LEFT))   # keep-alive comes back
    assert reader.state(0) == UP_FIRE
    assert reader.poll_messages() == [f"joystick adapter on {pty_pair.path} is sending again"]


def test_keepalives_keep_the_state(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path, silence_s=0.3)
    for _ in range(8):                                   # 8 keep-alives 50 ms apart = 0.4 s
        send_and_wait(reader, pty_pair, encode_frame(LEFT, RELEASED))
        assert reader.state(0) == LEFT
        time.sleep(0.05)
    assert not any("silent" in m for m in reader.poll_messages())


def test_must_open_raises_for_a_missing_port(make_reader, tmp_path):
    with pytest.raises(serial.SerialException):
        make_reader(str(tmp_path / "no-such-tty")).start(must_open=True)


def test_absent_port_is_retried_without_blocking_the_caller(make_reader, tmp_path):
    reader = make_reader(str(tmp_path / "ttyUSB9")).start()
    assert reader.state(0) == RELEASED and not reader.connected
    assert wait_until(lambda: reader.poll_messages())    # one "cannot open ..., retrying"
    time.sleep(0.5)                                      # several retries later ...
    assert reader.poll_messages() == []                  # ... no message flood


def test_loop_url_works(make_reader):
    ports = []

    def opener(url, **kwargs):
        ports.append(serial.serial_for_url(url, **kwargs))
        return ports[-1]

    reader = make_reader("loop://", opener=opener).start(must_open=True)
    ports[0].write(encode_frame(LEFT, UP_FIRE))
    assert wait_until(lambda: reader.state(1) == UP_FIRE)


@pytest.mark.skipif(shutil.which("socat") is None, reason="socat (Debian package) not installed")
def test_unplug_and_replug_are_reported_and_reading_resumes(make_reader, tmp_path):
    link = tmp_path / "ttyADAPTER"
    adapter_end = tmp_path / "adapter"

    def plug_in() -> subprocess.Popen:
        proc = subprocess.Popen(["socat", f"pty,raw,echo=0,link={link}",
                                 f"pty,raw,echo=0,link={adapter_end}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: link.exists() and adapter_end.exists())
        return proc

    def unplug(proc: subprocess.Popen) -> None:
        proc.kill()                                   # as sudden as pulling the USB plug
        proc.wait(timeout=5)

    proc = plug_in()
    try:
        reader = make_reader(str(link)).start()
        assert wait_until(lambda: reader.connected)
        with open(adapter_end, "wb", buffering=0) as adapter:
            adapter.write(encode_frame(UP_FIRE, RELEASED))
            assert wait_until(lambda: reader.state(0) == UP_FIRE)
        unplug(proc)
        assert wait_until(lambda: not reader.connected)
        assert reader.state(0) == RELEASED                       # nothing stays pressed
        assert wait_until(lambda: any("disconnected" in m for m in reader.poll_messages()))
        proc = plug_in()
        assert wait_until(lambda: reader.connected)
        with open(adapter_end, "wb", buffering=0) as adapter:
            adapter.write(encode_frame(RELEASED, LEFT))
            assert wait_until(lambda: reader.state(1) == LEFT)
        assert reader.reconnects == 1
        assert f"joystick adapter connected on {link}" in reader.poll_messages()
    finally:
        unplug(proc)


def test_state_is_constant_work_and_never_waits_during_a_flood(make_reader, pty_pair):
    """The frame loop's call does the same few steps however busy the line, and calls nothing
    that could block (no lock, no I/O): only time.monotonic."""
    reader = started(make_reader, pty_pair.path)
    send_and_wait(reader, pty_pair, encode_frame(LEFT, LEFT))

    def profile_state_calls(n: int) -> tuple[set[str], set[int]]:
        c_calls: set[str] = set()
        line_counts: set[int] = set()
        for _ in range(n):
            lines = [0]

            def tracer(frame, event, arg):
                if event == "line":
                    lines[0] += 1
                return tracer

            def profiler(frame, event, arg):
                if event == "c_call" and frame.f_code is reader.state.__code__:
                    c_calls.add(arg.__qualname__)

            sys.settrace(lambda f, e, a: tracer if f.f_code is reader.state.__code__ else None)
            sys.setprofile(profiler)
            try:
                reader.state(n % 2)
            finally:
                sys.setprofile(None)
                sys.settrace(None)
            line_counts.add(lines[0])
        return c_calls, line_counts

    quiet = profile_state_calls(50)
    stop = threading.Event()
    flood = b"".join(encode_frame(JoystickState.from_bits(i % 32), LEFT) for i in range(256))

    def flooder() -> None:
        while not stop.is_set():
            try:
                os.write(pty_pair.master, flood)
            except BlockingIOError:
                time.sleep(0.001)                       # the pty buffer is full

    os.set_blocking(pty_pair.master, False)
    thread = threading.Thread(target=flooder)
    thread.start()
    try:
        before = reader.counters.frames
        assert wait_until(lambda: reader.counters.frames > before + 1000)
        busy = profile_state_calls(50)
        assert reader.counters.frames > before + 1000           # the flood was being decoded
    finally:
        stop.set()
        thread.join()
    assert busy == quiet
    assert busy[0] == {"monotonic"} and len(busy[1]) == 1
    assert reader.counters.bad == 0


def test_port_that_opens_but_fails_at_once_is_retried_with_backoff(make_reader):
    """A device that opens and then errors on every read must not make the thread spin."""
    opens = []

    class Broken:
        in_waiting = 0

        def read(self, size):
            raise serial.SerialException("read failed: [Errno 5] Input/output error")

        def close(self):
            pass

    def opener(url, **kwargs):
        opens.append(time.monotonic())
        return Broken()

    reader = make_reader("/dev/ttyBROKEN", opener=opener).start()
    time.sleep(0.6)
    reader.close()
    # backoff 0.1, 0.2, 0.2, ... s: a handful of attempts, not thousands
    assert 2 <= len(opens) <= 10
    assert reader.poll_messages() == ["joystick adapter disconnected from /dev/ttyBROKEN, retrying"]


def test_wrong_baud_rate_or_port_is_pointed_out(make_reader, pty_pair):
    reader = started(make_reader, pty_pair.path)
    pty_pair.write(bytes(range(0x20, 0x7F)))          # a chatty device that is not an adapter
    assert wait_until(lambda: reader.counters.stray >= 64)
    assert wait_until(lambda: reader.poll_messages() ==
                      [f"{pty_pair.path} sends no joystick frames (wrong port or baud rate?)"])
    assert reader.state(0) == RELEASED


def test_only_joysticks_0_and_1_exist(make_reader, tmp_path):
    reader = make_reader(str(tmp_path / "none"))
    for n in (-1, 2):
        with pytest.raises(ValueError, match=f"joystick {n} does not exist"):
            reader.state(n)
