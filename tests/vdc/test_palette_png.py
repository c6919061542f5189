"""PNG output and integer scaling of frames (o2em_core.palette)."""
from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from o2em_core import palette


def decode_png(data: bytes) -> np.ndarray:
    """A minimal reader for the PNGs we write (truecolour, 8 bit, filter 0), chunk CRCs checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour_type = header[:4]
    assert (depth, colour_type) == (8, 2)
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + 3 * width)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(height, width, 3)


def test_png_round_trip_of_a_frame():
    frame = (np.arange(243 * 360) % 16).astype(np.uint8).reshape(243, 360)
    rgb = palette.to_rgb(frame)
    back = decode_png(palette.to_png(rgb))
    assert back.shape == (243, 360, 3) and (back == rgb).all()
    assert tuple(back[0, 9]) == (0xC7, 0x51, 0x51)     # index 9 = light red


def test_scale_repeats_pixels():
    img = np.array([[[1, 2, 3], [4, 5, 6]]], np.uint8)
    big = palette.scale(img, 3)
    assert big.shape == (3, 6, 3)
    assert (big[:, :3] == [1, 2, 3]).all() and (big[:, 3:] == [4, 5, 6]).all()
    with pytest.raises(ValueError):
        palette.scale(img, 0)


def test_palette_index_order_is_i_b_g_r():
    assert tuple(palette.RGB[1]) == (0x79, 0x00, 0x00)   # R
    assert tuple(palette.RGB[4]) == (0x1A, 0x37, 0xBE)   # B
    assert tuple(palette.RGB[15]) == (0xFF, 0xFF, 0xFF)
