"""Frames per second of the emulator on the reference workload, beside O2EM's in the same run:

    python tools/speed.py [--frames N] [--region pal|ntsc] [--rounds R] [--o2em CORE.so]

The workload is our open BIOS (cartridge/roms/bios.bin) with the battle cartridge
(cartridge/roms/conquest.bin, as it is in the working tree) in the practice session: the key A
held for 3 frames from frame 30 (the practice games start by themselves after the computer
mode's 12 seconds, docs/conquest.md), then N frames (default 6000) in all. Each figure is
process CPU time (what a shared machine disturbs least) with wall time beside it:

* ``run_frame``: the machine alone;
* ``run_frame + RGB``: plus the frame as RGB into the frontend's buffer (``Machine.frame_rgb``);
* ``play loop work``: what ``videopac play`` does per frame besides drawing the window: the
  frame, its sound into the sample queue and out again, the frame converted for the texture
  upload (``palette.texture_rgba``);
* ``O2EM (C)``: the libretro core of O2EM (github.com/libretro/libretro-o2em), on the same
  BIOS, cartridge and key script, run by ``tools/o2em_host.c`` (a minimal libretro frontend,
  our own code, compiled here against the core checkout's ``libretro.h``). The core converts
  every frame to RGB565 for its frontend, so it is compared with ``run_frame + RGB``.

O2EM is never part of this repository: build its core yourself outside it (the script says
how when ``--o2em`` is missing or wrong) and pass the ``.so``; ``$O2EM_CORE`` is the default.
The figures are measured ``--rounds`` times, interleaved (ours, then O2EM, round by round),
and the median round is shown with the range; the ratio is the median of the rounds' ratios.
"""
from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402  (after the path is set)

from cartridge.images import ROMS  # noqa: E402
from o2em_core import Machine  # noqa: E402

KEY, SETTLE, HOLD = "A", 30, 3      # the key script: KEY held HOLD frames from frame SETTLE
HOST_SOURCE = ROOT / "tools" / "o2em_host.c"
BIOS_NAMES = {"pal": "c52.bin", "ntsc": "o2rom.bin"}   # the core's "o2em_bios" file: region
GET_O2EM = ("O2EM's libretro core is not available ({why}). To time it beside ours, build it "
            "outside this repository:\n  git clone https://github.com/libretro/libretro-o2em "
            "/some/where/libretro-o2em && make -C /some/where/libretro-o2em\nthen run again "
            "with --o2em /some/where/libretro-o2em/o2em_libretro.so (or set O2EM_CORE).")


def _cpu() -> float:
    """Process CPU seconds (user + system) so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def workload(region: str, frames: int, per_frame: Callable[[Machine], None]
             ) -> tuple[float, float]:
    """Run the workload with ``per_frame(machine)`` after every frame; (CPU s, wall s)."""
    m = Machine((ROMS / "bios.bin").read_bytes(), (ROMS / "conquest.bin").read_bytes(),
                region=region)
    m.run_frame()                        # compiled (or loaded) outside the timing
    per_frame(m)
    cpu, wall = _cpu(), time.perf_counter()
    for n in range(frames):
        if n == SETTLE:
            m.press(KEY)
        elif n == SETTLE + HOLD:
            m.release(KEY)
        m.run_frame()
        per_frame(m)
    return _cpu() - cpu, time.perf_counter() - wall


def _nothing(m: Machine) -> None:
    pass


def _rgb() -> Callable[[Machine], None]:
    """The frame in RGB into one buffer the frontend keeps, as a frontend does."""
    out = np.empty((243, 360, 3), np.uint8)

    def rgb(m: Machine) -> None:
        m.frame_rgb(out)
    return rgb


def _play_work() -> Callable[[Machine], None]:
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


class O2em:
    """O2EM's libretro core run by our host program on the workload."""

    def __init__(self, core: pathlib.Path, region: str, folder: pathlib.Path) -> None:
        header = next((p for p in (core.parent / "libretro-common" / "include",
                                   core.parent / "include", core.parent)
                       if (p / "libretro.h").is_file()), None)
        if header is None:
            raise RuntimeError(GET_O2EM.format(why=f"no libretro.h beside {core}"))
        self.host = folder / "o2em_host"
        subprocess.run(["cc", "-O2", "-o", str(self.host), str(HOST_SOURCE), f"-I{header}",
                        "-ldl"], check=True)
        self.system = folder / "system"
        self.system.mkdir()
        self.bios_name = BIOS_NAMES[region]
        shutil.copyfile(ROMS / "bios.bin", self.system / self.bios_name)
        self.core = core

    def run(self, frames: int) -> tuple[float, float]:
        """(CPU s, wall s) of ``frames`` frames, as the host measured them itself."""
        out = subprocess.run([str(self.host), str(self.core), str(self.system), self.bios_name,
                              str(ROMS / "conquest.bin"), str(frames), str(SETTLE), str(HOLD)],
                             capture_output=True, text=True, check=True).stdout
        fields = dict(part.split("=") for part in out.split())
        return float(fields["cpu"]), float(fields["wall"])


def _find_core(arg: str | None) -> tuple[pathlib.Path | None, str]:
    """The core's path, or None and why not."""
    given = arg or os.environ.get("O2EM_CORE")
    if not given:
        return None, "no --o2em given and O2EM_CORE not set"
    core = pathlib.Path(given).expanduser().resolve()
    if not core.is_file():
        return None, f"{core} does not exist"
    if shutil.which("cc") is None:
        return None, "no C compiler (cc) for the host program"
    return core, ""


def _machine() -> str:
    """One line about this machine for the README."""
    model = ""
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{datetime.date.today().isoformat()}, {model or platform.machine()}, "
            f"{os.cpu_count()} cores, load average {load}, Python {platform.python_version()}, "
            f"numba {numba.__version__}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=6000)
    ap.add_argument("--region", choices=("pal", "ntsc"), default="pal")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--o2em", metavar="CORE.so", help="O2EM's libretro core (default: "
                    "$O2EM_CORE)")
    args = ap.parse_args(argv)
    rounds = max(1, args.rounds)
    figures: dict[str, Callable[[Machine], None]] = {
        "run_frame": _nothing, "run_frame + RGB": _rgb(), "play loop work": _play_work()}
    core, why = _find_core(args.o2em)
    with tempfile.TemporaryDirectory(prefix="o2em-speed-") as folder:
        o2em = O2em(core, args.region, pathlib.Path(folder)) if core else None
        got: dict[str, list[tuple[float, float]]] = {}
        for _ in range(rounds):                           # interleaved: one of each a round
            for name, fn in figures.items():
                got.setdefault(name, []).append(workload(args.region, args.frames, fn))
            if o2em:
                got.setdefault("O2EM (C)", []).append(o2em.run(args.frames))
    fps_real = Machine(None, None, args.region).fps
    print(f"{args.frames} frames {args.region.upper()}, our BIOS + battle cartridge, key "
          f"{KEY} at frame {SETTLE}; median of {rounds} interleaved rounds (CPU time), "
          f"range in brackets")
    print(f"this machine: {_machine()}")
    for name, runs in got.items():
        cpus = [cpu for cpu, _ in runs]
        cpu = statistics.median(cpus)
        wall = statistics.median(w for _, w in runs)
        print(f"{name:<16} {args.frames / cpu:8.0f} frames/s CPU "
              f"[{args.frames / max(cpus):.0f}-{args.frames / min(cpus):.0f}] "
              f"{args.frames / wall:8.0f} frames/s wall  "
              f"= {args.frames / cpu / fps_real:5.0f}x real time (CPU)")
    if "O2EM (C)" in got:
        ratios = [theirs[0] / ours[0] for ours, theirs in
                  zip(got["run_frame + RGB"], got["O2EM (C)"])]
        print(f"run_frame + RGB / O2EM: {statistics.median(ratios):.2f}x "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f})")
    else:
        print(GET_O2EM.format(why=why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
