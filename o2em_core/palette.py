"""The 16 colours of the Intel 8244/8245 and the conversion of palette-index frames to RGB.

Index = I·8 + B·4 + G·2 + R (MAME's ordering, hardware.md §8.4). The RGB values are MAME's default
"RF" palette (the table ``odyssey2_colors`` in MAME's ``src/mame/philips/odyssey2.cpp``, most
entries marked "calibrated to real VideoPac"), so that our frames and MAME's snapshots of the same
picture have identical pixels. PNG files are written with the standard library only (zlib, struct).
"""
from __future__ import annotations

import struct
import zlib

import numpy as np

NAMES = ("black", "red", "green", "yellow", "blue", "violet", "cyan", "light grey",
         "grey", "light red", "light green", "light yellow", "light blue", "light violet",
         "light cyan", "white")

# hardware.md §8.4, column "MAME default (RF palette)"
RGB = np.array([
    (0x00, 0x00, 0x00), (0x79, 0x00, 0x00), (0x00, 0x6D, 0x07), (0x77, 0x67, 0x0B),
    (0x1A, 0x37, 0xBE), (0x94, 0x30, 0x9F), (0x2A, 0xAA, 0xBE), (0xCE, 0xCE, 0xCE),
    (0x67, 0x67, 0x67), (0xC7, 0x51, 0x51), (0x56, 0xC4, 0x69), (0xC6, 0xB8, 0x6A),
    (0x5C, 0x80, 0xF6), (0xDC, 0x84, 0xE8), (0x77, 0xE6, 0xEB), (0xFF, 0xFF, 0xFF),
], dtype=np.uint8)


def to_rgb(frame: np.ndarray) -> np.ndarray:
    """Palette indices (H, W) -> RGB (H, W, 3) uint8, by one table lookup."""
    return np.take(RGB, frame & 15, axis=0)


def scale(image: np.ndarray, factor: int) -> np.ndarray:
    """Integer enlargement by pixel repetition (each pixel becomes factor × factor)."""
    if factor < 1:
        raise ValueError(f"scale factor must be a positive integer, not {factor}")
    return np.repeat(np.repeat(image, factor, axis=0), factor, axis=1)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def to_png(rgb: np.ndarray) -> bytes:
    """An RGB image (H, W, 3) uint8 as PNG file bytes (8-bit truecolour, no interlace)."""
    height, width, channels = rgb.shape
    if channels != 3:
        raise ValueError("to_png expects an RGB image of shape (height, width, 3)")
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)   # filter byte 0 = None per row
    rows[:, 1:] = np.ascontiguousarray(rgb, dtype=np.uint8).reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)) + _chunk(b"IEND", b""))
