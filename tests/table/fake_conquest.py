"""A stand-in for the battle cartridge in a machine: the published symbols of docs/conquest.md at
internal-RAM addresses of its own (unlike the real cartridge's, so nothing can depend on them),
driven by the console keys as the program's screens are (SELECT GAME, entry, battle, result).
How each battle ends is scripted by the test, since there is no one at the joysticks."""
from __future__ import annotations

import numpy as np

LAYOUT = {"phase": ("iram", 0x30), "weapon_red": ("iram", 0x31), "weapon_blue": ("iram", 0x32),
          "energy_red": ("iram", 0x38), "energy_blue": ("iram", 0x3A),
          "battle_result": ("iram", 0x33), "tally_red": ("iram", 0x34), "tally_blue": ("iram", 0x35),
          "counter_reading": ("iram", 0x36)}
PHASE = {"select": 0, "entry": 1, "battle": 2, "result": 3, "computer": 4, "practice": 5}
WEAPON = {"P": 7, "S": 8, "T": 9}     # codes of its own, too: they are read from its symbols
RESULT = {"running": 4, "red": 5, "blue": 6, "both": 7}   # its own battle_result codes, too


def symbol_table() -> dict[str, int]:
    """The symbol file of the fake, as asm48 would write it."""
    return {"start": 0x400, "bank0.loop": 0x410, **{n: a for n, (_, a) in LAYOUT.items()},
            **{f"PH_{name.upper()}": code for name, code in PHASE.items()},
            "W_NONE": 0, "W_PLANE": WEAPON["P"], "W_SUB": WEAPON["S"], "W_TANK": WEAPON["T"],
            "RES_RUNNING": RESULT["running"], "RES_RED_WON": RESULT["red"],
            "RES_BLUE_WON": RESULT["blue"], "RES_BOTH": RESULT["both"]}


def to_bcd(value: int, size: int) -> list[int]:
    digits = f"{value:0{2 * size}d}"
    return [int(digits[i]) << 4 | int(digits[i + 1]) for i in range(0, 2 * size, 2)]


class FakeConquest:
    def __init__(self):
        self.iram = np.zeros(64, np.uint8)
        self.xram = np.zeros(128, np.uint8)
        self.frames = 0
        self.side = "red"
        self.outcomes: list[tuple[str, int, dict[str, int]]] = []
        self._battle_frames = 0

    # -- the published symbols --------------------------------------------------------------
    def put(self, name: str, value: int) -> None:
        space, address = LAYOUT[name]
        data = to_bcd(value, 2) if name.startswith(("energy", "counter")) else [value]
        getattr(self, space)[address:address + len(data)] = data

    def get(self, name: str) -> int:
        space, address = LAYOUT[name]
        ram = getattr(self, space)
        if name.startswith(("energy", "counter")):
            return int(f"{ram[address]:02x}{ram[address + 1]:02x}")
        return int(ram[address])

    # -- the program ------------------------------------------------------------------------
    def script(self, result: str, frames: int, left: dict[str, int]) -> None:
        """The next battle ends after ``frames`` with ``result`` and these energies left."""
        self.outcomes.append((result, frames, left))

    def press(self, key: str) -> None:
        phase = self.get("phase")
        if phase in (PHASE["select"], PHASE["result"]) and key == "SPACE":
            self.put("phase", PHASE["entry"])
            self.put("weapon_red", 0)
            self.put("weapon_blue", 0)
            self.put("battle_result", RESULT["running"])
        elif phase == PHASE["entry"]:
            if key in ("R", "B"):
                self.side = "red" if key == "R" else "blue"
            elif key in WEAPON:
                self.put(f"weapon_{self.side}", WEAPON[key])
            elif key.isdigit():
                energy = self.get(f"energy_{self.side}")
                self.put(f"energy_{self.side}", (energy * 10 + int(key)) % 10000)
            elif key == "CLEAR":
                self.put(f"weapon_{self.side}", 0)
                self.put(f"energy_{self.side}", 0)
            elif key == "ENTER" and all(self.get(f"weapon_{s}") for s in ("red", "blue")):
                self.put("phase", PHASE["battle"])
                self._battle_frames = 0

    def release(self, key: str) -> None:
        pass

    def run_frame(self) -> None:
        self.frames += 1
        if self.get("phase") != PHASE["battle"]:
            return
        result, frames, left = self.outcomes[0]
        self._battle_frames += 1
        for side in ("red", "blue"):     # the energies run down evenly towards what is left
            start = self.get(f"energy_{side}")
            step = max(0, start - left[side]) // max(1, frames - self._battle_frames + 1)
            self.put(f"energy_{side}", start - step)
        if self._battle_frames >= frames:
            self.outcomes.pop(0)
            for side in ("red", "blue"):
                self.put(f"energy_{side}", left[side])
            self.put("battle_result", RESULT[result])
            self.put("phase", PHASE["result"])
