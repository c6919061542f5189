"""The sound path: the sample queue and the pyglet source in both sample formats."""
import ctypes

import numpy as np
import pytest

from videopac.console import audio


def test_queue_keeps_order_across_chunks_and_counts_the_clock():
    q = audio.SampleQueue()
    q.push(np.arange(5, dtype=np.int16))
    q.push(np.arange(5, 12, dtype=np.int16))
    assert len(q) == 12
    assert list(q.pull(3, 10)) == [0, 1, 2]
    assert list(q.pull(6, 10)) == [3, 4, 5, 6, 7, 8]
    assert list(q.pull(100, 10)) == [9, 10, 11]
    assert q.pulled == 12 and len(q) == 0 and q.underruns == 0
    silence = q.pull(100, 10)                        # empty: a short silence, never nothing
    assert list(silence) == [0] * 10 and q.underruns == 1 and q.pulled == 12


@pytest.mark.parametrize("wide, dtype, scale", [(False, np.int16, 1), (True, np.float32, 1 / 32768)])
def test_source_gives_stereo_of_the_queued_samples(wide, dtype, scale):
    q = audio.SampleQueue()
    q.push(np.array([1000, -2000, 32767], dtype=np.int16))
    source = audio.make_source(q, 44100, 50.0, wide=wide)
    assert source.audio_format.channels == 2
    packet = source.get_audio_data(4096)
    data = np.frombuffer(ctypes.string_at(packet.pointer, packet.length), dtype)
    expected = np.array([1000, 1000, -2000, -2000, 32767, 32767]) * scale
    assert np.allclose(data, expected) and packet.length == 6 * np.dtype(dtype).itemsize
    empty = source.get_audio_data(65536)             # the queue is dry: 882 samples of silence
    assert empty is not None and empty.length == 882 * 2 * np.dtype(dtype).itemsize


def test_end_of_stream_after_a_stall_restarts_the_stream():
    """pyglet reports the end of a source when it skipped past everything it had after a
    stall; our player then goes on with the same live source instead of seeking (which a
    streaming source cannot) or stopping."""
    import pyglet
    q = audio.SampleQueue()
    player = audio.start(q, 44100, 50.0)
    try:
        source = player.source
        player.dispatch_event("on_eos")
        assert player.source is source and player.playing
        q.push(np.arange(100, dtype=np.int16))
        packet = source.get_audio_data(400 * source.audio_format.bytes_per_frame)
        assert packet.length == 100 * source.audio_format.bytes_per_frame
        assert pyglet.media.get_audio_driver() is not None
    finally:
        player.delete()
