"""The 16 colours of the Intel 8244/8245 and the conversion of palette-index frames to RGB.

Index = I·8 + B·4 + G·2 + R (MAME's ordering, docs/hardware.md §8.4). The RGB values are MAME's default
"RF" palette (the table ``odyssey2_colors`` in MAME's ``src/mame/philips/odyssey2.cpp``, most
entries marked "calibrated to real VideoPac"), so that our frames and MAME's snapshots of the same
picture have identical pixels. PNG files are written with the standard library only (zlib, struct).
"""
from __future__ import annotations

import struct
import zlib

import numpy as np
from numba import njit, uint8, uint32, uint64

from .pointer import address_of, view

# docs/hardware.md §8.4, column "MAME default (RF palette)"
RGB = np.array([
    (0x00, 0x00, 0x00), (0x79, 0x00, 0x00), (0x00, 0x6D, 0x07), (0x77, 0x67, 0x0B),
    (0x1A, 0x37, 0xBE), (0x94, 0x30, 0x9F), (0x2A, 0xAA, 0xBE), (0xCE, 0xCE, 0xCE),
    (0x67, 0x67, 0x67), (0xC7, 0x51, 0x51), (0x56, 0xC4, 0x69), (0xC6, 0xB8, 0x6A),
    (0x5C, 0x80, 0xF6), (0xDC, 0x84, 0xE8), (0x77, 0xE6, 0xEB), (0xFF, 0xFF, 0xFF),
], dtype=np.uint8)


# Two pixels (index a | b << 4) as the six bytes R G B R G B they occupy in memory, in the low
# 48 bits of a uint64 (little-endian hosts)
_PAIR = np.array([int.from_bytes(bytes(RGB[a]) + bytes(RGB[b]), "little")
                  for b in range(16) for a in range(16)], dtype=np.uint64)
# the same colours as opaque RGBA pixels packed in native-order uint32 (one store a pixel)
RGBA32 = np.concatenate([RGB, np.full((16, 1), 255, np.uint8)], axis=1).view(np.uint32)[:, 0]


def to_rgb(frame: np.ndarray) -> np.ndarray:
    """Palette indices (H, W) -> RGB (H, W, 3) uint8 (a new array)."""
    out = np.empty(frame.shape + (3,), dtype=np.uint8)
    fill_rgb(np.ascontiguousarray(frame, dtype=np.uint8), out)
    return out


def fill_rgb(frame: np.ndarray, out: np.ndarray) -> None:
    """Write the RGB of a frame of palette indices (H, W) uint8 into ``out`` (H, W, 3) uint8
    (both C-contiguous)."""
    if out.shape != frame.shape + (3,) or out.dtype != np.uint8 or frame.dtype != np.uint8:
        raise ValueError("fill_rgb needs a uint8 frame (H, W) and a uint8 (H, W, 3) output")
    if address_of(out) % 4:
        raise ValueError("fill_rgb needs an output array aligned to 4 bytes (as numpy makes them)")
    rgb_at(address_of(frame), address_of(out), frame.size)


@njit(cache=True)
def rgb_at(frame_at: int, out_at: int, n: int) -> None:
    """``fill_rgb`` on addresses (pointer.py): n palette indices to 3·n RGB bytes. Four
    pixels are read as one 32-bit word and written as twelve bytes, three 32-bit words, from
    two lookups of a pair of pixels (both addresses 4-byte aligned)."""
    src = view(frame_at, uint32)
    dst = view(out_at, uint32)
    for q in range(n // 4):
        v = np.uint64(src[q])
        lo = _PAIR[(v & 15) | ((v >> 4) & 0xF0)]
        hi = _PAIR[((v >> 16) & 15) | ((v >> 20) & 0xF0)]
        dst[3 * q] = lo & 0xFFFFFFFF
        dst[3 * q + 1] = (lo >> 32) | ((hi & 0xFFFF) << 16)
        dst[3 * q + 2] = hi >> 16
    tail = view(out_at, uint8)
    pixels = view(frame_at, uint8)
    for i in range(n // 4 * 4, n):
        c = pixels[i] & 15
        tail[3 * i] = RGB[c, 0]
        tail[3 * i + 1] = RGB[c, 1]
        tail[3 * i + 2] = RGB[c, 2]


class LineCache:
    """The RGB of the last frame converted and the palette indices it was converted from, so
    that the next frame converts only the lines that differ (in a game most lines of a frame
    are the last frame's). What it hands out is always the RGB of the frame it is given."""

    def __init__(self, height: int = 243, width: int = 360) -> None:
        # no frame converted yet: 0xFF is no palette index, so every line differs at first
        self.indices = np.full((height, width), 0xFF, dtype=np.uint8)
        self.rgb = np.zeros((height, width, 3), dtype=np.uint8)

    def fill(self, frame: np.ndarray, out: np.ndarray) -> None:
        """Write the RGB of ``frame`` (palette indices, C-contiguous) into ``out``."""
        height, width = self.indices.shape
        if frame.shape != (height, width) or frame.dtype != np.uint8 \
                or not frame.flags.c_contiguous:
            raise ValueError("LineCache.fill needs a C-contiguous uint8 frame of its size")
        if out.shape != self.rgb.shape or out.dtype != np.uint8 or address_of(out) % 8:
            raise ValueError("LineCache.fill needs a uint8 (H, W, 3) output aligned to 8 bytes")
        lines_at(address_of(frame), address_of(self.indices), address_of(self.rgb),
                 address_of(out), height, width)


@njit(cache=True)
def lines_at(frame_at: int, held_at: int, rgb_at_: int, out_at: int, height: int,
             width: int) -> None:
    """``LineCache.fill`` on addresses: a line whose indices differ from the held ones is
    converted (``rgb_at``) into the cache's RGB, then every line is copied to ``out``.
    ``width`` is a multiple of 8, so lines are compared as 64-bit words."""
    frame = view(frame_at, uint64)
    held = view(held_at, uint64)
    words = width // 8
    for y in range(height):
        w = y * words
        diff = np.uint64(0)
        for k in range(w, w + words):
            diff |= frame[k] ^ held[k]
        if diff:
            rgb_at(frame_at + y * width, rgb_at_ + 3 * y * width, width)
            for k in range(w, w + words):
                held[k] = frame[k]
    src = view(rgb_at_, uint64)
    dst = view(out_at, uint64)
    for k in range(height * width * 3 // 8):
        dst[k] = src[k]


def new_texture(height: int = 243, width: int = 360) -> np.ndarray:
    """A buffer for ``texture_rgba``: one uint32 RGBA pixel per frame pixel."""
    return np.zeros((height, width), dtype=np.uint32)


def texture_rgba(frame: np.ndarray, out: np.ndarray) -> None:
    """A frame of palette indices (H, W) uint8 as the RGBA pixels of an OpenGL texture
    (``new_texture()``, rows bottom-up as GL counts them): what the play window uploads."""
    if out.shape != frame.shape or out.dtype != np.uint32 or frame.dtype != np.uint8:
        raise ValueError("texture_rgba needs a uint8 frame (H, W) and a uint32 (H, W) output")
    texture_at(address_of(frame), address_of(out), frame.shape[0], frame.shape[1])


@njit(cache=True)
def texture_at(frame_at: int, out_at: int, height: int, width: int) -> None:
    """``texture_rgba`` on addresses (pointer.py)."""
    src = view(frame_at, uint8)
    dst = view(out_at, uint32)
    for y in range(height):
        row = (height - 1 - y) * width
        for x in range(width):
            dst[row + x] = RGBA32[src[y * width + x] & 15]


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
