"""`videopac run`: the emulator without a window, for scripts and tests (docs/emulator.md).

Runs N frames of a machine, feeding key and joystick events from a script at given frames, and
writes what the machine holds afterwards (CPU registers, RAM, video chip registers) as JSON and
optionally a save state to continue from.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import wave
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from i18n import _, os_reason
from videopac import TROUBLE, UsageError, fail
from videopac.battle.computer import add_computer_arguments, players
from videopac.battle.published import decode, symbols_for
from videopac.console import paths
from videopac.console.inputs import load_images, read_state, read_text

# o2em_core is imported where it is used, not here: importing it loads numba (a second or more
# of start-up), which `videopac run --help` and a refused command line never need.
if TYPE_CHECKING:
    from o2em_core.machine import Machine

PROG = "videopac run"
MAX_SCALE = 16              # a 5760 × 3888 screenshot; 1000 would need 262 GB
# frames a run may last: about a day of play (27.9 h PAL, 23.2 h NTSC), so that a frame number
# of 20 digits in a recording cannot keep the machine running for ever
MAX_FRAMES = 5_000_000
# frames whose sound --audio keeps in memory until it writes the WAV: about 20 minutes (200 MB
# at most with the copy that joins them); a day of frames would be 9 GB, more than a WAV holds
MAX_AUDIO_FRAMES = 60_000
FRAME_RE = re.compile(r"-?[0-9]+", re.ASCII)    # int() alone takes '٣' and '1_0' too


class CannotWrite(Exception):
    """An output file cannot be written (no room, no permission, no such folder); one sentence,
    status TROUBLE."""


@dataclass(frozen=True)
class Event:
    frame: int
    action: str            # "press", "release", "joy", "reset" or "end" (of a recording)
    key: str = ""
    stick: int = 0
    directions: frozenset[str] = frozenset()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cart", nargs="?", metavar="CART.bin",
                        help=_("cartridge image: 2, 4 or 8 KB (2 KB banks) or 3, 6 or 12 KB (3 KB "
                               "banks); default: the built-in one"))
    parser.add_argument("--no-cart", action="store_true", help=_("leave the cartridge slot empty"))
    parser.add_argument("--bios", metavar="FILE",
                        help=_("1 KB image for the internal ROM at 0x000 (default: the open BIOS)"))
    parser.add_argument("--region", choices=("pal", "ntsc"), default="pal",
                        help=_("pal = Videopac G7000 (default), ntsc = Odyssey²"))
    parser.add_argument("--headless", action="store_true",
                        help=_("run without a window (always the case for 'run')"))
    parser.add_argument("--frames", type=int, metavar="N",
                        help=_("number of video frames to emulate (default: up to the 'end' line "
                               "of the --input script, as 'videopac play --record' writes it)"))
    parser.add_argument("--input", metavar="SCRIPT",
                        help=_("events, one a line: 'FRAME press KEY', 'FRAME release KEY', 'FRAME "
                               "joy 0|1 up+left+fire', 'FRAME joy 0|1 none', 'FRAME reset' or "
                               "'FRAME end'"))
    parser.add_argument("--dump", metavar="OUT.json",
                        help=_("write the machine's state as JSON ('-': to standard output)"))
    parser.add_argument("--state-in", metavar="F", help=_("start from this save state"))
    parser.add_argument("--state-out", metavar="F", help=_("write a save state at the end"))
    parser.add_argument("--screenshot", metavar="OUT.png", help=_("write the last frame as PNG"))
    parser.add_argument("--scale", type=int, default=1, metavar="N",
                        help=_("enlarge the screenshot N times (whole pixels, 1 to {max}, "
                               "default 1)").format(max=MAX_SCALE))
    parser.add_argument("--audio", metavar="OUT.wav",
                        help=_("write the sound of all frames as 16-bit mono WAV"))
    parser.add_argument("--frame-hash", action="store_true",
                        help=_("print the SHA-256 of the last frame's palette indices"))
    add_computer_arguments(parser)     # --computer red|blue[:level], --seed (docs/conquest.md)


def parse_script(text: str, name: str) -> list[Event]:
    """The events of an input script; a bad line raises UsageError naming it."""
    from o2em_core.keyboard import JOY_BITS, key_position    # lazy: numba (see the imports)

    events: list[Event] = []
    text = text.removeprefix("\ufeff")   # the byte order mark Notepad writes is not a frame number
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.strip().startswith("#") else ""
        if not line:
            continue
        where = f"{name} line {number}"
        words = line.split()
        if not FRAME_RE.fullmatch(words[0]):
            raise UsageError(_("{where}: '{word}' is not a frame number").format(
                where=where, word=words[0]))
        if words[0].startswith("-"):
            raise UsageError(_("{where}: the frame number must not be negative").format(where=where))
        if len(words[0]) > len(str(MAX_FRAMES)) or int(words[0]) > MAX_FRAMES:
            raise UsageError(_("{where}: frame {word} is beyond {limit}, about a day of play")
                             .format(where=where, word=words[0], limit=MAX_FRAMES))
        frame = int(words[0])
        action = words[1].lower() if len(words) > 1 else ""
        if action in ("press", "release") and len(words) == 3:
            try:
                key_position(words[2])
            except ValueError as exc:
                raise UsageError(f"{where}: {exc}") from None
            events.append(Event(frame, action, key=words[2]))
        elif action in ("reset", "end") and len(words) == 2:
            events.append(Event(frame, action))
        elif action == "joy" and len(words) == 4 and words[2] in ("0", "1"):
            dirs = frozenset() if words[3].lower() == "none" else \
                frozenset(words[3].lower().split("+"))
            unknown = dirs - set(JOY_BITS)
            if unknown:
                raise UsageError(_("{where}: unknown joystick direction '{direction}'; use up, down, "
                                   "left, right, fire joined by '+', or none").format(
                    where=where, direction=sorted(unknown)[0]))
            events.append(Event(frame, "joy", stick=int(words[2]), directions=dirs))
        else:
            raise UsageError(_("{where}: expected 'FRAME press KEY', 'FRAME release KEY', 'FRAME "
                               "joy 0|1 DIRECTIONS', 'FRAME reset' or 'FRAME end', not '{line}'")
                             .format(where=where, line=line))
    return sorted(events, key=lambda e: e.frame)


def _symbols(args: argparse.Namespace) -> dict[str, int] | None:
    """The cartridge's symbol table: CART.json next to CART.bin, or the built-in one
    (SymbolFileError, a UsageError, for one that cannot be read)."""
    return None if args.no_cart else symbols_for(args.cart or None)


def dump(machine: Machine, symbols: dict[str, int] | None = None) -> dict[str, object]:
    """The JSON document of ``--dump``; with the battle program's symbols also ``battle``."""
    c = machine.cpu
    battle = decode(machine.iram, symbols) if symbols else None
    document: dict[str, object] = {
        "frames": machine.frames,
        "cycles": machine.cycles,
        "region": machine.region,
        "cpu": {"a": c.a, "pc": c.pc, "psw": c.psw, "p1": c.p1, "p2": c.p2, "t": c.t,
                "f1": c.f1, "mb": c.mb, "bank": c.bank, "sp": c.sp, "bus": c.bus},
        "iram": machine.iram.tobytes().hex(),
        "xram": machine.xram.tobytes().hex(),
        "vdc": machine.vdc_regs.tobytes().hex(),
        "frame_crc32": f"{zlib.crc32(machine.frame.tobytes()):08x}",
        "frame_sha256": frame_sha256(machine),
    }
    if battle is not None:
        document["battle"] = battle
    return document


def frame_sha256(machine: Machine) -> str:
    """SHA-256 of the last frame's palette indices (243 × 360 bytes, row by row)."""
    return hashlib.sha256(machine.frame.tobytes()).hexdigest()


def wav_bytes(samples: np.ndarray, rate: int) -> bytes:
    """16-bit mono PCM samples as a WAV file."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())
    return out.getvalue()


def _apply(machine: Machine, event: Event) -> None:
    if event.action == "press":
        machine.press(event.key)
    elif event.action == "release":
        machine.release(event.key)
    elif event.action == "reset":
        machine.reset()
    elif event.action == "end":
        pass
    else:
        machine.set_joystick(event.stick, **{d: True for d in event.directions})


def _write(path: str, data: bytes) -> None:
    try:
        paths.write_atomically(path, data, parents=False)
    except OSError as exc:
        raise CannotWrite(_("cannot write {path}: {reason}; choose another file or free some space").format(
            path=path, reason=os_reason(exc))) from None


def main(args: argparse.Namespace) -> int:
    try:
        if args.cart and args.no_cart:
            raise UsageError(_("give either CART.bin or --no-cart, not both"))
        events = parse_script(read_text(args.input), args.input) if args.input else []
        if args.frames is None:
            ends = [e.frame for e in events if e.action == "end"]
            if not ends:
                raise UsageError(_("say how long to run: --frames N, or an --input script with an "
                                   "'end' line"))
            args.frames = ends[0]
        if not 0 <= args.frames <= MAX_FRAMES:
            raise UsageError(_("--frames must be from 0 to {limit} (about a day of play)").format(
                limit=MAX_FRAMES))
        if args.audio and args.frames > MAX_AUDIO_FRAMES:
            raise UsageError(_("--audio keeps the sound in memory: give at most {limit} frames "
                               "(about 20 minutes), or run shorter parts").format(
                                   limit=MAX_AUDIO_FRAMES))
        if not 1 <= args.scale <= MAX_SCALE:
            raise UsageError(_("--scale must be a whole number from 1 to {max}").format(
                max=MAX_SCALE))
        bios, cart = load_images(args)
        symbols = _symbols(args)
        computers = players(args.computer, symbols, args.seed)
        state = read_state(args.state_in) if args.state_in else None

        from o2em_core import Machine, StateError    # lazy: numba (see the imports)

        machine = Machine(bios, cart, region=args.region)
        if state is not None:
            try:
                machine.load_state(state)
            except StateError as exc:
                raise UsageError(_("{path}: {reason}; give a state written by --state-out with "
                                   "the same BIOS, cartridge and region").format(
                    path=args.state_in, reason=exc)) from None
        upcoming = 0                       # the next event of the script to apply
        sound: list[np.ndarray] = []
        for frame in range(args.frames):
            while upcoming < len(events) and events[upcoming].frame <= frame:
                _apply(machine, events[upcoming])
                upcoming += 1
            for computer in computers:     # the computer's stick wins over the script's
                computer.step(machine)
            machine.run_frame()
            if args.audio:
                sound.append(machine.audio())
        if args.screenshot:
            from o2em_core import palette    # lazy: numba (see the imports)

            rgb = palette.scale(palette.to_rgb(machine.frame), args.scale)
            _write(args.screenshot, palette.to_png(rgb))
        if args.audio:
            samples = np.concatenate(sound) if sound else np.zeros(0, np.int16)
            _write(args.audio, wav_bytes(samples, machine.sample_rate))
        if args.frame_hash:
            print(frame_sha256(machine))
        if args.state_out:
            _write(args.state_out, machine.save_state())
        if args.dump:
            _write(args.dump, (json.dumps(dump(machine, symbols), indent=1) + "\n").encode())
    except UsageError as exc:
        return fail(PROG, str(exc))
    except CannotWrite as exc:
        return fail(PROG, str(exc), TROUBLE)
    return 0
