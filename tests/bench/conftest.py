"""Prints each benchmark's figure of merit after the timing table, because pytest captures what
the benchmarks print and the table itself shows only microseconds per round."""
from __future__ import annotations

import pytest

# the extra_info keys the benchmarks in this folder set, and how each is shown
FIGURES = {
    "x_real_time": "{}x real time",
    "share_of_one_core_at_real_time": "{} of one core at real time",
}


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
        width = max(len(name) for name, _ in rows)
        for name, text in sorted(rows):
            terminalreporter.write_line(f"{name:<{width}}  {text}")
