"""A stand-in for o2em_core.Machine that follows docs/machine-api.md and records its inputs.

It makes window and input tests sharper than the real machine would: every pressed key and
joystick bit is visible, and each frame is a known pattern of all 16 colours.
"""
from __future__ import annotations

import numpy as np

FPS = {"pal": 49.70, "ntsc": 59.83}


class FakeMachine:
    def __init__(self, bios=None, cart=None, region="pal", sample_rate=44100):
        self.region, self.fps, self.sample_rate = region, FPS[region], sample_rate
        self.cycles_per_second = 394100 if region == "pal" else 357955
        self.frames = 0
        self.resets = 0
        self.pressed: set[str] = set()
        self.sticks = [dict.fromkeys(("up", "down", "left", "right", "fire"), False) for _ in range(2)]
        self._phase = 0.0
        self.frame = self._pattern()
        self._audio = np.zeros(0, dtype=np.int16)

    _BASE = (np.add.outer(np.arange(243) // 5, np.arange(360) // 7) % 16).astype(np.uint8)

    def _pattern(self) -> np.ndarray:
        """Diagonal bands of all 16 colours, moving one colour per frame."""
        return (self._BASE + np.uint8(self.frames % 16)) & 15

    def run_frame(self) -> None:
        self.frames += 1
        self.frame = self._pattern()
        self._phase += self.sample_rate / self.fps
        n, self._phase = int(self._phase), self._phase - int(self._phase)
        t = np.arange(n)
        self._audio = np.where((t // 50) % 2, 4000, -4000).astype(np.int16)

    def audio(self) -> np.ndarray:
        return self._audio

    def press(self, name: str) -> None:
        self.pressed.add(name)

    def release(self, name: str) -> None:
        self.pressed.discard(name)

    def release_all(self) -> None:
        self.pressed.clear()

    def set_joystick(self, n, up=False, down=False, left=False, right=False, fire=False) -> None:
        self.sticks[n] = dict(up=up, down=down, left=left, right=right, fire=fire)

    def reset(self) -> None:
        self.resets += 1

    def save_state(self) -> bytes:
        return b"FAKE" + self.frames.to_bytes(4, "little")

    def load_state(self, state: bytes) -> None:
        if len(state) != 8 or state[:4] != b"FAKE":
            raise ValueError("not a save state")
        self.frames = int.from_bytes(state[4:], "little")
        self.frame = self._pattern()
