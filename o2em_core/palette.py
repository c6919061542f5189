"""The 16 colours of the Intel 8244/8245 and the conversion of palette-index frames to RGB.

Index = I·8 + B·4 + G·2 + R (MAME's ordering, hardware.md §8.4). The RGB values are MAME's default
"RF" palette, which MAME's authors calibrated against a real Videopac's RF output.
"""
from __future__ import annotations

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
