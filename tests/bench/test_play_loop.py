"""CPU cost of the play loop per emulated second (target: under 25 % of one core at real time).

One round = one emulated second through ``videopac.play.Loop``: pacing, ``run_frame``, sound
into the queue (and out again, as pyglet's thread would take it), palette to RGB, texture upload,
draw and flip of the window at the default scale 3 under Xvfb. With the fake machine the round
measures the app's own overhead; with the real machine, the whole loop. The benchmark's time per
round is seconds per emulated second (its inverse is the multiple of real time); the process CPU
time, which includes pyglet's audio thread and Mesa's software renderer, goes to extra_info.
"""
from __future__ import annotations

import pathlib
import time

import pytest

from tests.app.conftest import fake, user_dirs, xvfb  # noqa: F401  (fixtures: Xvfb, fake machine)
from videopac.console import audio, keymap, pacing
from videopac.console.session import Session
from videopac.play import Loop

pytestmark = pytest.mark.xvfb
ROOT = pathlib.Path(__file__).resolve().parents[2]


def one_emulated_second(loop, window, queue, fps) -> float:
    """Run fps frames through the loop on a simulated clock; return the process CPU seconds."""
    cpu = time.process_time()
    frames, now = 0, 0.0
    while frames < round(fps):
        now += 1 / fps
        n = loop.tick(now)
        frames += n
        queue.pull(len(queue), 0)                 # the sound card takes what was made
        if loop.needs_redraw(n):
            window.draw(1 / fps)
    return time.process_time() - cpu


def bench(benchmark, xvfb, machine):
    from videopac.console.window import PlayWindow
    session = Session(machine, keymap.load(), "bench")
    window = PlayWindow(session, machine.region, scale=3)
    queue = audio.SampleQueue()
    loop = Loop(session, window, queue, pacing.Pacer(machine.fps, 44100))
    cpu: list[float] = []
    try:
        benchmark.pedantic(lambda: cpu.append(one_emulated_second(loop, window, queue, machine.fps)),
                           rounds=3, iterations=1, warmup_rounds=1)
    finally:
        window.close()
    share = min(cpu) if cpu else 0.0
    benchmark.extra_info["cpu_seconds_per_emulated_second"] = round(share, 4)
    benchmark.extra_info["share_of_one_core_at_real_time"] = f"{share:.1%}"
    if benchmark.stats is not None:
        benchmark.extra_info["wall_share"] = f"{benchmark.stats.stats.min:.1%}"
    return share


def test_play_loop_overhead_without_emulation(benchmark, xvfb, fake):
    share = bench(benchmark, xvfb, fake)
    assert share > 0


def workload(name: str) -> tuple[bytes, bytes]:
    """(bios, cart) of a workload: roms_test/vdc/moving.a48 (every object of the video chip
    moving, sound on, in the BIOS socket, blank cartridge) or the built-in battle program."""
    if name == "moving":
        from cartridge.asm48 import assemble
        path = ROOT / "roms_test" / "vdc" / "moving.a48"
        program = assemble(path.read_text(), filename=str(path), include_dirs=[path.parent])
        return bytes(program.image(0, 0x3FF)), b"\xff" * 2048
    from cartridge.images import builtin_image
    return builtin_image("bios"), builtin_image("conquest")


@pytest.mark.parametrize("name", ["moving", "conquest"])
def test_play_loop_with_the_real_machine(benchmark, xvfb, name):
    from o2em_core import Machine
    machine = Machine(*workload(name), region="pal", sample_rate=44100)
    machine.run_frame()                              # numba compiles here, outside the timing
    assert bench(benchmark, xvfb, machine) > 0
