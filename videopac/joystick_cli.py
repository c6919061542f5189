"""``videopac joystick test PORT``: the live state of an adapter's two sticks, for wiring checks.

One updating terminal line such as ``J0 ↑ · · · FIRE | J1 · · ← · ·  frames 123 bad 0``
(up, down, left, right, fire); adapter messages (connected, silent, unplugged) appear above it.
When the output is not a terminal, each change is printed as a line of its own.
"""
from __future__ import annotations

import argparse
import sys
import time

import serial

from videopac.serial_joystick import (DEFAULT_BAUD, JoystickState, LineCounters,
                                      SerialJoystickReader, error_reason)

PROG = "videopac joystick"
REFRESH_S = 1 / 30
# (field, symbol when pressed, ASCII fallback), in the order shown
SYMBOLS = (("up", "↑", "^"), ("down", "↓", "v"), ("left", "←", "<"), ("right", "→", ">"),
           ("fire", "FIRE", "FIRE"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    test = actions.add_parser("test", help="show the live state of both sticks (wiring check)",
                              description="Show the live state of both sticks of a joystick "
                                          "adapter; stop with Ctrl-C.")
    test.add_argument("port", metavar="PORT", help="serial port of the adapter, e.g. "
                                                   "/dev/ttyUSB0, COM3 or a pyserial URL")
    test.add_argument("--baud", type=int, default=DEFAULT_BAUD,
                      help=f"line speed (default {DEFAULT_BAUD})")
    test.add_argument("--seconds", type=float, default=None,
                      help="stop after this many seconds (default: run until Ctrl-C)")


def render_line(stick0: JoystickState, stick1: JoystickState, counters: LineCounters,
                ascii_only: bool = False) -> str:
    """The status line: both sticks' switches and the line counters."""
    def stick(state: JoystickState) -> str:
        return " ".join((plain if ascii_only else fancy) if getattr(state, field)
                        else ("." if ascii_only else "·")
                        for field, fancy, plain in SYMBOLS)
    return (f"J0 {stick(stick0)} | J1 {stick(stick1)}  "
            f"frames {counters.frames} bad {counters.bad}")


def main(args: argparse.Namespace) -> int:
    if args.baud <= 0:
        print(f"{PROG}: the baud rate must be positive (the adapter uses {DEFAULT_BAUD}).",
              file=sys.stderr)
        return 1
    reader = SerialJoystickReader(args.port, args.baud)
    try:
        reader.start(must_open=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        print(f"{PROG}: cannot open {args.port}: {error_reason(exc)}.", file=sys.stderr)
        return 1
    try:
        _show(reader, args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        reader.close()
    return 0


def _show(reader: SerialJoystickReader, seconds: float | None) -> None:
    """Redraw until `seconds` have passed (or forever)."""
    out = sys.stdout
    tty = out.isatty()
    ascii_only = not _can_encode(out, "↑←·")
    end = None if seconds is None else time.monotonic() + seconds
    shown = None
    if tty:
        print(f"reading {reader.port} at {reader.baudrate} baud; Ctrl-C to stop", file=out)
    while end is None or time.monotonic() < end:
        for message in reader.poll_messages():
            out.write(("\r\x1b[K" if tty else "") + message + "\n")
        line = render_line(reader.state(0), reader.state(1), reader.counters, ascii_only)
        if tty:
            out.write("\r\x1b[K" + line)
        elif line != shown:
            out.write(line + "\n")
        shown = line
        out.flush()
        time.sleep(REFRESH_S)
    if tty:
        out.write("\n")


def _can_encode(stream: object, text: str) -> bool:
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
