"""A console with our battle program and our open BIOS, driven through the Machine API.

Every cartridge address comes from the cartridge's symbol file. A second, minimal BIOS
(roms_test/conquest/bios_stub.a48: only the entries bios.md §7.1 lists) shows that the
cartridge depends on nothing else."""
from __future__ import annotations

import json
import pathlib

import pytest

from cartridge.asm48 import assemble
from o2em_core import Machine
from o2em_core.keyboard import tap
from videopac.battle.published import decode

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB = ROOT / "roms_test" / "conquest" / "bios_stub.a48"
CART = ROOT / "cartridge" / "roms" / "conquest.bin"
SYMBOLS = json.loads(CART.with_suffix(".json").read_text())


def stub_bios() -> bytes:
    return assemble(STUB.read_text(), filename=str(STUB)).image(0, 0x3FF)


OPEN_BIOS = (ROOT / "cartridge" / "roms" / "bios.bin").read_bytes()
BIOS = OPEN_BIOS
UNIT = 16                                   # bytes per unit record
# glyph code -> character (docs/hardware.md §14), for reading text off the screen
GLYPHS = {**{n: str(n) for n in range(10)}, 0x0A: ":", 0x0D: "?", 0x28: "-", 0x2B: "=",
          0x30: "10", **{code: letter for letter, code in zip(
              "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
              (0x20, 0x25, 0x23, 0x1A, 0x12, 0x1B, 0x1C, 0x1D, 0x16, 0x1E, 0x1F, 0x0E, 0x26,
               0x2D, 0x17, 0x0F, 0x18, 0x13, 0x19, 0x14, 0x15, 0x24, 0x11, 0x22, 0x2C, 0x21))}}


class Game:
    """One console running the cartridge, with helpers named after the game."""

    def __init__(self, region: str = "pal", bios: bytes | None = None) -> None:
        self.m = Machine(bios or BIOS, CART.read_bytes(), region=region)
        self.s = SYMBOLS
        self.run(5)

    # ---- time and input
    def run(self, frames: int) -> None:
        for _ in range(frames):
            self.m.run_frame()

    def key(self, name: str) -> None:
        tap(self.m, name)

    def type(self, *keys: str) -> None:
        tap(self.m, *keys)

    def stick(self, n: int, **held: bool) -> None:
        self.m.set_joystick(n, **held)

    # ---- state
    @property
    def battle(self) -> dict:
        return decode(self.m.iram, self.s)

    def iram(self, name: str, offset: int = 0) -> int:
        return int(self.m.iram[self.s[name] + offset])

    def set_iram(self, name: str, value: int, offset: int = 0) -> None:
        self.m.iram[self.s[name] + offset] = value

    def unit(self, side: int, field: str) -> int:
        return int(self.m.xram[self.s["U_BASE"] + side * UNIT + self.s[field]])

    def set_unit(self, side: int, field: str, value: int) -> None:
        self.m.xram[self.s["U_BASE"] + side * UNIT + self.s[field]] = value & 0xFF

    def set_energy(self, side: int, value: int) -> None:
        addr = self.s["energy_blue" if side else "energy_red"]
        digits = f"{value:04d}"
        self.m.iram[addr] = int(digits[:2], 16)
        self.m.iram[addr + 1] = int(digits[2:], 16)

    # ---- flows
    def enter_program(self, red: str, red_energy: int, blue: str, blue_energy: int) -> None:
        """From SELECT GAME: SPACE, then both sides' programs (not ENTER)."""
        self.key("SPACE")
        self.run(3)
        self.type("R", red, *str(red_energy), "B", blue, *str(blue_energy))

    def start(self, red: str, blue: str, red_energy: int = 2500, blue_energy: int = 2500,
              variant: int | None = 0, last_hit: bool = True) -> None:
        """Enter both programs and press ENTER. The cartridge picks one of the two maps of the
        pair's terrain kind at random (the low bit of `mapid`); with `variant` 0 or 1 the key is
        pressed one frame later until that map comes up, None takes whichever comes. With
        `last_hit` both units start worn down to their last hit (see `wear`), so that a test of
        what a single hit does needs one; False starts them as the cartridge does."""
        self.enter_program(red, red_energy, blue, blue_energy)
        before = self.m.save_state()
        for _ in range(16):
            self.key("ENTER")
            self.run(3)
            if variant is None or self.iram("mapid") & 1 == variant:
                break
            self.m.load_state(before)
            self.run(1)
            before = self.m.save_state()
        assert self.battle["phase"] == "battle"
        assert variant is None or self.iram("mapid") & 1 == variant
        if last_hit:
            self.wear(0)
            self.wear(1)

    def hits(self, side: int) -> int:
        """Hits the side's unit has taken this battle (docs/conquest.md "Battles of manoeuvre")."""
        return int(self.m.xram[self.s["HIT_BLUE" if side else "HIT_RED"]]) & 7

    def shelter(self, side: int) -> int:
        """The side's shelter after a hit, in pairs of frames (0: hits count)."""
        return int(self.m.xram[self.s["HIT_BLUE" if side else "HIT_RED"]]) >> 3

    def wear(self, side: int, left: int = 1) -> None:
        """Wear the side's unit down until `left` hits destroy it (its weapon's ARMOUR_*)."""
        weapon = self.battle["weapon_blue" if side else "weapon_red"]
        armour = self.s[{"plane": "ARMOUR_PLANE", "submarine": "ARMOUR_SUB",
                         "tank": "ARMOUR_TANK"}[weapon]]
        self.m.xram[self.s["HIT_BLUE" if side else "HIT_RED"]] = armour - left

    def place(self, side: int, x: int, y: int, direction: int | None = None) -> None:
        self.set_unit(side, "U_X", x)
        self.set_unit(side, "U_Y", y)
        if direction is not None:
            self.set_unit(side, "U_DIR", direction)

    def text(self) -> list[str]:
        """The characters on screen, read back from the video chip's char and quad registers
        (docs/hardware.md §7.4, §7.5, §14) as lines of text from top to bottom; glyphs that are no
        letter, digit or sign are left out, a gap of a cell or more becomes a space."""
        regs = self.m.vdc_regs
        placed = []                                     # (Y, X, glyph)
        objects = [(0x10 + 4 * n, 0) for n in range(12)]
        objects += [(0x40 + 16 * q, j) for q in range(4) for j in range(4)]
        for base, j in objects:
            y, x = int(regs[base]), int(regs[base + 1])
            ptr = int(regs[base + 2 + 4 * j]) | (int(regs[base + 3 + 4 * j]) & 1) << 8
            if y >= 0xF0:
                continue
            glyph = ((ptr + y // 2) & 0x1FF) >> 3
            if glyph in GLYPHS:
                placed.append((y, x + 16 * j, GLYPHS[glyph]))
        lines = []
        for y in sorted({p[0] for p in placed}):
            row = sorted((x, c) for yy, x, c in placed if yy == y)
            line, last = "", None
            for x, c in row:
                if last is not None and x - last > 8:
                    line += " "
                line += c
                last = x
            lines.append(" ".join(line.split()))
        return [line for line in lines if line]

    def sound_on(self) -> bool:
        return bool(self.m.vdc_regs[0xAA] & 0x80)


@pytest.fixture
def game() -> Game:
    return Game()


@pytest.fixture(params=["pal", "ntsc"])
def any_region(request) -> str:
    return request.param
