"""Frames per second of the emulator on the reference workload, in one run:

    python tools/speed.py [--frames N] [--region pal|ntsc] [--rounds R]

The workload is our open BIOS with the built-in battle cartridge in the practice session: the
key A typed at the start (the practice games start by themselves after the computer mode's 12
seconds, docs/conquest.md), then N frames (default 6000) in all. Three figures,
each from process CPU time (what a shared machine disturbs least) with wall time beside it:

* ``run_frame``: the machine alone;
* ``run_frame + RGB``: plus the frame as RGB (``Machine.frame_rgb``), what a frontend needs;
* ``play loop work``: what ``videopac play`` does per frame besides drawing the window: the
  frame, its sound into the sample queue and out again, the frame converted for the texture
  upload (``palette.texture_rgba``).

With ``--rounds R`` each figure is measured R times, interleaved, and the best is shown.
"""
from __future__ import annotations

import argparse
import pathlib
import resource
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.images import builtin_image  # noqa: E402  (after the path is set)
from o2em_core import Machine  # noqa: E402

KEYS = ("A",)
HOLD, GAP, SETTLE = 3, 20, 30       # frames a key is held, after its release, before the first


def _cpu() -> float:
    """Process CPU seconds (user + system) so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def workload(region: str, frames: int, per_frame) -> tuple[float, float]:
    """Run the workload with ``per_frame(machine)`` after every frame; (CPU s, wall s)."""
    m = Machine(builtin_image("bios"), builtin_image("conquest"), region=region)
    m.run_frame()                        # compiled (or loaded) outside the timing
    script = {}
    at = SETTLE
    for key in KEYS:
        script[at] = ("press", key)
        script[at + HOLD] = ("release", key)
        at += HOLD + GAP
    cpu, wall = _cpu(), time.perf_counter()
    for n in range(frames):
        step = script.get(n)
        if step:
            getattr(m, step[0])(step[1])
        m.run_frame()
        per_frame(m)
    return _cpu() - cpu, time.perf_counter() - wall


def _nothing(m: Machine) -> None:
    pass


def _rgb(m: Machine) -> None:
    m.frame_rgb()


def _play_work():
    """The play loop's per-frame work without the window: sound into the queue, the frame
    converted as the window uploads it."""
    from o2em_core import palette
    from videopac.console.audio import SampleQueue
    queue = SampleQueue()
    texture = palette.new_texture()

    def work(m: Machine) -> None:
        queue.push(m.audio())
        queue.pull(len(queue), 0)
        palette.texture_rgba(m.frame, texture)
    return work


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=6000)
    ap.add_argument("--region", choices=("pal", "ntsc"), default="pal")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    figures = {"run_frame": _nothing, "run_frame + RGB": _rgb, "play loop work": _play_work()}
    best: dict[str, tuple[float, float]] = {}
    for _ in range(max(1, args.rounds)):
        for name, fn in figures.items():
            cpu, wall = workload(args.region, args.frames, fn)
            if name not in best or cpu < best[name][0]:
                best[name] = (cpu, wall)
    fps_real = Machine(None, None, args.region).fps
    print(f"{args.frames} frames {args.region.upper()}, BIOS + battle cartridge, keys "
          f"{' '.join(KEYS)}; best of {max(1, args.rounds)}")
    for name, (cpu, wall) in best.items():
        print(f"{name:<16} {args.frames / cpu:8.0f} frames/s CPU ({cpu:6.2f} s) "
              f"{args.frames / wall:8.0f} frames/s wall ({wall:6.2f} s)  "
              f"= {args.frames / cpu / fps_real:5.0f}x real time (CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
