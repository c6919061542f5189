"""The sound section of the Intel 8244/8245: a 24-bit shift register clocked from the line
counter (hardware.md §10), turned into int16 samples at the host's rate.

Interface contract with the machine core:

* ``new_state(sample_rate, line_ticks, tick_hz) -> int64[SND_SIZE]``: the sound state array
  (part of the machine state, saved with it).
* ``note_write(snd)``: the CPU wrote 0xA7, 0xA8 or 0xA9.
* ``clock_line(vregs, snd) -> bool``: called at pixel 366 of every scanline (all lines); steps the
  prescaler and shifts; returns True when the sound interrupt must be raised (status bit 2 + INT).
* ``emit_line(vregs, snd, audio)``: called once per scanline after ``clock_line``; appends the
  samples that fall into this line's duration to ``audio`` (int16) at index ``snd[SND_AUDIO_LEN]``
  and advances that index. The caller reads ``audio[:snd[SND_AUDIO_LEN]]`` once per frame and sets
  the index back to 0.
"""
from __future__ import annotations

import numpy as np
from numba import njit

SND_PRESCALER = 0
SND_PENDING = 1
SND_WRITTEN = 2
SND_COUNT = 3
SND_LAST_BIT = 4
SND_AUDIO_LEN = 5
SND_RATE = 6          # host sample rate, Hz
SND_LINE_TICKS = 7    # master ticks per scanline
SND_TICK_HZ = 8       # master ticks per second
SND_PHASE = 9         # resampling phase accumulator, in units of ticks*rate
SND_DC_X = 10         # DC-blocking filter state (fixed point)
SND_DC_Y = 11
SND_SIZE = 16

AUDIO_CAPACITY = 2048  # samples per frame the caller must provide room for


def new_state(sample_rate: int, line_ticks: int, tick_hz: int) -> np.ndarray:
    """A fresh sound state for the given host rate and region timing."""
    snd = np.zeros(SND_SIZE, dtype=np.int64)
    snd[SND_RATE] = sample_rate
    snd[SND_LINE_TICKS] = line_ticks
    snd[SND_TICK_HZ] = tick_hz
    return snd


@njit(cache=True)
def note_write(snd: np.ndarray) -> None:
    """Remember a write to the shift register (0xA7–0xA9)."""
    snd[SND_WRITTEN] = 1


@njit(cache=True)
def clock_line(vregs: np.ndarray, snd: np.ndarray) -> bool:
    """Placeholder until the sound work lands: never interrupts."""
    return False


@njit(cache=True)
def emit_line(vregs: np.ndarray, snd: np.ndarray, audio: np.ndarray) -> None:
    """Placeholder until the sound work lands: silence at the right rate."""
    phase = snd[SND_PHASE] + snd[SND_LINE_TICKS] * snd[SND_RATE]
    n = snd[SND_AUDIO_LEN]
    while phase >= snd[SND_TICK_HZ]:
        phase -= snd[SND_TICK_HZ]
        if n < audio.shape[0]:
            audio[n] = 0
            n += 1
    snd[SND_PHASE] = phase
    snd[SND_AUDIO_LEN] = n
