"""Screenshots of the battle program's screens into docs/screens/ (for docs/conquest.md and
the README): program entry, each weapon pairing in battle, the result with fireworks, the
computer mode and a practice battle. Runs the built-in open BIOS and cartridge headless through the Machine API.

    python tools/conquest_screens.py [--out docs/screens] [--scale 2]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.images import builtin_image, builtin_symbols  # noqa: E402
from o2em_core import Machine, palette  # noqa: E402

WEAPON_KEYS = {"P": "plane", "S": "submarine", "T": "tank"}


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
        for name in names:
            self.m.press(name)
            self.run(2)
            self.m.release(name)
            self.run(2)

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

    c = Console()                                # red's energy runs out: blue wins
    c.keys("SPACE", "R", "T", "5", "B", "P", "2", "5", "0", "0", "ENTER")
    c.run(200)
    c.save(out / "conquest-result.png", args.scale)

    c = Console()
    c.keys("A")
    c.run(37)
    c.keys("SPACE")
    c.save(out / "conquest-computer.png", args.scale)

    c.keys("SPACE")                              # the practice session: tallies beside energies
    c.m.set_joystick(0, fire=True)
    c.run(60)
    c.save(out / "conquest-practice.png", args.scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
