"""Where each console joystick gets its input: the ``--joystick N=SOURCE`` option.

``N`` is the console joystick (0 = left, red in Conquest of the World; 1 = right, blue) and
``SOURCE`` one of ``keys``, ``gamepad``, ``gamepad:I`` (the I-th pad, from 0) or
``serial:PORT[@BAUD]`` (a joystick adapter, docs/serial-joystick.md; the adapter's stick N
drives console joystick N). Example: ``--joystick 0=serial:/dev/ttyUSB0 --joystick 1=keys``.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable, Iterable

from i18n import _

from videopac import UsageError
from videopac.sticks.serial_line import DEFAULT_BAUD, SerialJoystickReader, SerialJoystickSource

JOYSTICKS = {"0": "left, red", "1": "right, blue"}
KINDS = ("keys", "gamepad", "serial")
MAX_BAUD = 4_000_000
SYNTAX = "N=keys, N=gamepad[:I] or N=serial:PORT[@BAUD] with N = 0 or 1"


class JoystickSpecError(UsageError, ValueError):
    """A --joystick value that cannot be used; the message is one sentence for the user."""


@dataclass(frozen=True)
class JoystickSpec:
    """One parsed ``--joystick`` value."""

    joystick: int                 # console joystick: 0 left/red, 1 right/blue
    kind: str                     # "keys" | "gamepad" | "serial"
    gamepad: int | None = None    # gamepad:I; None = the next pad not taken
    port: str | None = None       # serial: device path or pyserial URL
    baud: int = DEFAULT_BAUD      # serial: line speed

    def describe(self) -> str:
        """How the option reads back, e.g. ``1=serial:/dev/ttyUSB0@115200``."""
        if self.kind == "serial":
            return f"{self.joystick}=serial:{self.port}@{self.baud}"
        if self.kind == "gamepad" and self.gamepad is not None:
            return f"{self.joystick}=gamepad:{self.gamepad}"
        return f"{self.joystick}={self.kind}"


def parse_joystick_spec(text: str) -> JoystickSpec:
    """Parse one ``N=SOURCE``; raises `JoystickSpecError` with a one-line reason."""
    where = f"--joystick '{text if len(text) <= 60 else text[:57] + '...'}'"
    number, eq, source = text.partition("=")
    number, source = number.strip(), source.strip()
    if not eq or not source:
        raise JoystickSpecError(_("{where}: expected {syntax}.").format(where=where, syntax=SYNTAX))
    if number not in JOYSTICKS:
        raise JoystickSpecError(_("{where}: the joystick number must be 0 (left, red) or 1 (right, "
                                  "blue).").format(where=where))
    joystick = int(number)
    kind, colon, arg = source.partition(":")
    if kind not in KINDS:
        raise JoystickSpecError(_("{where}: unknown source '{kind}'; use keys, gamepad or "
                                  "serial:PORT.").format(where=where, kind=kind))
    if kind == "keys":
        if colon:
            raise JoystickSpecError(_("{where}: 'keys' takes no argument (the key map file chooses "
                                      "the keys).").format(where=where))
        return JoystickSpec(joystick, "keys")
    if kind == "gamepad":
        if not colon:
            return JoystickSpec(joystick, "gamepad")
        if not _digits(arg) or len(arg) > 3:
            raise JoystickSpecError(_("{where}: the gamepad number must be 0, 1, 2, ... (got "
                                      "'{arg}').").format(where=where, arg=arg[:12]))
        return JoystickSpec(joystick, "gamepad", gamepad=int(arg))
    port, baud = _port_and_baud(where, arg)
    return JoystickSpec(joystick, "serial", port=port, baud=baud)


def _digits(text: str) -> bool:
    """Only the ASCII digits 0-9 (``str.isdigit`` also takes '²', which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def _port_and_baud(where: str, arg: str) -> tuple[str, int]:
    """Split ``PORT[@BAUD]``; only a trailing all-digit ``@BAUD`` is a speed."""
    port, at, speed = arg.rpartition("@")
    if at and speed.isdigit() and not speed.isascii():       # '²', Arabic-Indic digits
        raise JoystickSpecError(_("{where}: write the baud rate after '@' with the digits 0-9, "
                                  "e.g. serial:/dev/ttyUSB0@{baud}.").format(where=where,
                                                                             baud=DEFAULT_BAUD))
    if not at or not _digits(speed):
        port, speed = arg, ""
    if not port:
        raise JoystickSpecError(_("{where}: give the adapter's port, e.g. serial:/dev/ttyUSB0 or "
                                  "serial:COM3@115200.").format(where=where))
    if not speed:
        return port, DEFAULT_BAUD
    baud = int(speed) if len(speed) <= len(str(MAX_BAUD)) else MAX_BAUD + 1
    if not 0 < baud <= MAX_BAUD:
        shown = speed if len(speed) <= 12 else speed[:12] + "..."
        raise JoystickSpecError(_("{where}: baud rate {baud} is out of range (1 to {max_baud}; the "
                                  "adapter uses {default_baud}).").format(
            where=where, baud=shown, max_baud=MAX_BAUD, default_baud=DEFAULT_BAUD))
    return port, baud


def parse_joystick_specs(texts: Iterable[str]) -> list[JoystickSpec]:
    """Parse every ``--joystick`` value, ordered by joystick; each joystick at most once."""
    specs: dict[int, JoystickSpec] = {}
    speeds: dict[str, int] = {}
    for text in texts:
        spec = parse_joystick_spec(text)
        if spec.joystick in specs:
            raise JoystickSpecError(_("--joystick '{text}': joystick {joystick} already comes from "
                                      "{source}.").format(
                text=text, joystick=spec.joystick, source=specs[spec.joystick].describe()))
        if spec.kind == "serial":
            port = spec.port
            assert port is not None              # parse_joystick_spec refuses a serial without one
            if speeds.setdefault(port, spec.baud) != spec.baud:
                raise JoystickSpecError(_("--joystick '{text}': {port} is already used at {baud} "
                                          "baud.").format(
                    text=text, port=port, baud=speeds[port]))
        specs[spec.joystick] = spec
    return [specs[n] for n in sorted(specs)]


@dataclass(frozen=True)
class Routing:
    """Which inputs drive each console joystick, and which gamepad drives which joystick."""

    accepts: tuple[frozenset[str], frozenset[str]]   # per joystick: a subset of KINDS
    pads: dict[int, int]                              # gamepad number -> console joystick


def routing(specs: Iterable[JoystickSpec], swap: bool = False) -> Routing:
    """Turn the ``--joystick`` values into input routing: a joystick named with a source takes
    input from that source only; a joystick not named keeps the default (keys and gamepads),
    with the first two pads as joysticks 0 and 1 (swapped with ``--swap-joysticks``)."""
    accepts = [frozenset(("keys", "gamepad")), frozenset(("keys", "gamepad"))]
    pads = {0: 1, 1: 0} if swap else {0: 0, 1: 1}
    specs = list(specs)
    named = {s.gamepad for s in specs if s.kind == "gamepad" and s.gamepad is not None}
    chosen: dict[int, int] = {}
    for spec in specs:
        accepts[spec.joystick] = frozenset((spec.kind,))
        if spec.kind == "gamepad":
            pad = spec.gamepad
            if pad is None:   # "gamepad": the lowest pad number nobody named
                pad = min(set(range(len(named) + len(chosen) + 1)) - named - set(chosen))
            chosen[pad] = spec.joystick
    if chosen:
        pads = {p: j for p, j in pads.items() if p not in chosen and j not in chosen.values()}
        pads.update(chosen)
    return Routing((accepts[0], accepts[1]), pads)


def add_joystick_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--joystick N=SOURCE`` (repeatable) to a command."""
    parser.add_argument("--joystick", action="append", default=[], metavar="N=SOURCE",
                        help=_("where console joystick N (0 left/red, 1 right/blue) gets its "
                               "input: keys, gamepad[:I] or serial:PORT[@BAUD] (a joystick "
                               "adapter); repeat for both joysticks"))


def open_serial_sources(specs: Iterable[JoystickSpec],
                        reader_factory: Callable[..., SerialJoystickReader] = SerialJoystickReader,
                        ) -> list[SerialJoystickSource]:
    """Start one background reader per adapter port named in `specs` (never blocks on a port)."""
    by_port: dict[tuple[str, int], list[int]] = {}
    for spec in specs:
        if spec.kind == "serial":
            assert spec.port is not None         # parse_joystick_spec refuses a serial without one
            by_port.setdefault((spec.port, spec.baud), []).append(spec.joystick)
    return [SerialJoystickSource(reader_factory(port, baud).start(), tuple(joysticks))
            for (port, baud), joysticks in by_port.items()]
