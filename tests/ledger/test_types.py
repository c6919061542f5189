"""The ledger's types: ``mypy --strict`` passes on its modules (README, "Dependencies").

Every module of board_ledger is in the list, rules.py too, so a new module or a change to one of
them is checked.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
STRICT = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "board_ledger").glob("*.py"))


def test_the_ledger_passes_mypy_strict():
    res = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--cache-dir=/dev/null", *STRICT], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{len(STRICT)} source files" in res.stdout
