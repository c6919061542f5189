"""Real joysticks over a serial adapter: the wire protocol and a background reader.

The adapter (``tools/joystick_adapter/``) reads the switches of two joysticks and sends a
4-byte frame on every change plus a keep-alive every 100 ms; ``docs/serial-joystick.md`` is the
specification. The frame layout, in one table:

====  ==========================  ================================================
byte  contents                    why
====  ==========================  ================================================
0     ``0x80 | version``          the only byte with bit 7 set: resynchronisation
1     stick 0: bit 0 up, 1 right, same bit order as the console bus (docs/hardware.md
      2 down, 3 left, 4 fire       §6), but 1 = pressed; bits 5-6 are 0
2     stick 1: same layout
3     CRC-7/MMC of bytes 0-2      7 bits, so bit 7 stays clear
====  ==========================  ================================================

The reader owns a thread that opens the port with ``serial.serial_for_url`` (so ``loop://``
and pseudo-terminal paths work), decodes frames, and publishes one immutable snapshot; the
frame loop's ``state(n)`` only reads that snapshot, so it never waits for the serial line.
"""
from __future__ import annotations

import collections
import math
import re
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, NamedTuple

import serial

from i18n import _, os_reason

if TYPE_CHECKING:
    from o2em_core import Machine

# --- protocol constants (tools/joystick_adapter/joystick_protocol.h holds the same values;
#     tests/serial/test_firmware.py keeps them from drifting) ------------------------------
PROTOCOL_VERSION = 1
START_FLAG = 0x80            # bit 7: set in the start byte, clear in every other byte
VERSION_MASK = 0x7F          # low 7 bits of the start byte: the protocol version
FRAME_LENGTH = 4             # start, stick 0, stick 1, CRC
CRC7_POLY = 0x09             # x^7 + x^3 + 1 (CRC-7/MMC: init 0, no reflection, no final xor)
STICK_MASK = 0x1F            # bits 0-4 carry switches; bits 5-6 are reserved (0)
BIT_UP, BIT_RIGHT, BIT_DOWN, BIT_LEFT, BIT_FIRE = 0, 1, 2, 3, 4   # docs/hardware.md §6 bus order
DEFAULT_BAUD = 115200
KEEPALIVE_MS = 100           # the adapter repeats its state at least this often
SILENCE_MS = 250             # no frame for this long: release everything (2.5 keep-alives)

RETRY_MIN_S = 0.1            # reconnect backoff: first retry ...
RETRY_MAX_S = 2.0            # ... doubling up to this
READ_TIMEOUT_S = 0.05        # the reader thread wakes this often when the line is idle
BAD_BYTES_WARN = 64          # this much junk and no frame since opening: probably the wrong port


class JoystickState(NamedTuple):
    """One joystick's five switches, True = pressed; field names are `Machine.set_joystick`'s."""

    up: bool = False
    down: bool = False
    left: bool = False
    right: bool = False
    fire: bool = False

    def to_bits(self) -> int:
        """The protocol's stick byte: bus bit order of docs/hardware.md §6, 1 = pressed."""
        return (self.up << BIT_UP | self.right << BIT_RIGHT | self.down << BIT_DOWN
                | self.left << BIT_LEFT | self.fire << BIT_FIRE)

    @classmethod
    def from_bits(cls, bits: int) -> JoystickState:
        """Inverse of `to_bits` (reserved bits ignored)."""
        return cls(up=bool(bits >> BIT_UP & 1), down=bool(bits >> BIT_DOWN & 1),
                   left=bool(bits >> BIT_LEFT & 1), right=bool(bits >> BIT_RIGHT & 1),
                   fire=bool(bits >> BIT_FIRE & 1))


RELEASED = JoystickState()


def _crc7_table() -> tuple[int, ...]:
    """CRC-7 of every byte value, kept left-aligned in an 8-bit register (poly << 1)."""
    table = []
    for value in range(256):
        reg = value
        for _bit in range(8):
            reg = ((reg << 1) ^ (CRC7_POLY << 1)) & 0xFF if reg & 0x80 else (reg << 1) & 0xFF
        table.append(reg)
    return tuple(table)


_CRC7 = _crc7_table()


def crc7(data: bytes) -> int:
    """CRC-7/MMC (poly 0x09, init 0, MSB first); catalogue check: crc7(b"123456789") == 0x75."""
    reg = 0
    for byte in data:
        reg = _CRC7[reg ^ byte]
    return reg >> 1


class FrameError(ValueError):
    """A frame that must be ignored; ``kind`` names the counter it goes to."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def encode_frame(stick0: JoystickState, stick1: JoystickState,
                 version: int = PROTOCOL_VERSION) -> bytes:
    """The 4 bytes the adapter sends for this state of both sticks."""
    body = bytes((START_FLAG | version & VERSION_MASK, stick0.to_bits(), stick1.to_bits()))
    return body + bytes((crc7(body),))


def decode_frame(frame: bytes) -> tuple[JoystickState, JoystickState]:
    """Both sticks' state from one frame; raises `FrameError` for anything not a valid v1 frame."""
    if len(frame) != FRAME_LENGTH:
        raise FrameError("truncated", f"a frame has {FRAME_LENGTH} bytes, got {len(frame)}")
    start, s0, s1, check = frame
    if not start & START_FLAG or (s0 | s1 | check) & START_FLAG:
        raise FrameError("stray", "bit 7 must be set in the first byte and only there")
    if start & VERSION_MASK != PROTOCOL_VERSION:
        raise FrameError("unknown_version", f"protocol version {start & VERSION_MASK} is not "
                                            f"{PROTOCOL_VERSION}")
    if crc7(frame[:3]) != check:
        raise FrameError("bad_checksum", "CRC-7 does not match")
    if (s0 | s1) & ~STICK_MASK:
        raise FrameError("bad_checksum", "reserved bits 5-6 are set")
    return JoystickState.from_bits(s0), JoystickState.from_bits(s1)


@dataclass
class LineCounters:
    """What the decoder saw on the line (all ever-increasing)."""

    frames: int = 0            # valid frames
    bad_checksum: int = 0      # complete frames with a wrong CRC (or reserved bits set)
    unknown_version: int = 0   # frames of another protocol version (skipped whole)
    truncated: int = 0         # frames cut short by the next start byte
    stray: int = 0             # bytes outside any frame (garbage, line noise)

    @property
    def bad(self) -> int:
        """Everything that was not a valid frame."""
        return self.bad_checksum + self.unknown_version + self.truncated + self.stray


class FrameDecoder:
    """Splits a byte stream into frames: a byte with bit 7 set always starts a new frame."""

    def __init__(self) -> None:
        self.counters = LineCounters()
        self._frame = bytearray()
        self._skipping = False     # inside a frame of an unknown version: wait for a start byte

    def feed(self, data: bytes) -> list[tuple[JoystickState, JoystickState]]:
        """Decode what `data` completes; partial frames wait for the next call."""
        states = []
        counters = self.counters
        for byte in data:
            if byte & START_FLAG:
                if self._frame:
                    counters.truncated += 1
                self._frame = bytearray((byte,))
                self._skipping = byte & VERSION_MASK != PROTOCOL_VERSION
                if self._skipping:
                    counters.unknown_version += 1
                    self._frame.clear()
            elif self._skipping:
                continue
            elif not self._frame:
                counters.stray += 1
            else:
                self._frame.append(byte)
                if len(self._frame) == FRAME_LENGTH:
                    try:
                        states.append(decode_frame(bytes(self._frame)))
                        counters.frames += 1
                    except FrameError as exc:
                        setattr(counters, exc.kind, getattr(counters, exc.kind) + 1)
                    self._frame.clear()
        return states


class SerialJoystickReader:
    """Reads an adapter in a background thread; `state` and `poll_messages` never block.

    Keeps trying to (re)open the port with exponential backoff, so the adapter can be plugged
    in late, unplugged and plugged in again. All directions are released when the line has
    been silent for longer than `silence_s` (the keep-alive period plus a margin).
    """

    def __init__(self, port: str, baudrate: int = DEFAULT_BAUD, *,
                 silence_s: float = SILENCE_MS / 1000, retry_max_s: float = RETRY_MAX_S,
                 opener: Callable[..., serial.SerialBase] = serial.serial_for_url) -> None:
        self.port = port
        self.baudrate = baudrate
        self.silence_s = silence_s
        self.retry_max_s = retry_max_s
        self.decoder = FrameDecoder()
        self.reconnects = 0                      # successful opens after a lost connection
        self._opener = opener
        self.published = 0                       # valid frames whose state `state` can see
        self._snapshot = (RELEASED, RELEASED, -math.inf)   # (stick 0, stick 1, time of frame)
        self._messages: collections.deque[str] = collections.deque(maxlen=32)
        self._stop = threading.Event()
        self._serial: serial.SerialBase | None = None
        self._thread: threading.Thread | None = None
        self._quiet_retries = False             # a retry message was shown: no more until it works

    # --- the frame loop's side ---------------------------------------------------------------
    def state(self, n: int) -> JoystickState:
        """Stick `n` (0 or 1) as last reported; all released when the line is silent."""
        s0, s1, when = self._snapshot
        if n not in (0, 1):
            raise ValueError(_("joystick {n} does not exist; use 0 or 1").format(n=n))
        if time.monotonic() - when > self.silence_s:
            return RELEASED
        return s1 if n else s0

    def poll_messages(self) -> list[str]:
        """On-screen messages since the last call (connected, silent, disconnected)."""
        out = []
        while self._messages:
            out.append(self._messages.popleft())
        return out

    @property
    def counters(self) -> LineCounters:
        return self.decoder.counters

    @property
    def connected(self) -> bool:
        """True while the port is open."""
        return self._serial is not None

    # --- life cycle ---------------------------------------------------------------------------
    def start(self, *, must_open: bool = False) -> SerialJoystickReader:
        """Start the thread; with `must_open`, a port that cannot be opened now raises instead."""
        if must_open:
            self._serial = self._opener(self.port, baudrate=self.baudrate, timeout=READ_TIMEOUT_S)
        self._thread = threading.Thread(target=self._run, name=f"joystick {self.port}",
                                        daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port (idempotent)."""
        self._stop.set()
        port = self._serial
        if port is not None and hasattr(port, "cancel_read"):
            try:
                port.cancel_read()
            except (serial.SerialException, OSError, AttributeError, TypeError):
                pass   # closed by the thread in the meantime
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self._close_port()

    def __enter__(self) -> SerialJoystickReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the thread's side --------------------------------------------------------------------
    def _run(self) -> None:
        delay = RETRY_MIN_S
        lost_before = False
        while not self._stop.is_set():
            if self._serial is None:
                self._serial = self._try_open()
            if self._serial is not None:
                self.reconnects += lost_before
                frames = self.counters.frames
                self._read_until_lost(self._serial)
                lost_before = True
                if self.counters.frames > frames:
                    delay = RETRY_MIN_S          # it worked: come back quickly after an unplug
            # a port that will not open, or opens and fails at once, is retried ever more slowly
            self._stop.wait(delay)
            delay = min(delay * 2, self.retry_max_s)

    def _try_open(self) -> serial.SerialBase | None:
        try:
            port = self._opener(self.port, baudrate=self.baudrate, timeout=READ_TIMEOUT_S)
        except (serial.SerialException, OSError, ValueError) as exc:
            if not self._quiet_retries:
                self._say(_("cannot open joystick adapter {port} ({reason}), retrying").format(
                    port=self.port, reason=error_reason(exc)))
                self._quiet_retries = True
            return None
        return port

    def _read_until_lost(self, port: serial.SerialBase) -> None:
        """Read and decode until stopped or the device goes away; then close and release."""
        try:
            self._pump(port)
        except (serial.SerialException, OSError, TypeError):
            # pyserial raises TypeError from a port closed under it; all mean "gone"
            if not self._stop.is_set() and not self._quiet_retries:
                self._say(_("joystick adapter disconnected from {port}, retrying").format(
                    port=self.port))
                self._quiet_retries = True       # until it works again, retries need no message
        finally:
            self._close_port()
            self._snapshot = (RELEASED, RELEASED, -math.inf)

    def _pump(self, port: serial.SerialBase) -> None:
        """Read and decode until stopped; raises when the device goes away."""
        greeted = silent = warned = False
        last = -math.inf
        bad_at_open = self.counters.bad
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            if data:
                states = self.decoder.feed(data)
                if states:
                    last = time.monotonic()
                    self._snapshot = (*states[-1], last)
                    self.published = self.counters.frames     # after the snapshot: never ahead
                    if not greeted:
                        self._say(_("joystick adapter connected on {port}").format(port=self.port))
                        self._quiet_retries = False
                    elif silent:
                        self._say(_("joystick adapter on {port} is sending again").format(
                            port=self.port))
                    greeted, silent = True, False
                elif (not greeted and not warned
                      and self.counters.bad - bad_at_open >= BAD_BYTES_WARN):
                    self._say(_("{port} sends no joystick frames (wrong port or baud rate?)").format(
                        port=self.port))
                    warned = True
            if greeted and not silent and time.monotonic() - last > self.silence_s:
                self._say(_("joystick adapter on {port} went silent, joysticks released").format(
                    port=self.port))
                silent = True

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _say(self, message: str) -> None:
        self._messages.append(message)


class SerialJoystickSource:
    """An adapter port driving console joysticks: the adapter's stick n drives joystick n."""

    def __init__(self, reader: SerialJoystickReader, joysticks: tuple[int, ...]) -> None:
        self.reader = reader
        self.joysticks = joysticks

    def apply(self, machine: Machine) -> None:
        """Copy the current switch states to the machine; call once per emulated frame."""
        for n in self.joysticks:
            machine.set_joystick(n, **self.reader.state(n)._asdict())

    def poll_messages(self) -> list[str]:
        return self.reader.poll_messages()

    def close(self) -> None:
        self.reader.close()


def error_reason(exc: BaseException) -> str:
    """A short human reason from an open/read error, in the user's language where it is one of
    the file errors i18n.os_reason translates."""
    text = (os_reason(exc) if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
    text = text.rsplit("] ", 1)[-1]        # drop pyserial's "could not open ...: [Errno n]"
    text = re.sub(r"\(\d+, '([^']*)'\)", r"\1", text)   # termios.error (25, 'text') -> text
    return text.split(": '", 1)[0]         # and the path it repeats
