"""A save state taken in the middle of a frame (mid-line, with the compositor's working memory
and the sound state in it) continues exactly like the machine it was taken from."""
from __future__ import annotations

import pytest

from o2em_core import Machine
from tests.vdc.programs import image


@pytest.mark.parametrize("program, region, steps", [("moving", "pal", 2500),
                                                    ("midframe", "ntsc", 1700),
                                                    ("sound_fast", "pal", 3100)])
def test_restored_mid_frame_state_gives_identical_frames_and_audio(program, region, steps):
    a = Machine(image(program), None, region)
    for _ in range(3):
        a.run_frame()
    for _ in range(steps):            # into the visible lines: part of a line already drawn
        a.step()
    line, px = a.beam
    assert 0 <= line < 243 and px > 0          # a visible line, partly drawn
    saved = a.save_state()
    b = Machine(image(program), None, region)
    b.run_frame()                     # b has its own history until the state is loaded
    b.load_state(saved)
    for _ in range(4):
        a.run_frame()
        b.run_frame()
        assert (a.frame == b.frame).all()
        assert (a.audio() == b.audio()).all()
    assert a.audio().any() or program == "midframe"
