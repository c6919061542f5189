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
from typing import Callable, NamedTuple, Sequence

import numpy as np
from numba import njit

from i18n import _

from .state import BYTE, FIXED, FLAG
from .layout import Table
from .vdc_regs import (CONTROL, CTRL_SOUND_INT, SOUND_CONTROL, SOUND_ENABLE, SOUND_FAST,
                       SOUND_NOISE, SOUND_SHIFT, SOUND_VOLUME)

AUDIO_CAPACITY = 2048  # samples per frame the caller must provide room for

FULL_SCALE = 16384     # host amplitude of the output pin held high at volume 16/16
DC_CUTOFF_HZ = 20.0
DC_SHIFT = 16
POLE_SHIFT = 15

SHIFTS_PER_INTERRUPT = 24

# ---- the sound state: one table -------------------------------------------------------------


class Value(NamedTuple):
    """One entry of the sound state: its name, what a save state may hold in it (``legal``)
    and what it means."""

    name: str
    legal: tuple[int, int] | str | Callable[[Sequence[int]], tuple[int, int]]
    meaning: str


# What a save state may hold (``check_state``): (lowest, highest), state.FIXED (the host rate
# and the region's timing: equal to a fresh state's), or a function of the machine's fresh
# sound state that gives (lowest, highest)
SHIFTS = (0, SHIFTS_PER_INTERRUPT - 1)
SAMPLES = (0, AUDIO_CAPACITY)
LEVEL = (0, FULL_SCALE)
FILTERED = (-((FULL_SCALE + 1) << DC_SHIFT), (FULL_SCALE + 1) << DC_SHIFT)  # high-pass output

def _within_a_sample(fresh: Sequence[int]) -> tuple[int, int]:
    """The resampler's phase stays within one host sample (ticks per second, in its units)."""
    return 0, fresh[SND_TICK_HZ] - 1


def _a_samples_signal(fresh: Sequence[int]) -> tuple[int, int]:
    """The sum over one host sample of a signal of at most FULL_SCALE."""
    return 0, FULL_SCALE * fresh[SND_TICK_HZ]


def _since_power_on(fresh: Sequence[int]) -> tuple[int, int]:
    """Counts down from its power-on value."""
    return 0, fresh[SND_IDLE]


_SOUND: Table[Value] = Table("sound.SOUND_STATE")


def _value(name: str, legal: tuple[int, int] | str | Callable[[Sequence[int]], tuple[int, int]],
           meaning: str) -> int:
    """Append an entry to the sound state; its index, which the entry's name is assigned to."""
    return _SOUND.add(Value(name, legal, meaning))


# The sound state, one int64 per entry. An entry's position is its index into ``snd`` and its
# place in a save state, so entries are only ever added at the end (savestate.py fingerprints
# the names); each name is written as its global and as the row's name, like state.REGISTERS.
SND_PRESCALER  = _value("SND_PRESCALER",  BYTE,              "line clocks, modulo 256")
SND_PENDING    = _value("SND_PENDING",    FLAG,              "a shift is due")
SND_WRITTEN    = _value("SND_WRITTEN",    FLAG,              "the CPU wrote the shift register")
SND_COUNT      = _value("SND_COUNT",      SHIFTS,            "shifts since an interrupt or write")
SND_LAST_BIT   = _value("SND_LAST_BIT",   FLAG,              "the bit shifted out last")
SND_AUDIO_LEN  = _value("SND_AUDIO_LEN",  SAMPLES,           "samples in ``audio`` this frame")
SND_RATE       = _value("SND_RATE",       FIXED,             "host sample rate, Hz")
SND_LINE_TICKS = _value("SND_LINE_TICKS", FIXED,             "master ticks per scanline")
SND_TICK_HZ    = _value("SND_TICK_HZ",    FIXED,             "master ticks per second")
SND_PHASE      = _value("SND_PHASE",      _within_a_sample,  "resampling phase, in ticks × rate")
SND_DC_X       = _value("SND_DC_X",       LEVEL,             "DC blocker: its last input")
SND_DC_Y       = _value("SND_DC_Y",       FILTERED,          "... its last output << DC_SHIFT")
SND_ACC        = _value("SND_ACC",        _a_samples_signal, "the signal summed over the sample")
SND_DC_POLE    = _value("SND_DC_POLE",    FIXED,             "filter pole, << POLE_SHIFT")
SND_IDLE       = _value("SND_IDLE",       _since_power_on,   "line clocks still to ignore")

SOUND_STATE: tuple[Value, ...] = _SOUND.done(globals())
SND_SIZE = 16          # room to grow without changing the state's size; the rest stays 0
SND_CONSTANTS = tuple(i for i, row in enumerate(SOUND_STATE) if row.legal == FIXED)


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


def check_state(snd: np.ndarray, fresh: np.ndarray) -> str | None:
    """Why ``snd`` from a save state cannot be a sound state of the machine whose fresh sound
    state is ``fresh`` (same region and host rate), or None: each entry against its row of
    ``SOUND_STATE``. The resampler's phase and sums must stay within one host sample, or a line
    would emit samples for ages."""
    s = [int(v) for v in snd]
    f = [int(v) for v in fresh]
    if s[SND_RATE] != f[SND_RATE]:
        return _("its sound was made at {rate} Hz, this machine plays at {ours} Hz").format(
            rate=s[SND_RATE], ours=f[SND_RATE])
    if any(s[i] != f[i] for i in SND_CONSTANTS):
        return _("its sound timing is not this machine's")
    for i, row in enumerate(SOUND_STATE):
        if isinstance(row.legal, str):      # FIXED: checked above
            continue
        low, high = row.legal(f) if callable(row.legal) else row.legal
        if not low <= s[i] <= high:
            return _("the sound value {name} is {value}, outside {low} to {high}").format(
                name=row.name, value=s[i], low=low, high=high)
    if any(s[len(SOUND_STATE):]):
        return _("the unused sound values are not zero")
    return None
