"""mypy as a test (README, "Dependencies"): every module of a package is named on the command
line, so a new module or a change to one is checked, and the run must report all of them. The
settings in pyproject.toml apply (numba, pyglet and pyserial read as untyped)."""
from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def modules(package: str) -> list[str]:
    """The package's Python files (its subpackages too), relative to the repository; a module's
    own path (``videopac/ledger_view.py``) is that one file."""
    if package.endswith(".py"):
        assert (ROOT / package).is_file(), package
        return [package]
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / package).rglob("*.py"))


def _assert_mypy(package: str, *options: str) -> None:
    """mypy with ``options`` finds nothing in `package`; imports from outside it are followed
    silently (checked where they belong)."""
    files = modules(package)
    res = subprocess.run([sys.executable, "-m", "mypy", *options, "--follow-imports=silent",
                          "--cache-dir=/dev/null", *files], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f" {len(files)} source file" in res.stdout     # "1 source file", "12 source files"


def assert_strict(package: str) -> None:
    """mypy --strict finds nothing in `package` (or in the one module of that path)."""
    _assert_mypy(package, "--strict")


def assert_typed(package: str) -> None:
    """mypy (not --strict: the parts numba compiles and the pyglet shell are typed as far as
    those allow) finds nothing in `package`."""
    _assert_mypy(package)
