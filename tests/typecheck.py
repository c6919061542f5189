"""mypy as a test (README, "Dependencies"): every module of a package is named on the command
line, so a new module or a change to one is checked, and the run must report all of them. The
settings in pyproject.toml apply (numba, pyglet and pyserial read as untyped)."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def modules(package: str) -> list[str]:
    """The package's Python files (its subpackages too), relative to the repository."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / package).rglob("*.py"))


def _assert_mypy(package: str, *options: str) -> None:
    """mypy with ``options`` finds nothing in `package`."""
    _assert_mypy_files(modules(package), *options)


def _assert_mypy_files(files: list[str], *options: str) -> None:
    """mypy with ``options`` finds nothing in ``files`` and checks all of them; imports from
    outside them are followed silently (checked where they belong)."""
    res = subprocess.run([sys.executable, "-m", "mypy", *options, "--follow-imports=silent",
                          "--cache-dir=/dev/null", *files], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert f" {len(files)} source file" in res.stdout     # "1 source file", "12 source files"


def assert_strict(package: str) -> None:
    """mypy --strict finds nothing in `package`."""
    _assert_mypy(package, "--strict")


def strict_modules() -> list[str]:
    """The modules pyproject.toml holds to ``mypy --strict``: the override that sets
    ``disallow_untyped_defs`` (its flags are --strict's per-module ones)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    return [module for block in config["overrides"] if block.get("disallow_untyped_defs")
            for module in block["module"]]


def module_file(module: str) -> str:
    """``a.b`` -> ``a/b.py`` (or ``a/b/__init__.py``), relative to the repository."""
    path = ROOT / module.replace(".", "/")
    return str((path / "__init__.py" if path.is_dir() else path.with_suffix(".py"))
               .relative_to(ROOT))


def assert_typed(package: str) -> None:
    """Every module of `package` is one pyproject.toml holds to ``mypy --strict`` (a new module
    must be added there), and ``mypy --strict`` finds nothing in them (which checks untyped
    bodies too); pyproject's relaxations for what numba compiles and for pyglet still apply."""
    strict = sorted(module_file(m) for m in strict_modules() if m.split(".")[0] == package)
    missing = sorted(set(modules(package)) - set(strict))
    assert not missing, f"add {missing} to pyproject.toml's mypy --strict list"
    assert strict == modules(package), f"pyproject.toml lists modules not in {package}: {strict}"
    _assert_mypy_files(strict, "--strict")
