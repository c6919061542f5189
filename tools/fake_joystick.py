#!/usr/bin/env python3
"""A pretend joystick adapter on a pseudo-terminal: try the serial joysticks without hardware.

Speaks the adapter's protocol (docs/serial-joystick.md): a frame on every change and a keep-alive
every 100 ms. Prints the pty path; point the reader at it:

    python tools/fake_joystick.py             # prints e.g. /dev/pts/7, then keys toggle switches
    videopac joystick test /dev/pts/7             # in another terminal
    videopac play --joystick 0=serial:/dev/pts/7

Keyboard (each key toggles a switch; a terminal has no key-release events):
    stick 0: w up, s down, a left, d right, space fire
    stick 1: i up, k down, j left, l right, Enter fire
    x releases everything, g sends 16 garbage bytes, q quits.

Script (``--script FILE``, or lines on stdin when it is not a terminal), a step a line, # comments:
    S0 S1 [MS]      set both sticks and hold them MS ms (default 100); a stick is letters
                    u d l r f (up down left right fire) or - for none, e.g. "uf -" or "- l 250"
    silence MS      send nothing for MS ms (not even keep-alives): the reader releases the sticks
    garbage N       send N random bytes
    badcrc S0 S1    send one frame with a wrong checksum (the reader must ignore it)
"""
from __future__ import annotations

import argparse
import contextlib
import os
import pathlib
import random
import select
import sys
import termios
import time
import tty
from typing import Iterator

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from safefiles import read_text_at_most  # noqa: E402
from videopac.joystick import render_line  # noqa: E402
from videopac.sticks.serial_line import (KEEPALIVE_MS, RELEASED, JoystickState,  # noqa: E402
                                         LineCounters, encode_frame)

PROG = "fake_joystick"
SCRIPT_LIMIT = 1 << 20        # bytes of a script: some thousand steps are a long test
MAX_GARBAGE = 1 << 16         # bytes one `garbage` step sends
MAX_MS = 3_600_000            # milliseconds one step lasts: an hour
LETTERS = {"u": "up", "d": "down", "l": "left", "r": "right", "f": "fire"}
# key -> (stick, switch)
KEYS = {"w": (0, "up"), "s": (0, "down"), "a": (0, "left"), "d": (0, "right"), " ": (0, "fire"),
        "i": (1, "up"), "k": (1, "down"), "j": (1, "left"), "l": (1, "right"),
        "\r": (1, "fire"), "\n": (1, "fire")}


class ScriptError(ValueError):
    """A script line that cannot be run."""


class FakeAdapter:
    """The master side of a pty, sending frames like the real adapter."""

    def __init__(self, link: str | None = None) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)                 # no echo, no line editing: bytes pass unchanged
        os.set_blocking(self.master, False)    # never hang when nobody reads the other side
        self.path = os.ttyname(self.slave)
        self.link = link
        if link:
            if os.path.islink(link):
                os.unlink(link)
            os.symlink(self.path, link)
        self.sticks = [RELEASED, RELEASED]
        self.sent = LineCounters()
        self.dropped = 0
        self._last = time.monotonic()

    def send(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except BlockingIOError:
            self.dropped += len(data)          # the pty buffer is full: nobody is reading
        self._last = time.monotonic()

    def send_state(self) -> None:
        self.send(encode_frame(*self.sticks))
        self.sent.frames += 1

    def hold(self, seconds: float, keepalive: bool = True) -> None:
        """Wait, sending keep-alives as the adapter does (unless told to stay silent)."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if keepalive and time.monotonic() - self._last >= KEEPALIVE_MS / 1000:
                self.send_state()
            time.sleep(min(left, KEEPALIVE_MS / 1000 / 4))
        if not keepalive:
            self._last = time.monotonic() - KEEPALIVE_MS / 1000   # resume with a keep-alive

    def close(self) -> None:
        if self.link and os.path.islink(self.link):
            os.unlink(self.link)
        os.close(self.master)
        os.close(self.slave)


def parse_stick(word: str) -> JoystickState:
    """``uf`` -> up and fire pressed; ``-`` -> released."""
    if word == "-":
        return RELEASED
    unknown = set(word) - set(LETTERS)
    if unknown:
        raise ScriptError(f"unknown switch letter(s) {''.join(sorted(unknown))!r} in {word!r} "
                          "(use u d l r f, or - for none)")
    return JoystickState(**{LETTERS[c]: True for c in word})


def number(word: str, limit: int, what: str) -> int:
    """A count in ASCII digits up to ``limit`` ('²' and '٣' pass str.isdigit, not int or us)."""
    if not (word.isascii() and word.isdigit()):
        raise ScriptError(f"{word!r} is not a number of {what}")
    if int(word) > limit:
        raise ScriptError(f"{word} {what} is more than {limit}")
    return int(word)


def run_step(adapter: FakeAdapter, words: list[str], rng: random.Random) -> None:
    """Run one script line (already split, comments removed)."""
    head = words[0]
    if head == "silence" and len(words) == 2:
        adapter.hold(number(words[1], MAX_MS, "ms") / 1000, keepalive=False)
    elif head == "garbage" and len(words) == 2:
        adapter.send(bytes(rng.randrange(256) for _ in range(number(words[1], MAX_GARBAGE,
                                                                       "bytes"))))
    elif head == "badcrc" and len(words) == 3:
        frame = bytearray(encode_frame(parse_stick(words[1]), parse_stick(words[2])))
        frame[3] ^= 0x01
        adapter.send(bytes(frame))
    elif len(words) in (2, 3):
        adapter.sticks = [parse_stick(words[0]), parse_stick(words[1])]
        ms = number(words[2], MAX_MS, "ms") if len(words) == 3 else KEEPALIVE_MS
        adapter.send_state()
        adapter.hold(ms / 1000)
    else:
        raise ScriptError(f"cannot read step {' '.join(words)!r}")


def run_script(adapter: FakeAdapter, lines: list[str], seed: int) -> None:
    rng = random.Random(seed)
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if words:
            try:
                run_step(adapter, words, rng)
            except ScriptError as exc:
                raise ScriptError(f"line {number}: {exc}") from None


@contextlib.contextmanager
def keys_one_by_one(fd: int) -> Iterator[None]:
    """Terminal input without line editing or echo (set before the path is printed, so that no
    key typed after it is flushed away by the mode change)."""
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run_keyboard(adapter: FakeAdapter) -> None:
    fd = sys.stdin.fileno()
    rng = random.Random()
    try:
        while True:
            sys.stderr.write("\r\x1b[K" + render_line(*adapter.sticks, adapter.sent))
            sys.stderr.flush()
            ready, _, _ = select.select([fd], [], [], KEEPALIVE_MS / 1000)
            if not ready:
                adapter.send_state()           # keep-alive
                continue
            key = os.read(fd, 1).decode(errors="replace").lower()
            if key == "q":
                break
            if key == "x":
                adapter.sticks = [RELEASED, RELEASED]
            elif key == "g":
                adapter.send(bytes(rng.randrange(256) for _ in range(16)))
                continue
            elif key in KEYS:
                stick, switch = KEYS[key]
                state = adapter.sticks[stick]
                adapter.sticks[stick] = state._replace(**{switch: not getattr(state, switch)})
            else:
                continue
            adapter.send_state()
    finally:
        sys.stderr.write("\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--script", type=pathlib.Path,
                        help="run these steps instead of the keyboard")
    parser.add_argument("--link", help="also make this symlink to the pty (a stable path)")
    parser.add_argument("--wait", type=float, default=0.0,
                        help="seconds to wait (sending keep-alives) before the script starts")
    parser.add_argument("--seed", type=int, default=1, help="seed for 'garbage' bytes")
    args = parser.parse_args(argv)
    lines = None
    if args.script is not None:
        try:
            lines = read_text_at_most(args.script, SCRIPT_LIMIT, "scripts").splitlines()
        except OSError as exc:
            print(f"{PROG}: cannot read {args.script}: {exc.strerror}.", file=sys.stderr)
            return 1
        except ValueError as exc:       # too large, not UTF-8: the sentence names the file
            print(f"{PROG}: {exc}.", file=sys.stderr)
            return 2
    elif sys.stdin is not None and not sys.stdin.isatty():
        text = sys.stdin.read(SCRIPT_LIMIT + 1)
        if len(text) > SCRIPT_LIMIT:
            print(f"{PROG}: a script on standard input is longer than {SCRIPT_LIMIT} "
                  "characters.", file=sys.stderr)
            return 2
        lines = text.splitlines()
    with contextlib.ExitStack() as stack:
        if lines is None:
            stack.enter_context(keys_one_by_one(sys.stdin.fileno()))
        adapter = FakeAdapter(args.link)
        stack.callback(adapter.close)
        print(adapter.path, flush=True)
        try:
            adapter.send_state()
            if lines is None:
                run_keyboard(adapter)
            else:
                adapter.hold(args.wait)
                run_script(adapter, lines, args.seed)
        except ScriptError as exc:
            print(f"{PROG}: {exc}.", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
