"""Crafted save states for the fuzz test (tests/core/test_state_input.py), run as a program so
that a crash of the compiled core ends this process and not pytest:

    python -m tests.core.state_fuzz SEED CASES

Every case takes a real state of the built-in battle program (PAL and NTSC, at a frame end and
mid-frame), sets one or several fields to boundary or random values, writes a valid checksum and
loads it. A refusal must be a StateError of one sentence; an accepted state must run two frames
with a picture of palette indices and save a state that loads again. The last line printed is a
JSON summary: {"refused": n, "accepted": n, "bad": [descriptions of wrong outcomes]}.
"""
from __future__ import annotations

import json
import random
import sys
import zlib

import numpy as np

from cartridge.images import builtin_image
from o2em_core import Machine, StateError, raster, sound, state
from o2em_core.savestate import HEADER, SECTIONS

INT64 = (-(1 << 63), (1 << 63) - 1)


def base_states() -> list[tuple[Machine, bytes]]:
    """(machine, state) pairs to craft from: both regions, at a frame end and mid-frame."""
    out = []
    for region in ("pal", "ntsc"):
        m = Machine(builtin_image("bios"), builtin_image("conquest"), region=region)
        for _ in range(40):
            m.run_frame()
        out.append((m, m.save_state()))
        for _ in range(777):
            m.step()
        out.append((m, m.save_state()))
    return out


def fields(m: Machine) -> list[tuple[str, int, int, str]]:
    """(array, element index, dtype char, name) of every field worth crafting."""
    regs = [("regs", i, "q", state.REG_NAMES[i] if i < len(state.REG_NAMES) else f"reg{i}")
            for i in range(state.REGS_SIZE)]
    snd = [("snd", i, "q", sound.SOUND_STATE[i].name if i < len(sound.SOUND_STATE) else f"snd{i}")
           for i in range(sound.SND_SIZE)]
    mem = [("mem", i, "B", f"mem{i}") for i in (0, 63, state.JOY_OFF, state.JOY_OFF + 1,
                                                  state.JOY_OFF + 2, state.MEM_SIZE - 1)]
    scratch = raster.HEIGHT * raster.WIDTH
    work = [("work", i, "B", f"work{i}") for i in (0, scratch - 1)]
    work += [("work", scratch + k, "B", f"scratch{k}")
             for k in (raster._LINE, raster._NTSC, raster._RULES, raster._KIND,
                       raster._SPAN_LEFT, raster._SPAN_LEFT + 1, raster._SPAN_RIGHT + 1,
                       raster._DRAWN + 1, raster._COLOUR,
                       raster._TPL + raster.WIDTH, raster._TPL_VALID, raster._OBJECT_LINES,
                       raster.SCRATCH_SIZE)]
    frame = [("frame", 0, "B", "frame0")]
    return regs + snd + mem + work + frame


def offsets(m: Machine) -> dict[str, int]:
    """Where each section of a state starts in its payload (savestate.SECTIONS)."""
    out, at = {}, 0
    for section in SECTIONS:
        out[section.name] = at
        at += section.nbytes
    return out


def values(rng: random.Random, original: int, kind: str, m: Machine) -> list[int]:
    """Boundary values around the field's own value and the machine's time constants, and
    random ones, that fit the field's type."""
    if kind == "B":
        return [0, 1, 15, 16, 0x1F, 0x20, 0x7F, 0x80, 0xFF, rng.randrange(256)]
    r = m._regs
    steps = (1, int(r[state.TPC]), int(r[state.TPX]), int(r[state.TPL]),
             int(r[state.FRAME_TICKS]))
    near = [original + s * d for s in steps for d in (-1, 1)]
    fixed = [0, 1, -1, 2, 3, 23, 24, 31, 32, 255, 256, 0xFFF, 0x1000, 1 << 31, (1 << 31) - 1,
             1 << 32, 1 << 62, -(1 << 62), *INT64, rng.randrange(*INT64), rng.randrange(1 << 20)]
    return [v for v in near + fixed if INT64[0] <= v <= INT64[1]]


def craft(saved: bytes, changes: list[tuple[int, str, int]]) -> bytes:
    """``saved`` with (payload offset, struct format, value) changes and a valid checksum."""
    size = HEADER.size
    payload = bytearray(saved[size:])
    for at, kind, value in changes:
        a = np.frombuffer(payload, np.uint8 if kind == "B" else np.int64, 1, at)
        a.setflags(write=True)
        a[0] = value
    head = list(HEADER.unpack(saved[:size]))
    head[-1] = zlib.crc32(payload)
    return HEADER.pack(*head) + bytes(payload)


def outcome(m: Machine, data: bytes) -> str | None:
    """None if ``data`` is refused in one sentence or runs correctly; else what went wrong."""
    fresh = Machine(m._bios.tobytes(), m._cart.tobytes(), region=m.region)
    try:
        fresh.load_state(data)
    except StateError as exc:
        text = str(exc)
        if "\n" in text or not text.startswith("the save state") or len(text) > 300:
            return f"refusal is not one sentence: {text!r}"
        return "refused"
    for _ in range(2):
        fresh.run_frame()
    if fresh.frame.max() >= raster.COLOURS or len(fresh.audio()) > sound.AUDIO_CAPACITY:
        return "accepted, but the picture or the sound is out of range"
    again = Machine(m._bios.tobytes(), m._cart.tobytes(), region=m.region)
    try:
        again.load_state(fresh.save_state())
    except StateError as exc:
        return f"accepted, ran, and its own next state was refused: {exc}"
    return None


def main(seed: int, cases: int) -> dict:
    rng = random.Random(seed)
    summary: dict = {"refused": 0, "accepted": 0, "bad": []}
    bases = base_states()
    plan = []
    for m, saved in bases[:2]:                      # every field, every boundary value
        at = offsets(m)
        for array, index, kind, name in fields(m):
            place = at[array] + index * (1 if kind == "B" else 8)
            original = saved[HEADER.size + place:][:1 if kind == "B" else 8]
            original = int.from_bytes(original, "little", signed=kind == "q")
            for value in values(rng, original, kind, m):
                plan.append((m, saved, [(place, kind, value)], f"{name}={value}"))
    while len(plan) < cases:                        # several fields at once, random values
        m, saved = rng.choice(bases)
        at = offsets(m)
        chosen = rng.sample(fields(m), rng.randint(2, 5))
        changes, names = [], []
        for array, index, kind, name in chosen:
            place = at[array] + index * (1 if kind == "B" else 8)
            value = rng.choice(values(rng, 0, kind, m))
            changes.append((place, kind, value))
            names.append(f"{name}={value}")
        plan.append((m, saved, changes, " ".join(names)))
    for m, saved, changes, label in plan:
        result = outcome(m, craft(saved, changes))
        if result == "refused":
            summary["refused"] += 1
        elif result is None:
            summary["accepted"] += 1
        else:
            summary["bad"].append(f"{m.region} {label}: {result}")
    return summary


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
