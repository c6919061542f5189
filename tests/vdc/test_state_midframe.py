"""A save state taken in the middle of a frame (mid-line, with the compositor's working memory
and the sound state in it) continues exactly like the machine it was taken from."""
from __future__ import annotations

import gzip
import pathlib

import pytest

from o2em_core import Machine, savestate
from tests.vdc.programs import image


def run_to(program: str, region: str, frames: int, steps: int) -> Machine:
    """A machine running ``program`` after ``frames`` frames and then ``steps`` instructions."""
    m = Machine(image(program), None, region)
    for _ in range(frames):
        m.run_frame()
    for _ in range(steps):
        m.step()
    return m


def assert_run_alike(a: Machine, b: Machine) -> None:
    """Four more frames of both machines give the same pictures and sound."""
    for _ in range(4):
        a.run_frame()
        b.run_frame()
        assert (a.frame == b.frame).all()
        assert (a.audio() == b.audio()).all()


@pytest.mark.parametrize("program, region, steps", [("moving", "pal", 2500),
                                                    ("midframe", "ntsc", 1700),
                                                    ("sound_fast", "pal", 3100)])
def test_restored_mid_frame_state_gives_identical_frames_and_audio(program, region, steps):
    a = run_to(program, region, 3, steps)    # into the visible lines: part of a line drawn
    line, px = a.beam
    assert 0 <= line < 243 and px > 0          # a visible line, partly drawn
    saved = a.save_state()
    b = Machine(image(program), None, region)
    b.run_frame()                     # b has its own history until the state is loaded
    b.load_state(saved)
    assert_run_alike(a, b)
    assert a.audio().any() or program == "midframe"


# States saved mid-line by earlier code: program, region, frames and instructions run before
# saving, and the layout field the code wrote. 0x121F8E41: main at 5c5f52b, before the
# compositor's scratch was named from one table; the scratch holds a line with grid and objects,
# drawn past pixel 255 (both bytes of DRAWN in use). 0x64B56BAA: main at 7ee1a20, before the
# layout fingerprint came from the tables alone (the sound state and mem became tables).
STATES = pathlib.Path(__file__).with_name("states")
EARLIER = [("coll_everything", "pal", 3, 2318, ""), ("midframe", "ntsc", 3, 1157, ""),
           ("coll_everything", "pal", 3, 2318, "_64b56baa"),
           ("midframe", "ntsc", 3, 1157, "_64b56baa"),
           ("sound_fast", "pal", 3, 3100, "_64b56baa")]
LAYOUTS = {"": 0x121F8E41, "_64b56baa": 0x64B56BAA}


@pytest.mark.parametrize("program, region, frames, steps, saved_by", EARLIER)
def test_state_saved_by_earlier_code_has_todays_bytes_and_runs_on_identically(
        program, region, frames, steps, saved_by):
    old = gzip.decompress((STATES / f"{program}_{region}{saved_by}.state.gz").read_bytes())
    today = run_to(program, region, frames, steps)
    header = savestate.HEADER.size
    layout = savestate.HEADER.unpack(old[:header])[3]
    assert layout == LAYOUTS[saved_by] != savestate.layout_fingerprint()  # an earlier layout ...
    assert today.save_state()[header:] == old[header:]      # ... and today's bytes
    loaded = Machine(image(program), None, region)
    loaded.load_state(old)
    assert_run_alike(today, loaded)
