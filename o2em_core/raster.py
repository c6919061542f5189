"""Drawing of one scanline of the Intel 8244/8245 picture (hardware.md §7–9).

Interface contract between the machine core (which keeps time and decides *when* a piece of a line
is drawn) and the drawing rules (which decide *what* the pixels are):

    draw_segment(vregs, ntsc, line, x0, x1, lum_forced, row) -> (collision_bits, status_bits)

* ``vregs``: uint8[256], the VDC register file as the chip holds it (0xA2 holds the collision
  *mask*; the collision *result* is kept by the caller).
* ``ntsc``: True for the 8244, False for the 8245 (the 8244 hides majors with Y < 0x0E).
* ``line``: scanline 0..242; ``x0``..``x1``: half-open range of pixel clocks (0..360) to draw.
* ``lum_forced``: True while P17 = 0 (intensity forced on for every pixel).
* ``row``: uint8[360] view of the frame row; pixels x0..x1-1 receive palette indices.
* Returns the collision bits to OR into the result register 0xA2 and the status bits to OR into
  0xA1 (bit 7: major-system overlap) for pixels x0..x1-1 only.

The whole line is composed from the current registers and only the requested pixels are written,
so that a register written mid-line takes effect from the beam position on (MAME's model).
"""
from __future__ import annotations

import numpy as np
from numba import njit

WIDTH = 360   # pixel clocks shown per line (MAME screen)
HEIGHT = 243  # scanlines 0..242


@njit(cache=True)
def draw_segment(vregs: np.ndarray, ntsc: bool, line: int, x0: int, x1: int,
                 lum_forced: bool, row: np.ndarray) -> tuple[int, int]:
    """Placeholder until the raster work lands: background colour only, no collisions."""
    bg = (vregs[0xA3] >> 3) & 7
    # palette index = I*8 + B*4 + G*2 + R; register bits 5/4/3 = R/G/B
    col = ((bg >> 2) & 1) | (((bg >> 1) & 1) << 1) | ((bg & 1) << 2)
    if lum_forced:
        col |= 8
    for x in range(x0, x1):
        row[x] = col
    return 0, 0
