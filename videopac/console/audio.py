"""Sound out: the machine's int16 samples through a pyglet streaming source.

The machine hands over one frame of mono samples per ``run_frame``; a thread-safe queue carries
them to pyglet's audio thread, which pulls stereo packets, 32-bit float where the driver takes
it (pyglet keeps at least 32 KiB buffered: the wider the frame, the less the sound lags). An
empty queue yields a short piece of silence: never ``None``, which would end the stream.

A stall (the process stopped, a busy machine) lets pyglet's player fall behind the clock; it
then skips ahead and may find nothing left to play, which it treats as the end of the source.
The source is live, so it has no position to seek to: ``seek`` is a no-op and the player loops,
which restarts the stream from what is queued now. An underrun is a silent gap, never an end.
"""
from __future__ import annotations

import collections
import threading
from typing import Any

import numpy as np

BUFFER_SECONDS = 0.05   # pyglet's buffer target (it keeps at least 32 KiB whatever we ask)


class SampleQueue:
    """A FIFO of int16 mono samples, pushed by the emulator and pulled by the audio thread."""

    def __init__(self) -> None:
        self._chunks: collections.deque[np.ndarray] = collections.deque()
        self._size = 0
        self._lock = threading.Lock()
        self.pulled = 0          # samples handed to the sound card so far (the audio clock)
        self.underruns = 0       # pulls that found the queue empty

    def __len__(self) -> int:
        return self._size

    def push(self, samples: np.ndarray) -> None:
        if len(samples):
            with self._lock:
                self._chunks.append(np.asarray(samples, dtype=np.int16).copy())
                self._size += len(samples)

    def clear(self) -> None:
        with self._lock:
            self._chunks.clear()
            self._size = 0

    def pull(self, count: int, silence: int) -> np.ndarray:
        """Up to ``count`` queued samples; ``silence`` zero samples when the queue is empty."""
        with self._lock:
            if not self._size:
                self.underruns += 1
                return np.zeros(min(count, silence), dtype=np.int16)
            parts, need = [], count
            while need and self._chunks:
                head = self._chunks[0]
                take = head[:need]
                parts.append(take)
                need -= len(take)
                if len(take) == len(head):
                    self._chunks.popleft()
                else:
                    self._chunks[0] = head[len(take):]
            out = np.concatenate(parts)
            self._size -= len(out)
            self.pulled += len(out)
            return out


def make_source(queue: SampleQueue, sample_rate: int, fps: float, wide: bool = False) -> Any:
    """A pyglet StreamingSource that plays ``queue`` as stereo: 32-bit float when ``wide``
    (pyglet's minimum buffer of 32 KiB then lasts 0.09 s instead of 0.19 s at 44.1 kHz).
    pyglet is imported here, when sound starts: the module's importers need not load it."""
    from pyglet.media import StreamingSource
    from pyglet.media.codecs.base import AudioData, AudioFormat

    class MachineSound(StreamingSource):   # type: ignore[misc]  # pyglet is untyped
        def __init__(self) -> None:
            super().__init__()
            self.audio_format = (AudioFormat(2, 32, sample_rate, AudioFormat.SAMPLE_TYPE_FLOAT)
                                 if wide else AudioFormat(2, 16, sample_rate))
            self._frame_bytes = self.audio_format.bytes_per_frame
            self._silence = max(1, int(sample_rate / fps))    # one frame of silence per empty pull

        def seek(self, timestamp: float) -> None:
            """A live stream goes on from what is queued now (pyglet seeks to 0 to loop)."""

        def is_precise(self) -> bool:
            return True   # we return what is queued now; pyglet must not loop to fill its request

        def get_audio_data(self, num_bytes: int, compensation_time: float = 0.0) -> Any:
            mono = queue.pull(max(1, int(num_bytes) // self._frame_bytes), self._silence)
            if wide:
                mono = mono.astype(np.float32) * np.float32(1 / 32768)
            data = np.repeat(mono, 2).tobytes()                 # left = right
            return AudioData(data, len(data))

    return MachineSound()


def start(queue: SampleQueue, sample_rate: int, fps: float) -> Any:
    """Start playing ``queue``; returns the pyglet Player (keep it alive, ``delete()`` at exit)."""
    import pyglet.media
    from pyglet.media.drivers.base import AbstractAudioPlayer

    AbstractAudioPlayer.audio_buffer_length = BUFFER_SECONDS   # pyglet's default is 0.9 s
    driver = pyglet.media.get_audio_driver()
    wide = driver is not None and "F32" in driver.sample_formats
    player = pyglet.media.Player()
    player.loop = True        # an "end" after a stall restarts the stream instead of ending it
    player.queue(make_source(queue, sample_rate, fps, wide))
    player.play()
    return player
