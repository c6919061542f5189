"""A minimal PNG encoder (RFC 2083) for RGB screenshots: IHDR, one zlib IDAT, IEND."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def encode(rgb: np.ndarray) -> bytes:
    """RGB uint8 (H, W, 3) -> PNG bytes: 8 bits per channel, colour type 2, filter 0 per row."""
    h, w, _ = rgb.shape
    rows = np.zeros((h, 1 + 3 * w), dtype=np.uint8)  # a leading 0 = filter type "None"
    rows[:, 1:] = np.ascontiguousarray(rgb, dtype=np.uint8).reshape(h, 3 * w)
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + _chunk(b"IEND", b""))
