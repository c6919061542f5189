"""The time base of the console (docs/hardware.md §3): one integer clock that both the 8048's machine
cycles and the video chip's pixel clocks divide exactly.

The rates are MAME's, because MAME is the reference the project compares with:

* the pixel clock is twice the 824x clock, as an integer number of Hz: NTSC 7 159 090
  (crystal / 2 × 2), PAL 7 093 790 (17 734 476 / 5 × 2, the 0.4 Hz dropped);
* the CPU executes 357 955 (NTSC) or 394 100 (PAL) machine cycles per second: MAME divides
  the CPU clock (crystal × 3/4 or crystal / 3) by 15 and rounds up, so its CPU runs about
  1.4 parts per million faster than the crystal ratio (20 / 18 pixel clocks per cycle). Over
  20 frames that is ~4 pixel clocks, which is what comparisons of mid-frame effects see.

A tick is 1 / lcm(cycle rate, pixel rate) of a second; cycles and pixels are whole numbers of
ticks (NTSC 1 431 818 and 71 591, PAL 709 379 and 39 410). Beam events are given in (line,
pixel) positions as MAME's 8244 model places them.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd


@dataclass(frozen=True)
class Region:
    """The timing constants of one console model."""

    name: str
    cycles_per_second: int   # 8048 machine cycles per second (MAME's rounding)
    pixel_hz: int            # pixel clocks per second (2 × the 824x clock)
    htotal: int              # pixel clocks per scanline
    lines: int               # scanlines per frame (vtotal)
    hblank_end_px: int       # last pixel of HBLANK (T1 high from px 366 to this one)
    bg_px: int               # "BG": the Y beam counter increments here
    vblank_end_line: int     # VBLANK ends at (this line, px 365) — 0 of the next frame on NTSC
    ntsc: bool               # 8244 (True) or 8245 (False)

    @property
    def tick_hz(self) -> int:
        """Ticks per second: the least common multiple of the two rates."""
        return self.cycles_per_second * self.pixel_hz // gcd(self.cycles_per_second,
                                                             self.pixel_hz)

    @property
    def ticks_per_cycle(self) -> int:
        return self.tick_hz // self.cycles_per_second

    @property
    def ticks_per_px(self) -> int:
        return self.tick_hz // self.pixel_hz

    @property
    def ticks_per_line(self) -> int:
        return self.ticks_per_px * self.htotal

    @property
    def frame_ticks(self) -> int:
        return self.ticks_per_line * self.lines

    @property
    def fps(self) -> float:
        return self.pixel_hz / (self.htotal * self.lines)

    def tick_of_px(self, px: int) -> int:
        """The tick at which pixel ``px`` of a line starts."""
        return px * self.ticks_per_px


VISIBLE_LINES = 243      # lines 0..242 are drawn (MAME screen)
VISIBLE_PX = 360         # pixel clocks 0..359 of each line are shown
VBLANK_LINE = 242        # VBLANK starts at (242, 365): T1 high, status bit 3, INT
VBLANK_PX = 365
HBLANK_PX = 366          # HBLANK starts; the sound clock steps here on every line
HSTATUS_PX = 225         # status bit 0 rises at X = 0x70 (pixel 225 …)
POWER_ON_LINE = 243      # MAME starts the CPU at line 243, pixel 0 (start of VBLANK lines)

NTSC = Region("ntsc", 357_955, 7_159_090, 455, 263, hblank_end_px=452, bg_px=413,
              vblank_end_line=263, ntsc=True)
PAL = Region("pal", 394_100, 7_093_790, 456, 313, hblank_end_px=453, bg_px=414,
             vblank_end_line=312, ntsc=False)
REGIONS: dict[str, Region] = {"ntsc": NTSC, "pal": PAL}
