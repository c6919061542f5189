"""`videopac play --joystick`: bad values are one sentence before anything opens, and an adapter
named there drives its joystick in the play loop, applied before every emulated frame."""
from __future__ import annotations

import argparse
import types

from joystick_test_support import Pty, wait_until
from videopac import play
from videopac.console import audio, pacing
from videopac.sticks.routing import open_serial_sources, parse_joystick_specs
from videopac.sticks.serial_line import RELEASED, JoystickState, encode_frame


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    return parser.parse_args(list(argv))


class FrameRecorder:
    """The Machine API surface the play loop uses, noting the joysticks each frame ran with."""

    fps = 49.7

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.sticks = [RELEASED._asdict(), RELEASED._asdict()]
        self.frames: list[list[dict]] = []
        self.frame = None

    def set_joystick(self, n: int, **switches: bool) -> None:
        self.calls.append(n)
        self.sticks[n] = switches

    def run_frame(self) -> None:
        self.frames.append(list(self.sticks))

    def audio(self):
        return []


def test_bad_joystick_value_is_one_sentence_and_status_2(capsys):
    assert play.main(parse("--joystick", "0=keys", "--joystick", "2=serial:/dev/ttyUSB0")) == 2
    err = capsys.readouterr().err
    assert err == ("videopac play: --joystick '2=serial:/dev/ttyUSB0': the joystick number "
                   "must be 0 (left, red) or 1 (right, blue).\n")


def test_adapter_drives_its_joystick_in_the_play_loop():
    pty = Pty()
    machine = FrameRecorder()
    messages: list[str] = []
    session = types.SimpleNamespace(machine=machine, paused=False, fast=False,
                                    say=messages.append, before_frame=lambda: None)
    sources = open_serial_sources(parse_joystick_specs(
        parse("--joystick", f"1=serial:{pty.path}", "--joystick", "0=keys").joystick))
    try:
        reader = sources[0].reader
        assert wait_until(lambda: reader.connected)
        loop = play.Loop(session, types.SimpleNamespace(show=lambda frame: None),
                         audio.SampleQueue(), pacing.Pacer(machine.fps, 44100), sound=False,
                         sources=sources)
        pressed = JoystickState(right=True, fire=True)
        pty.write(encode_frame(RELEASED, pressed))
        assert wait_until(lambda: reader.published)
        loop.tick(0.0)
        assert loop.tick(0.1) > 0                          # frames ran ...
        assert all(f[1] == pressed._asdict() for f in machine.frames)   # ... all with it
        assert set(machine.calls) == {1}                   # joystick 0 is left to the keys
        assert messages == [f"joystick adapter connected on {pty.path}"]
    finally:
        for source in sources:
            source.close()
        pty.close()
