"""Screenshots of the battle program's screens into docs/screens/ (for docs/conquest.md and
the README): program entry, each weapon pairing in battle, every map, a missile's blast, the
result with fireworks, the computer mode, a practice battle and the practice war's end. Runs the
built-in open BIOS and cartridge headless through the Machine API.

    python tools/conquest_screens.py [--out docs/screens] [--scale 2]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.images import builtin_image, builtin_symbols  # noqa: E402
from o2em_core import Machine, palette  # noqa: E402
from o2em_core.keyboard import tap  # noqa: E402

WEAPON_KEYS = {"P": "plane", "S": "submarine", "T": "tank"}
# map number (the cartridge's mapid) -> a pairing that plays on it, and the file name
MAPS = {0: ("TT", "land-1"), 1: ("PT", "land-2"), 2: ("SS", "sea-1"), 3: ("PS", "sea-2"),
        4: ("TS", "coast-left-1"), 5: ("TS", "coast-left-2"), 6: ("ST", "coast-right-1"),
        7: ("ST", "coast-right-2")}


class Console:
    """The open BIOS and the battle program, with key presses and frame counts."""

    def __init__(self) -> None:
        self.m = Machine(builtin_image("bios"), builtin_image("conquest"), region="pal")
        self.symbols = builtin_symbols("conquest")
        self.run(10)

    def run(self, frames: int) -> None:
        for _ in range(frames):
            self.m.run_frame()

    def keys(self, *names: str) -> None:
        tap(self.m, *names)

    def iram(self, name: str) -> int:
        return int(self.m.iram[self.symbols[name]])

    def battle_on_map(self, pair: str, mapid: int) -> None:
        """Enter 2500 for both sides and press ENTER on the frame that makes the cartridge pick
        map `mapid` (it picks one of the pair's two maps at random)."""
        self.keys("SPACE", "R", pair[0], "2", "5", "0", "0", "B", pair[1], "2", "5", "0", "0")
        before = self.m.save_state()
        for _ in range(16):
            self.keys("ENTER")
            if self.iram("mapid") == mapid:
                return
            self.m.load_state(before)
            self.run(1)
            before = self.m.save_state()
        raise RuntimeError(f"map {mapid} did not come up for {pair}")

    def save(self, path: Path, scale: int) -> None:
        path.write_bytes(palette.to_png(palette.scale(palette.to_rgb(self.m.frame), scale)))
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="conquest_screens", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    parser.add_argument("--scale", type=int, default=2)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    c = Console()
    c.keys("SPACE", "R", "T", "2", "5", "0", "0", "B", "S", "1", "8", "0", "0")
    c.run(10)
    c.save(out / "conquest-entry.png", args.scale)

    for red in "PST":
        for blue in "PST":
            c = Console()
            c.keys("SPACE", "R", red, "2", "5", "0", "0", "B", blue, "2", "5", "0", "0", "ENTER")
            c.m.set_joystick(0, right=True, fire=True)
            c.m.set_joystick(1, up=True)
            c.run(20)
            c.m.set_joystick(0)
            c.m.set_joystick(1)
            c.run(4)
            c.save(out / f"conquest-battle-{WEAPON_KEYS[red]}-{WEAPON_KEYS[blue]}.png", args.scale)

    for mapid, (pair, name) in MAPS.items():
        c = Console()
        c.battle_on_map(pair, mapid)
        c.run(10)
        c.save(out / f"conquest-map-{name}.png", args.scale)

    c = Console()                                # a missile's blast, drawn while it acts
    c.battle_on_map("SS", 2)
    c.m.iram[c.symbols["ping_time"]] = 100
    c.m.set_joystick(0, up=True)                 # red dives to open water ...
    c.run(40)
    c.m.set_joystick(0, fire=True)               # ... fires straight up ...
    c.run(30)
    c.m.set_joystick(0)                          # ... and lets go: it detonates
    c.run(4)
    c.save(out / "conquest-blast.png", args.scale)

    c = Console()                                # red's energy runs out: blue wins
    c.keys("SPACE", "R", "T", "5", "B", "P", "2", "5", "0", "0", "ENTER")
    c.run(200)
    c.save(out / "conquest-result.png", args.scale)

    c = Console()
    c.keys("A")
    c.run(37)
    c.save(out / "conquest-computer.png", args.scale)

    c = Console()                                # the practice games start by themselves
    c.keys("A")
    c.run(50 * 12 + 25)
    c.m.set_joystick(0, fire=True)
    c.run(60)
    c.save(out / "conquest-practice.png", args.scale)

    tally_blue = c.symbols["tally_blue"]         # its end: the tenth win decides
    c.m.iram[tally_blue] = 0x09
    c.m.iram[c.symbols["tally_red"]] = 0x07
    c.m.iram[c.symbols["energy_red"]:c.symbols["energy_red"] + 2] = [0, 1]
    c.run(120)
    c.save(out / "conquest-practice-end.png", args.scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
