"""The 8244/8245 sound section (docs/hardware.md §10): shift clocking, noise, volume, interrupt and
the host-rate samples."""
from __future__ import annotations

import numpy as np
import pytest

from o2em_core import sound

# region: (pixel clocks per line, pixel clock Hz, lines per frame) — docs/hardware.md §3.1
PAL = (456, 7_093_790, 313)
NTSC = (455, 7_159_090, 263)


def setup(shift: int, ctrl: int, region=PAL, rate=44_100, control_a0=0):
    v = np.zeros(256, np.uint8)
    v[0xA7], v[0xA8], v[0xA9] = (shift >> 16) & 0xFF, (shift >> 8) & 0xFF, shift & 0xFF
    v[0xAA] = ctrl
    v[0xA0] = control_a0
    return v, sound.new_state(rate, region[0], region[1])


def shift_value(v):
    return int(v[0xA7]) << 16 | int(v[0xA8]) << 8 | int(v[0xA9])


def run_lines(v, snd, n, audio=None):
    irqs = []
    for line in range(n):
        if sound.clock_line(v, snd):
            irqs.append(line)
        if audio is not None:
            sound.emit_line(v, snd, audio)
    return irqs


@pytest.mark.parametrize("ctrl, every", [(0x20, 4), (0x00, 16)])
def test_shift_rate_every_4_or_16_lines(ctrl, every):
    v, snd = setup(0x000001, ctrl)
    positions = []
    for line in range(1, 200):
        before = shift_value(v)
        sound.clock_line(v, snd)
        if shift_value(v) != before:
            positions.append(line)
    assert positions == list(range(every, 200, every))


def test_plain_mode_rotates_24_bits_lsb_first():
    pattern = 0x9A5C31
    v, snd = setup(pattern, 0x20)
    bits = []
    for _ in range(24):
        run_lines(v, snd, 4)
        bits.append(int(snd[sound.SND_LAST_BIT]))
    assert bits == [(pattern >> i) & 1 for i in range(24)]
    assert shift_value(v) == pattern


def test_noise_feedback_hand_computed():
    v, snd = setup(0x000001, 0x30)
    run_lines(v, snd, 4)
    # out 1, S=0 after the shift, feedback 1^0 into bit 15 and bit 23
    assert shift_value(v) == 0x808000
    run_lines(v, snd, 4)
    # out 0, S = 0x404000, old bit 5 = 0 -> bit 15 cleared, bit 23 = 0
    assert shift_value(v) == 0x404000
    run_lines(v, snd, 4 * 10)
    # 10 more shifts: the bit from 22 is replaced by the feedback when it reaches bit 15; the bit
    # from 14 reaches bit 4, so on the last shift feedback = out 0 XOR old bit 5 = 1 -> bits 15, 23
    assert shift_value(v) == 0x808010
    run_lines(v, snd, 4)
    # out 0, S = 0x404008, old bit 5 = 0: bit 15 stays clear, nothing enters bit 23
    assert shift_value(v) == 0x404008
    run_lines(v, snd, 4)
    assert shift_value(v) == 0x202004


def test_noise_differs_from_rotation_and_is_not_periodic_in_24():
    v, snd = setup(0x123456, 0x30)
    seen = []
    for _ in range(24 * 8):
        run_lines(v, snd, 4)
        seen.append(int(snd[sound.SND_LAST_BIT]))
    assert seen[:24] != seen[24:48]


def test_write_suppresses_the_pending_shift_and_restarts_the_count():
    v, snd = setup(0x000001, 0x20)
    run_lines(v, snd, 3)
    sound.note_write(snd)
    run_lines(v, snd, 1)                   # line 4: shift due but a write happened
    assert shift_value(v) == 0x000001 and snd[sound.SND_COUNT] == 0
    run_lines(v, snd, 1)                   # the pending shift happens on the next line
    assert shift_value(v) == 0x800000


def test_sound_interrupt_every_24_shifts_only_when_enabled():
    v, snd = setup(0x0F0F0F, 0x20, control_a0=0x04)
    irqs = run_lines(v, snd, 24 * 4 * 3)
    assert irqs == [24 * 4 - 1, 2 * 24 * 4 - 1, 3 * 24 * 4 - 1]
    v, snd = setup(0x0F0F0F, 0x20, control_a0=0x00)
    assert run_lines(v, snd, 24 * 4 * 3) == []


def frames_of_audio(v, snd, region, frames):
    out = []
    for _ in range(frames):
        audio = np.zeros(sound.AUDIO_CAPACITY, np.int16)
        snd[sound.SND_AUDIO_LEN] = 0
        run_lines(v, snd, region[2], audio)
        out.append(audio[:snd[sound.SND_AUDIO_LEN]].copy())
    return out


@pytest.mark.parametrize("region, per_frame", [(PAL, 44_100 * 456 * 313 / 7_093_790),
                                               (NTSC, 44_100 * 455 * 263 / 7_159_090)])
def test_sample_count_per_frame_at_44100(region, per_frame):
    v, snd = setup(0, 0, region=region)
    counts = [len(a) for a in frames_of_audio(v, snd, region, 100)]
    assert set(counts) <= {int(per_frame), int(per_frame) + 1}
    assert abs(sum(counts) - 100 * per_frame) < 1


def test_volume_zero_and_disabled_are_silence():
    for ctrl in (0xA0, 0x2F):              # enabled at volume 0; volume 15 but disabled
        v, snd = setup(0xAAAAAA, ctrl)
        assert all((a == 0).all() for a in frames_of_audio(v, snd, PAL, 5))


def test_tone_frequency_and_loudness_follow_volume():
    v, snd = setup(0xAAAAAA, 0xAF)         # alternate bits, fast: square wave at rate/8 lines
    a = np.concatenate(frames_of_audio(v, snd, PAL, 50))
    line_hz = 7_093_790 / 456
    expected = line_hz / 4 / 2
    crossings = np.count_nonzero(np.diff(np.sign(a[a != 0])) != 0)
    seconds = len(a) / 44_100
    assert crossings / 2 / seconds == pytest.approx(expected, rel=0.02)
    loud = np.abs(a[2000:]).max()
    v, snd = setup(0xAAAAAA, 0xA4)         # volume 4 of 16
    quiet = np.abs(np.concatenate(frames_of_audio(v, snd, PAL, 50))[2000:]).max()
    assert quiet / loud == pytest.approx(4 / 15, rel=0.05)


def test_dc_blocking_makes_a_constant_level_silence():
    v, snd = setup(0xFFFFFF, 0xAF)         # output pin stuck high at full volume
    chunks = frames_of_audio(v, snd, PAL, 100)
    assert max(np.abs(c).max() for c in chunks[:2]) > 10_000
    assert all((c == 0).all() for c in chunks[-10:])


def test_other_host_rates():
    v, snd = setup(0, 0, region=NTSC, rate=48_000)
    counts = [len(a) for a in frames_of_audio(v, snd, NTSC, 60)]
    assert abs(sum(counts) - 60 * 48_000 * 455 * 263 / 7_159_090) < 1
