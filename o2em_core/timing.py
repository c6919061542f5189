"""The time base of the console: ticks of the master crystal (hardware.md §3).

Both regions become exact integers when time is counted in crystal ticks:

* NTSC (Odyssey², 8244, 7.15909 MHz): 1 machine cycle = 20 ticks, 1 scanline = 455 ticks, and
  a tick is one pixel clock of MAME's screen.
* PAL (Videopac G7000, 8245, 17.734476 MHz): 1 machine cycle = 45 ticks, 1 scanline = 1140
  ticks; the pixel clock is crystal / 2.5, so pixel = ticks × 2 / 5.

Beam events are given in (line, pixel) positions as MAME's 8244 model places them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Region:
    """The timing constants of one console model."""

    name: str
    crystal_hz: int          # master ticks per second
    ticks_per_cycle: int     # one 8048 machine cycle (15 CPU clocks)
    ticks_per_line: int      # one scanline
    lines: int               # scanlines per frame (vtotal)
    px_num: int              # pixel = tick × px_num // px_den
    px_den: int
    hblank_end_px: int       # last pixel of HBLANK (T1 high from px 366 to this one)
    bg_px: int               # "BG": the Y beam counter increments here
    vblank_end_line: int     # VBLANK ends at (this line, px 365) — 0 of the next frame on NTSC
    ntsc: bool               # 8244 (True) or 8245 (False)

    @property
    def htotal(self) -> int:
        """Pixel clocks per scanline."""
        return self.ticks_per_line * self.px_num // self.px_den

    @property
    def frame_ticks(self) -> int:
        return self.ticks_per_line * self.lines

    @property
    def cycles_per_second(self) -> float:
        return self.crystal_hz / self.ticks_per_cycle

    @property
    def fps(self) -> float:
        return self.crystal_hz / self.frame_ticks

    def tick_of_px(self, px: int) -> int:
        """First whole tick of the line at or before the start of pixel ``px``: the machine cycle
        containing that tick is the one containing the exact beam time."""
        return px * self.px_den // self.px_num


VISIBLE_LINES = 243      # lines 0..242 are drawn (MAME screen)
VISIBLE_PX = 360         # pixel clocks 0..359 of each line are shown
VBLANK_LINE = 242        # VBLANK starts at (242, 365): T1 high, status bit 3, INT
VBLANK_PX = 365
HBLANK_PX = 366          # HBLANK starts; the sound clock steps here on every line
HSTATUS_PX = 225         # status bit 0 rises at X = 0x70 (pixel 225 …)
POWER_ON_LINE = 243      # MAME starts the CPU at line 243, pixel 0 (start of VBLANK lines)

NTSC = Region("ntsc", 7_159_090, 20, 455, 263, 1, 1, hblank_end_px=452, bg_px=413,
              vblank_end_line=263, ntsc=True)
PAL = Region("pal", 17_734_476, 45, 1140, 313, 2, 5, hblank_end_px=453, bg_px=414,
             vblank_end_line=312, ntsc=False)
REGIONS: dict[str, Region] = {"ntsc": NTSC, "pal": PAL}
