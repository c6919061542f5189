"""The frame format: CRC-7 against its published check value, exhaustive error detection over
every possible frame, and resynchronisation of the stream decoder after any garbage."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, strategies as st

from videopac.sticks.serial_line import (RELEASED, FrameDecoder, FrameError, JoystickState, crc7,
                                         decode_frame, encode_frame)

ALL_STATES = [JoystickState.from_bits(bits) for bits in range(32)]
ALL_FRAMES = [encode_frame(a, b) for a in ALL_STATES for b in ALL_STATES]


def test_crc7_matches_the_catalogue_check_value():
    # CRC-7/MMC in the CRC RevEng catalogue: width=7 poly=0x09 init=0 check=0x75
    assert crc7(b"123456789") == 0x75


def test_stick_bits_follow_the_console_bus_order():
    # docs/hardware.md §6: bit 0 up, 1 right, 2 down, 3 left, 4 fire (the protocol uses 1 = pressed)
    assert [JoystickState(**{f: True}).to_bits() for f in ("up", "right", "down", "left", "fire")] \
        == [1, 2, 4, 8, 16]


def test_every_state_round_trips_and_only_the_start_byte_has_bit_7():
    for frame, (a, b) in zip(ALL_FRAMES, itertools.product(ALL_STATES, ALL_STATES)):
        assert len(frame) == 4 and frame[0] == 0x81
        assert all(byte < 0x80 for byte in frame[1:])
        assert decode_frame(frame) == (a, b)


def test_every_single_bit_error_is_rejected():
    for frame in ALL_FRAMES:
        for bit in range(32):
            bad = bytearray(frame)
            bad[bit // 8] ^= 1 << (bit % 8)
            with pytest.raises(FrameError):
                decode_frame(bytes(bad))


def test_every_byte_swap_that_changes_the_frame_is_rejected():
    for frame in ALL_FRAMES:
        for i, j in itertools.combinations(range(4), 2):
            bad = bytearray(frame)
            bad[i], bad[j] = bad[j], bad[i]
            if bytes(bad) != frame:
                with pytest.raises(FrameError):
                    decode_frame(bytes(bad))


def test_decoder_counts_and_skips_what_is_not_a_frame():
    good = encode_frame(JoystickState(up=True), JoystickState(fire=True))
    other = encode_frame(RELEASED, JoystickState(left=True))
    corrupt = bytearray(good)
    corrupt[1] ^= 0x04
    future = bytes((0x82, 1, 2, 3, 4, 5, 6))          # version 2, any length
    decoder = FrameDecoder()
    stream = b"noise" + good[:2] + good + bytes(corrupt) + future + other + good[:3]
    assert decoder.feed(stream) == [decode_frame(good), decode_frame(other)]
    c = decoder.counters
    assert (c.frames, c.stray, c.truncated, c.bad_checksum, c.unknown_version) == (2, 5, 1, 1, 1)
    # the trailing partial frame completes with the next read
    assert decoder.feed(good[3:]) == [decode_frame(good)]


def test_frames_split_over_many_reads_decode():
    decoder = FrameDecoder()
    out = []
    for byte in b"".join(ALL_FRAMES[:50]):
        out += decoder.feed(bytes((byte,)))
    assert out == [decode_frame(f) for f in ALL_FRAMES[:50]]


@given(garbage=st.binary(max_size=40), states=st.lists(st.integers(0, 1023), min_size=1,
                                                          max_size=5))
def test_any_garbage_costs_at_most_the_frames_it_overlaps(garbage, states):
    """Self-synchronisation: whatever came before, every complete frame after it decodes."""
    frames = [ALL_FRAMES[i] for i in states]
    decoded = FrameDecoder().feed(garbage + b"".join(frames))
    assert decoded[-len(frames):] == [decode_frame(f) for f in frames]


def test_every_double_bit_error_is_rejected():
    """CRC-7 is linear (init 0, no final xor), so an error pattern goes undetected in one frame
    exactly when it does in all: checking every pattern against one frame covers all 1024."""
    frame = encode_frame(JoystickState(up=True), JoystickState(fire=True))
    bits = [(byte, bit) for byte in range(4) for bit in range(8)]
    for (b1, i1), (b2, i2) in itertools.combinations(bits, 2):
        bad = bytearray(frame)
        bad[b1] ^= 1 << i1
        bad[b2] ^= 1 << i2
        with pytest.raises(FrameError):
            decode_frame(bytes(bad))
