"""The compiled hot paths carry no reference counting (numba's NRT_incref / NRT_decref): the
state reaches them as typed pointers (o2em_core/pointer.py), so the per-instruction and
per-scanline code only computes. The check reads numba's LLVM IR of the compiled functions,
which exists only for code compiled in the process, so it runs in a child process with an
empty cache directory (a full first compile: slow)."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

CHILD = """
import json
from cartridge.images import builtin_image
from o2em_core import Machine, cpu, palette
m = Machine(builtin_image("bios"), builtin_image("conquest"))
m.run_frame()
m.frame_rgb()
palette.to_rgb(m.frame)
palette.texture_rgba(m.frame, palette.new_texture())
found = {}
for name, fn in (("cpu.run", cpu.run), ("palette.rgb_at", palette.rgb_at),
                 ("palette.lines_at", palette.lines_at),
                 ("palette.texture_at", palette.texture_at)):
    for sig in fn.signatures:
        ir = fn.inspect_llvm(sig)
        calls = [line.strip() for line in ir.splitlines()
                 if "call" in line and ("@NRT_incref" in line or "@NRT_decref" in line)]
        found[f"{name}{sig}"] = {
            "calls": calls, "size": len(ir),
            "catch_up": any("call void @o2em_core.vdc.catch_up(" in line
                            for line in ir.splitlines()),
            "draw_into": any(line.startswith("define") and "6raster9draw_into" in line
                             for line in ir.splitlines())}
print(json.dumps(found))
"""


@pytest.mark.slow
def test_hot_paths_have_no_reference_counting(tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=900)
    assert res.returncode == 0, res.stderr
    found = json.loads(res.stdout.splitlines()[-1])
    assert set(k.split("(")[0] for k in found) == {"cpu.run", "palette.rgb_at",
                                                   "palette.lines_at", "palette.texture_at"}
    for name, info in found.items():
        assert info["size"] > 10_000, f"{name}: no IR to inspect"   # the code is really there
        assert info["calls"] == [], f"{name} counts references: {info['calls'][:3]}"
    # the compositor is a unit of its own (linkage.py): cpu.run calls it by its symbol and
    # does not carry its code
    [run] = [info for name, info in found.items() if name.startswith("cpu.run")]
    assert run["catch_up"] and not run["draw_into"]
