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

from i18n import _

from videopac import BAD_INPUT
from videopac.sticks.routing import MAX_BAUD
from videopac.sticks.serial_line import (DEFAULT_BAUD, JoystickState, LineCounters,
                                         SerialJoystickReader, error_reason)

PROG = "videopac joystick"
REFRESH_S = 1 / 30
# (field, symbol when pressed, ASCII fallback), in the order shown
SYMBOLS = (("up", "↑", "^"), ("down", "↓", "v"), ("left", "←", "<"), ("right", "→", ">"),
           ("fire", "FIRE", "FIRE"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar=_("ACTION"))
    test = actions.add_parser("test", help=_("show the live state of both sticks (wiring check)"),
                              description=_("Show the live state of both sticks of a joystick "
                                            "adapter; stop with Ctrl-C."))
    test.add_argument("port", metavar="PORT", help=_("serial port of the adapter, e.g. "
                                                     "/dev/ttyUSB0, COM3 or a pyserial URL"))
    test.add_argument("--baud", type=int, default=DEFAULT_BAUD,
                      help=_("line speed (default {default_baud})").format(default_baud=DEFAULT_BAUD))
    test.add_argument("--seconds", type=float, default=None,
                      help=_("stop after this many seconds (default: run until Ctrl-C)"))


def render_line(stick0: JoystickState, stick1: JoystickState, counters: LineCounters,
                ascii_only: bool = False) -> str:
    """The status line: both sticks' switches and the line counters."""
    def stick(state: JoystickState) -> str:
        return " ".join((plain if ascii_only else fancy) if getattr(state, field)
                        else ("." if ascii_only else "·")
                        for field, fancy, plain in SYMBOLS)
    return f"J0 {stick(stick0)} | J1 {stick(stick1)}  " + _("frames {frames} bad {bad}").format(
        frames=counters.frames, bad=counters.bad)


def main(args: argparse.Namespace) -> int:
    if not 0 < args.baud <= MAX_BAUD:    # pyserial's C long overflowed past 2**63
        print(_("{prog}: the baud rate must be from 1 to {max_baud} (the adapter uses "
                "{default_baud}).").format(prog=PROG, max_baud=MAX_BAUD,
                                           default_baud=DEFAULT_BAUD), file=sys.stderr)
        return BAD_INPUT
    reader = SerialJoystickReader(args.port, args.baud)
    try:
        reader.start(must_open=True)
    except (serial.SerialException, OSError, ValueError) as exc:
        print(_("{prog}: cannot open {port}: {reason}.").format(
            prog=PROG, port=args.port, reason=error_reason(exc)), file=sys.stderr)
        return BAD_INPUT               # the port given is missing or no port: an input error
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
        print(_("reading {port} at {baudrate} baud; Ctrl-C to stop").format(
            port=reader.port, baudrate=reader.baudrate), file=out)
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
