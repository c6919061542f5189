"""Speed figures for ``make bench``: every emulation benchmark measures process CPU time beside
pytest-benchmark's wall time, and states the multiple of real time from the CPU time (on a
shared machine the CPU time of the least disturbed round holds within about ±10 % while wall
time swings several times). The figures are printed after the timing table, because pytest
captures what the benchmarks print and the table itself shows only wall time per round."""
from __future__ import annotations

import time
from collections.abc import Callable

import pytest

# the extra_info keys the benchmarks in this folder set, and how each is shown
FIGURES = {
    "x_real_time": "{}x real time (CPU)",
    "x_real_time_wall": "{}x (wall)",
    "cpu_ms": "{} ms CPU",
    "wall_ms": "{} ms wall per round",
    "share_of_one_core_at_real_time": "{} of one core at real time (CPU)",
    "wall_share": "{} of real time (wall)",
}


def measure(benchmark, fn: Callable[[], None], frames: int, fps: float) -> None:
    """Benchmark ``fn`` (``frames`` emulated frames) and record the fastest round's CPU and
    wall time and the multiples of real time (``fps`` frames a second) they make."""
    cpu: list[float] = []

    def body() -> None:
        start = time.process_time()
        fn()
        cpu.append(time.process_time() - start)

    benchmark(body)
    if benchmark.stats is None:                 # --benchmark-disable: body ran once, no timing
        return
    wall = benchmark.stats.stats.min            # the least disturbed round
    best = min(cpu)
    emulated = frames / fps
    benchmark.extra_info.update(x_real_time=round(emulated / best, 1),
                                x_real_time_wall=round(emulated / wall, 1),
                                cpu_ms=round(best * 1e3, 2), wall_ms=round(wall * 1e3, 2))


@pytest.hookimpl(trylast=True)                # after pytest-benchmark's table
def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)     # pytest-benchmark's own state
    rows = []
    for bench in getattr(session, "benchmarks", None) or []:
        shown = [fmt.format(bench.extra_info[key]) for key, fmt in FIGURES.items()
                 if key in bench.extra_info]
        if shown:
            rows.append((bench.name, ", ".join(shown)))
    if rows:
        terminalreporter.section("speed")
        terminalreporter.write_line("process CPU time beside wall time; real time is PAL 394 100 "
                                    "cycles/s, 49.7 frames/s; NTSC 357 955 cycles/s, 59.8 frames/s")
        width = max(len(name) for name, _ in rows)
        for name, text in sorted(rows):
            terminalreporter.write_line(f"{name:<{width}}  {text}")
