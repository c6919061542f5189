"""The line cache knows what each line depends on: every drawing rule of raster.py declares the
register spans it reads (``@reads``, ``raster.RULE_READS``) and the cache compares their union
(``raster.WATCHED``). Here the rules run as plain Python (NUMBA_DISABLE_JIT, in a child
process) on a register file that records every address read, attributed to the innermost
rule running, over random register states and states of the battle cartridge, every line,
and then again as later segments of the same lines (the cache's paths). A rule that reads a
register it did not declare fails the test; so does a function that reads the register file
without a declaration."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

from cartridge.images import builtin_image
from o2em_core import Machine, raster

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOT_RULES = {"_snapshot"}          # copies the whole file into the snapshot: the cache itself

CHILD = r"""
import inspect, json, random, sys
import numpy as np
from o2em_core import raster
from o2em_core.vdc_regs import CONTROL, CTRL_OBJECTS, CTRL_GRID, CTRL_DOTS, CTRL_FILL, COLLISION

stack, found = [], {}

class Recording(np.ndarray):
    def __getitem__(self, key):
        if stack and isinstance(key, (int, np.integer)):
            found.setdefault(stack[-1], set()).add(int(key))
        return super().__getitem__(key)

def watched(name, fn):
    def run(*args):
        stack.append(name)
        try:
            return fn(*args)
        finally:
            stack.pop()
    return run

takers = [name for name, fn in vars(raster).items()
          if inspect.isfunction(fn) and fn.__module__ == raster.__name__
          and "vregs" in inspect.signature(fn).parameters]
for name in takers:
    setattr(raster, name, watched(name, getattr(raster, name)))

states = [bytes.fromhex(h) for h in json.loads(sys.stdin.read())]
rnd = random.Random(28)
for k in range(6):
    v = bytearray(rnd.randrange(256) for _ in range(256))
    v[CONTROL] = rnd.choice([CTRL_OBJECTS | CTRL_GRID, CTRL_OBJECTS | CTRL_GRID | CTRL_DOTS,
                             CTRL_OBJECTS | CTRL_GRID | CTRL_FILL, CTRL_OBJECTS, CTRL_GRID])
    v[COLLISION] = rnd.choice([0, 0xFF, 0x80, 0x0F])
    states.append(bytes(v))
work = raster.new_work()
row, s = work, work[raster.SCRATCH_AT:]
for n, state in enumerate(states):
    vregs = np.frombuffer(state, np.uint8).copy().view(Recording)
    ntsc = n % 2 == 1
    for line in range(raster.HEIGHT):
        raster.draw_into(vregs, ntsc, line, 0, 150, n % 3 == 0, row, line * raster.WIDTH, s, 0,
                         True)
        raster.draw_into(vregs, ntsc, line, 150, 360, False, row, line * raster.WIDTH, s, 0,
                         False)
print(json.dumps({"takers": takers, "found": {k: sorted(v) for k, v in found.items()}}))
"""


def _battle_states() -> list[str]:
    """The register file at a few moments of the practice battle (objects, grid, sprites)."""
    m = Machine(builtin_image("bios"), builtin_image("conquest"))
    states = []
    for n in range(1200):
        if n == 30:
            m.press("A")
        if n == 33:
            m.release("A")
        m.run_frame()
        if n % 200 == 199:
            states.append(m.vdc_regs.tobytes().hex())
    return states


def _declared(spans: tuple[tuple[int, int], ...]) -> set[int]:
    return {a for first, end in spans for a in range(first, end)}


def test_every_rule_reads_only_what_it_declares() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, text=True,
                         input=json.dumps(_battle_states()), capture_output=True, timeout=900)
    assert res.returncode == 0, res.stderr
    got = json.loads(res.stdout.splitlines()[-1])
    # every function that reads the register file declares what it reads
    undeclared = set(got["takers"]) - set(raster.RULE_READS) - NOT_RULES - {"_same_registers"}
    assert not undeclared, f"declare the registers these read with @reads: {undeclared}"
    for rule, spans in raster.RULE_READS.items():
        assert got["found"].get(rule), f"{rule} never ran: the test does not reach it"
        extra = set(got["found"][rule]) - _declared(spans)
        assert not extra, f"{rule} reads {sorted(hex(a) for a in extra)}, not declared"
    # the cache compares exactly the declared spans, and reads nothing else for it
    assert _declared(raster.WATCHED) == set().union(*map(_declared, raster.RULE_READS.values()))
    assert set(got["found"]["_same_registers"]) <= _declared(raster.WATCHED)
    assert set(got["found"]["_snapshot"]) == set(range(256))
