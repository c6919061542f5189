"""How the save states in this folder were made: run on main at 5c5f52b (before the register
file became a table), from the repository root: ``python -m tests.core.data.make_old_states``.
Kept to show the recipe; run with later code it makes states of that code, not these.

Each state is our open BIOS and battle program (cartridge/roms) in the middle of a battle with
the sticks moving and firing (the battle program of that day is kept beside them as
``conquest.bin.z``); ``old_states.json`` records, per state, the frame and audio
hashes of the frames that follow it under ``test_old_states.drive`` as that code produced them.
"""
from __future__ import annotations

import json
import pathlib
import zlib

from o2em_core import Machine
from tests.core.test_old_states import CASES, DATA, drive, fingerprint_of

ROOT = pathlib.Path(__file__).resolve().parents[3]


def play_into_battle(region: str, red: str, blue: str, frames: int) -> Machine:
    """Power on, enter both programs, start the battle and fight ``frames`` frames."""
    m = Machine((ROOT / "cartridge/roms/bios.bin").read_bytes(),
                (ROOT / "cartridge/roms/conquest.bin").read_bytes(), region=region)
    keys = ["SPACE", "R", red, "2", "5", "0", "0", "B", blue, "1", "5", "0", "0", "ENTER"]
    for _ in range(5):
        m.run_frame()
    for key in keys:
        m.press(key)
        for _ in range(3):
            m.run_frame()
        m.release(key)
        for _ in range(3):
            m.run_frame()
    drive(m, frames, seed=7)
    return m


def main() -> None:
    recorded = {}
    for name, (region, red, blue, frames) in CASES.items():
        m = play_into_battle(region, red, blue, frames)
        saved = m.save_state()
        (DATA / f"{name}.state.z").write_bytes(zlib.compress(saved, 9))
        recorded[name] = {"layout": fingerprint_of(saved), **drive(m, 150, seed=11)}
    (DATA / "old_states.json").write_text(json.dumps(recorded, indent=1) + "\n")


if __name__ == "__main__":
    main()
