"""``Machine.frame_rgb`` converts only the lines that changed since the last frame it converted
(palette.LineCache) and is still the exact RGB of every frame: compared with
``palette.to_rgb`` and with a plain numpy lookup in the colour table on every frame of the
battle cartridge's practice session, into a reused buffer and into new ones, also when the
caller writes into the frame or into the buffer between frames, and after a loaded state."""
from __future__ import annotations

import numpy as np

from cartridge.images import builtin_image
from o2em_core import Machine, palette

FRAMES = 1500          # the practice session's battle is under way from about frame 700 on


def _exact(m: Machine, rgb: np.ndarray) -> None:
    assert np.array_equal(rgb, palette.RGB[m.frame])
    assert np.array_equal(rgb, palette.to_rgb(m.frame))


def test_every_frame_of_a_battle_is_exact() -> None:
    m = Machine(builtin_image("bios"), builtin_image("conquest"))
    out = np.empty((243, 360, 3), np.uint8)
    changed = 0
    last = m.frame.copy()
    for n in range(FRAMES):
        if n == 30:
            m.press("A")
        if n == 33:
            m.release("A")
        m.run_frame()
        changed += int((m.frame != last).any(axis=1).sum())
        last = m.frame.copy()
        _exact(m, m.frame_rgb(out))
        if n % 97 == 0:
            _exact(m, m.frame_rgb())                  # a new array now and then
    assert changed > FRAMES                           # the picture moved all along


def test_writes_between_frames_do_not_stick() -> None:
    m = Machine(builtin_image("bios"), builtin_image("conquest"))
    for _ in range(100):
        m.run_frame()
    out = m.frame_rgb()
    out[100:110] = 77                                 # the caller draws into its buffer
    _exact(m, m.frame_rgb(out))
    state = m.save_state()
    m.frame[5, 7] = 9                                 # ... or into the frame
    _exact(m, m.frame_rgb(out))
    m.run_frame()
    m.frame_rgb(out)
    m.load_state(state)                               # a state brings back an older picture
    _exact(m, m.frame_rgb(out))
    odd = np.empty(243 * 360 * 3 + 4, np.uint8)[4:].reshape(243, 360, 3)   # 4-byte aligned
    _exact(m, m.frame_rgb(odd))
