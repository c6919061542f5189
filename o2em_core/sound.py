"""The sound section of the Intel 8244/8245: a 24-bit shift register clocked from the line
counter (docs/hardware.md §10), turned into int16 samples at the host's rate.

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

Model (MAME): the shift register lives in the register file (0xA7 = bits 23–16, 0xA9 = bits 7–0,
bit 0 shifted out next) and rotates; noise mode feeds bit 0 XOR bit 5 back into bit 15. The output
pin is the last bit shifted out, gated by the enable bit, and pulse-width modulated by the 4-bit
volume at the 824x clock: its average over a line is ``bit · volume / 16`` of full scale, which is
what a line's worth of output amounts to. The line-rate signal is box-filtered to the host rate
(each sample is the mean of the signal over its own period) and passed through a first-order
DC-blocking high-pass (about 20 Hz), so that a constant output level decays to exactly 0.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from i18n import _

from .vdc_regs import (CONTROL, CTRL_SOUND_INT, SOUND_CONTROL, SOUND_ENABLE, SOUND_FAST,
                       SOUND_NOISE, SOUND_SHIFT, SOUND_VOLUME)

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
SND_DC_X = 10         # DC-blocking filter: previous input sample
SND_DC_Y = 11         # DC-blocking filter: previous output, fixed point << DC_SHIFT
SND_ACC = 12          # integral of the signal over the sample being built
SND_DC_POLE = 13      # filter pole, fixed point << POLE_SHIFT
SND_IDLE = 14         # line clocks still to ignore after power-on
SND_SIZE = 16

AUDIO_CAPACITY = 2048  # samples per frame the caller must provide room for

FULL_SCALE = 16384     # host amplitude of the output pin held high at volume 16/16
DC_CUTOFF_HZ = 20.0
DC_SHIFT = 16
POLE_SHIFT = 15

SHIFTS_PER_INTERRUPT = 24


def new_state(sample_rate: int, line_ticks: int, tick_hz: int, idle_lines: int = 0) -> np.ndarray:
    """A fresh sound state for the given host rate and region timing. ``idle_lines``: line
    clocks to ignore after power-on — MAME starts its line timer at line 0, so a console
    switched on at line 243 has no sound clocks until the first line 0 (lines − 243)."""
    snd = np.zeros(SND_SIZE, dtype=np.int64)
    snd[SND_IDLE] = idle_lines
    snd[SND_RATE] = sample_rate
    snd[SND_LINE_TICKS] = line_ticks
    snd[SND_TICK_HZ] = tick_hz
    snd[SND_DC_POLE] = round(math.exp(-2 * math.pi * DC_CUTOFF_HZ / sample_rate) * (1 << POLE_SHIFT))
    return snd


@njit(cache=True)
def note_write(snd: np.ndarray) -> None:
    """Remember a write to the shift register (0xA7–0xA9)."""
    snd[SND_WRITTEN] = 1


@njit(cache=True)
def clock_line(vregs: np.ndarray, snd: np.ndarray) -> bool:
    """One HBLANK-start clock: step the prescaler (every 4 or 16 lines a shift is due) and shift
    unless the CPU wrote the register since the last clock. True = raise the sound interrupt."""
    if snd[SND_IDLE] > 0:
        snd[SND_IDLE] -= 1
        return False
    ctrl = np.int64(vregs[SOUND_CONTROL])
    snd[SND_PRESCALER] = (snd[SND_PRESCALER] + 1) & 0xFF
    if snd[SND_PRESCALER] & (3 if ctrl & SOUND_FAST else 15) == 0:
        snd[SND_PENDING] = 1
    if snd[SND_PENDING] and not snd[SND_WRITTEN]:
        snd[SND_PENDING] = 0
        s = (np.int64(vregs[SOUND_SHIFT]) << 16 | np.int64(vregs[SOUND_SHIFT + 1]) << 8
             | vregs[SOUND_SHIFT + 2])
        out = s & 1
        feedback = out
        s >>= 1
        if ctrl & SOUND_NOISE:
            feedback ^= (s >> 4) & 1                   # old bit 5, fed back into bit 15
            s = (s & ~0x8000) | feedback << 15
        s |= feedback << 23                             # the register always rotates
        vregs[SOUND_SHIFT] = (s >> 16) & 0xFF
        vregs[SOUND_SHIFT + 1] = (s >> 8) & 0xFF
        vregs[SOUND_SHIFT + 2] = s & 0xFF
        snd[SND_LAST_BIT] = out
        snd[SND_COUNT] += 1
        if snd[SND_COUNT] == SHIFTS_PER_INTERRUPT:
            snd[SND_COUNT] = 0
            return (vregs[CONTROL] & CTRL_SOUND_INT) != 0
    elif snd[SND_WRITTEN]:
        snd[SND_COUNT] = 0                              # a write restarts the 24-shift count
        snd[SND_WRITTEN] = 0
    return False


@njit(cache=True)
def emit_line(vregs: np.ndarray, snd: np.ndarray, audio: np.ndarray) -> None:
    """Append the host samples covered by one scanline of output to ``audio`` (room for
    AUDIO_CAPACITY samples)."""
    ctrl = np.int64(vregs[SOUND_CONTROL])
    level: int | np.int64 = 0
    if ctrl & SOUND_ENABLE and snd[SND_LAST_BIT]:
        level = FULL_SCALE * (ctrl & SOUND_VOLUME) // 16   # PWM duty = volume / 16
    period = snd[SND_TICK_HZ]                  # one host sample, in ticks·rate units
    left = snd[SND_LINE_TICKS] * snd[SND_RATE]  # this line, in the same units
    phase = snd[SND_PHASE]
    acc = snd[SND_ACC]
    n = snd[SND_AUDIO_LEN]
    pole = snd[SND_DC_POLE]
    while phase + left >= period:
        take = period - phase
        left -= take
        # the mean over the sample; one wholly inside this line is the line's level
        x = level if phase == 0 else (acc + level * take) // period
        # y[n] = x[n] - x[n-1] + pole·y[n-1], fixed point, rounded toward zero
        y = ((x - snd[SND_DC_X]) << DC_SHIFT) + _mul_pole(snd[SND_DC_Y], pole)
        snd[SND_DC_X] = x
        snd[SND_DC_Y] = y
        sample = _to_zero(y, np.int64(DC_SHIFT))
        if n < AUDIO_CAPACITY:
            audio[n] = max(-32768, min(32767, sample))
            n += 1
        acc = 0
        phase = 0
    snd[SND_ACC] = acc + level * left
    snd[SND_PHASE] = phase + left
    snd[SND_AUDIO_LEN] = n


@njit(cache=True)
def _to_zero(value: int, shift: int) -> int:
    """value / 2**shift rounded toward zero, so that a decaying filter reaches exactly 0."""
    return value >> shift if value >= 0 else -((-value) >> shift)


@njit(cache=True)
def _mul_pole(y: int, pole: int) -> int:
    return _to_zero(y * pole, np.int64(POLE_SHIFT))


SND_CONSTANTS = (SND_RATE, SND_LINE_TICKS, SND_TICK_HZ, SND_DC_POLE)


def check_state(snd: np.ndarray, fresh: np.ndarray) -> str | None:
    """Why ``snd`` from a save state cannot be a sound state of the machine whose fresh sound
    state is ``fresh`` (same region and host rate), or None. The resampler's phase and sums
    must stay within one host sample, or a line would emit samples for ages."""
    s = [int(v) for v in snd]
    f = [int(v) for v in fresh]
    if s[SND_RATE] != f[SND_RATE]:
        return _("its sound was made at {rate} Hz, this machine plays at {ours} Hz").format(
            rate=s[SND_RATE], ours=f[SND_RATE])
    if any(s[i] != f[i] for i in SND_CONSTANTS):
        return _("its sound timing is not this machine's")
    period = s[SND_TICK_HZ]
    limits = {SND_PRESCALER: ("SND_PRESCALER", 0xFF),
              SND_COUNT: ("SND_COUNT", SHIFTS_PER_INTERRUPT - 1),
              SND_AUDIO_LEN: ("SND_AUDIO_LEN", AUDIO_CAPACITY),
              SND_PHASE: ("SND_PHASE", period - 1),
              SND_ACC: ("SND_ACC", FULL_SCALE * period),
              SND_DC_X: ("SND_DC_X", FULL_SCALE),
              SND_IDLE: ("SND_IDLE", f[SND_IDLE]),
              SND_PENDING: ("SND_PENDING", 1), SND_WRITTEN: ("SND_WRITTEN", 1),
              SND_LAST_BIT: ("SND_LAST_BIT", 1)}
    for i, (name, high) in limits.items():
        if not 0 <= s[i] <= high:
            return _("the sound value {name} is {value}, outside 0 to {high}").format(
                name=name, value=s[i], high=high)
    if abs(s[SND_DC_Y]) > (FULL_SCALE + 1) << DC_SHIFT or any(s[SND_IDLE + 1:]):
        return _("the sound filter holds impossible values")
    return None
