"""Recorded input: what a player does to the machine, frame by frame, written in the input-script
format of `videopac run --input` (docs/emulator.md), so that a session played in the window can
be replayed headless to the same frame hash — a bug report or a regression test made by playing.

``Recorder`` stands in for the ``Machine``: every input device, the session and the computer
opponent reach the console through ``press``, ``release``, ``release_all`` and ``set_joystick``,
so recording there sees all of them, in the order they happen between frames.

A recording that cannot be written (a full disk) stops, and says so once through ``on_failure``;
the machine, and the game on it, go on as if nothing were recorded.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from i18n import _, os_reason

if TYPE_CHECKING:
    # to a type checker a Recorder is the Machine it stands in for (see its docstring)
    from o2em_core.machine import Machine
    _StandIn = Machine
else:
    _StandIn = object


class Recorder(_StandIn):
    """A ``Machine`` that writes each change of its keys and joysticks to ``out`` as
    ``FRAME press KEY`` / ``FRAME release KEY`` / ``FRAME joy N DIRS`` lines, and ``FRAME end``
    when closed. Everything else is the machine's own."""

    # its own attributes, set through __dict__ (every other one is the machine's)
    _machine: Machine
    _out: TextIO
    _start: int
    _pressed: set[str]           # Videopac keys held now
    _sticks: list[str]           # each joystick's directions as last written
    _path: str                   # the file, as the user named it
    _on_failure: Callable[[str], None]
    _stopped: bool               # the file could not be written: nothing more is
    _header: str                 # the comment lines the file starts with, until written

    def __init__(self, machine: Machine, out: TextIO, path: str = "",
                 on_failure: Callable[[str], None] = lambda sentence: None) -> None:
        self.__dict__["_machine"] = machine
        self.__dict__["_out"] = out
        self.__dict__["_start"] = machine.frames
        self.__dict__["_pressed"] = set()
        self.__dict__["_sticks"] = ["none", "none"]
        self.__dict__["_path"] = path
        self.__dict__["_on_failure"] = on_failure
        self.__dict__["_stopped"] = False
        self.__dict__["_header"] = (_("# recorded by 'videopac play --record'; replay: videopac "
                                      "run --input FILE") + "\n" + f"# region {machine.region}\n")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._machine, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._machine, name, value)

    @property
    def frame_number(self) -> int:
        """Frames emulated since the recording started: the FRAME of the next event."""
        frames: int = self._machine.frames - self._start
        return frames

    @property
    def stopped(self) -> bool:
        """Whether the recording stopped because its file could not be written."""
        return self._stopped

    def _write(self, text: str, flush: bool = False) -> None:
        """``text`` into the file; on the first failure the recording stops and says why."""
        if self._stopped:
            return
        text, self.__dict__["_header"] = self._header + text, ""   # the header with the first line
        try:
            self._out.write(text)
            if flush:
                self._out.flush()
        except OSError as exc:
            self._stop(exc)

    def _stop(self, exc: OSError) -> None:
        """Stop recording after ``exc`` and say so (once)."""
        self.__dict__["_stopped"] = True
        try:
            self._out.close()
        except OSError:
            pass                          # what did not fit is what the sentence is about
        self._on_failure(_("the recording {path} cannot be written ({reason}); it stopped here, "
                           "the game goes on").format(path=self._path, reason=os_reason(exc)))

    def _line(self, text: str) -> None:
        self._write(f"{self.frame_number} {text}\n", flush=True)

    def press(self, key: str) -> None:
        self._machine.press(key)
        if key not in self._pressed:
            self._pressed.add(key)
            self._line(f"press {key}")

    def release(self, key: str) -> None:
        self._machine.release(key)
        if key in self._pressed:
            self._pressed.discard(key)
            self._line(f"release {key}")

    def release_all(self) -> None:
        self._machine.release_all()
        for key in sorted(self._pressed):
            self._line(f"release {key}")
        self._pressed.clear()

    def set_joystick(self, n: int, up: bool = False, down: bool = False, left: bool = False,
                     right: bool = False, fire: bool = False) -> None:
        self._machine.set_joystick(n, up=up, down=down, left=left, right=right, fire=fire)
        held = [d for d, on in (("up", up), ("down", down), ("left", left), ("right", right),
                                ("fire", fire)) if on]
        text = "+".join(held) or "none"
        if text != self._sticks[n]:
            self._sticks[n] = text
            self._line(f"joy {n} {text}")

    def reset(self) -> None:
        self._machine.reset()
        self._line("reset")

    def load_state(self, data: bytes) -> None:
        self._machine.load_state(data)
        self._write(_("# {frame}: a save state was loaded here; the replay goes on without "
                      "it").format(frame=self.frame_number) + "\n")

    def close(self) -> None:
        """Mark the end of the recording (its length is the replay's default --frames)."""
        self._line("end")
        if not self._stopped:
            try:
                self._out.close()
            except OSError as exc:
                self._stop(exc)
