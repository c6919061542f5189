"""Frame pacing with the audio stream as the clock.

The sound card plays samples at its own crystal's rate; the emulator produces them at the
console's rate. Running frames by the wall clock alone lets the two drift apart (the sample queue
slowly fills up or runs dry). So the pacer runs frames by the wall clock for smoothness, and
trims the speed by up to ``TRIM`` from how full the sample queue is: a queue above its target
means the emulator is ahead of the sound card, below means behind. Over minutes the emulation
therefore advances exactly as fast as the sound card consumes samples: no drift, no stutter.
"""
from __future__ import annotations

TRIM = 0.05          # largest speed correction from the queue level (±5 %)
SMOOTHING = 0.05     # weight of a new queue reading in the running average (per tick)
STALL = 0.25         # seconds: a longer gap (window dragged, machine busy) is not caught up


class Pacer:
    """Decides, at each tick of the event loop, how many frames to emulate now."""

    def __init__(self, fps: float, sample_rate: int, lead: float = 0.05, max_frames: int = 4):
        self.fps = fps
        self.lead = lead * sample_rate            # target queue level, in samples
        self.max_frames = max_frames
        self._level = self.lead                   # running average of the queue level
        self._credit = 0.0                        # frames owed, fractional
        self._last: float | None = None

    def due(self, now: float, queued: int, speed: float = 1.0) -> int:
        """Frames to run at time ``now`` (seconds) with ``queued`` samples not yet taken by the
        sound card. ``speed`` > 1 is fast-forward, which runs free of the audio clock (muted)."""
        dt = 0.0 if self._last is None else now - self._last
        self._last = now
        if dt > STALL or dt < 0:
            dt = 1.0 / self.fps
        self._level += SMOOTHING * (queued - self._level)
        error = max(-1.0, min(1.0, (self.lead - self._level) / self.lead))
        rate = speed if speed != 1.0 else 1.0 + TRIM * error
        self._credit += dt * self.fps * rate
        frames = min(int(self._credit), self.max_frames * max(1, round(speed)))
        self._credit = min(self._credit - frames, 1.0)
        return frames

    def resync(self) -> None:
        """Forget the past (after a pause, a state load or fast-forward): start owing nothing."""
        self._credit = 0.0
        self._last = None
        self._level = self.lead
