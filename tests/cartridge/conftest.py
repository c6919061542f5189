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
from videopac.battle import decode

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUB = ROOT / "roms_test" / "conquest" / "bios_stub.a48"
CART = ROOT / "cartridge" / "roms" / "conquest.bin"
SYMBOLS = json.loads(CART.with_suffix(".json").read_text())


def stub_bios() -> bytes:
    return assemble(STUB.read_text(), filename=str(STUB)).image(0, 0x3FF)


OPEN_BIOS = (ROOT / "cartridge" / "roms" / "bios.bin").read_bytes()
BIOS = OPEN_BIOS
UNIT = 16                                   # bytes per unit record


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
        self.m.press(name)
        self.run(2)
        self.m.release(name)
        self.run(2)

    def type(self, *keys: str) -> None:
        for k in keys:
            self.key(k)

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
              variant: int | None = 0) -> None:
        """Enter both programs and press ENTER. The cartridge picks one of the two maps of the
        pair's terrain kind at random (the low bit of `mapid`); with `variant` 0 or 1 the key is
        pressed one frame later until that map comes up, None takes whichever comes."""
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

    def place(self, side: int, x: int, y: int, direction: int | None = None) -> None:
        self.set_unit(side, "U_X", x)
        self.set_unit(side, "U_Y", y)
        if direction is not None:
            self.set_unit(side, "U_DIR", direction)

    def sound_on(self) -> bool:
        return bool(self.m.vdc_regs[0xAA] & 0x80)


@pytest.fixture
def game() -> Game:
    return Game()


@pytest.fixture(params=["pal", "ntsc"])
def any_region(request) -> str:
    return request.param
