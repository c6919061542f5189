"""The battle program's published state: the symbols of battle-program.md "What the program
publishes", located through the cartridge's symbol file and decoded from the machine's RAM.

This is the one decoder of those symbols (the ledger bridge and the headless runner's ``--dump``
``battle`` object both use it). Nothing here hard-codes an address: every location comes from
the symbol file that asm48 writes next to the ROM image (``conquest.bin`` -> ``conquest.json``).

Where a symbol lives: a published name written bare (``phase``) is an internal-RAM address
(0-63); written ``xram.NAME`` (defined inside ``section xram`` of the source) it is an
external-RAM address (0-127). The battle program today keeps them all in internal RAM
(cartridge/conquest/vars.inc).
"""
from __future__ import annotations

import dataclasses
import json
import pathlib
from typing import Any

# published name -> bytes it takes (energies and the reading: BCD, high byte first)
PUBLISHED: dict[str, int] = {
    "phase": 1, "weapon_red": 1, "weapon_blue": 1, "energy_red": 2, "energy_blue": 2,
    "battle_result": 1, "tally_red": 1, "tally_blue": 1, "counter_reading": 2,
}
PHASES = ("select", "entry", "battle", "result", "computer", "practice")
WEAPONS = (None, "P", "S", "T")                       # 0 none, 1 plane, 2 submarine, 3 tank
WEAPON_NAMES = {None: "none", "P": "plane", "S": "submarine", "T": "tank"}
RESULTS = ("running", "red", "blue", "both")          # 1 red won, 2 blue won, 3 both destroyed
SIDES = ("red", "blue")
RAM_SIZE = {"iram": 64, "xram": 128}                  # machine-api.md: m.iram, m.xram


class SymbolError(ValueError):
    """A symbol file that does not publish the battle program's state; one sentence."""


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The published state at the end of one frame, decoded."""
    phase: str                     # one of PHASES (or "unknown N")
    weapon: dict[str, str | None]  # side -> "P", "S", "T" or None
    energy: dict[str, int]         # side -> 0-9999
    result: str                    # one of RESULTS
    tally: dict[str, int]          # practice wins per side
    counter_reading: int           # computer mode (rule 2)

    def to_json(self) -> dict[str, Any]:
        """The ``battle`` object of ``videopac run --dump``: names and integers."""
        return {"phase": self.phase,
                "weapon_red": WEAPON_NAMES.get(self.weapon["red"], "unknown"),
                "weapon_blue": WEAPON_NAMES.get(self.weapon["blue"], "unknown"),
                "energy_red": self.energy["red"], "energy_blue": self.energy["blue"],
                "battle_result": self.result,
                "tally_red": self.tally["red"], "tally_blue": self.tally["blue"],
                "counter_reading": self.counter_reading}


def bcd(data: bytes | list[int]) -> int:
    """Packed BCD, high byte first, as an integer (a nibble above 9 counts as its value)."""
    value = 0
    for byte in data:
        value = value * 100 + (byte >> 4) * 10 + (byte & 15)
    return value


def _name(table: tuple, index: int) -> Any:
    return table[index] if index < len(table) else f"unknown {index}"


class Symbols:
    """Where each published name lives: (space, address), from a symbol table."""

    def __init__(self, table: dict[str, int], source: str = "symbol table"):
        self.where: dict[str, tuple[str, int]] = {}
        missing = []
        lower = {k.lower(): v for k, v in table.items() if isinstance(v, int)}  # asm48: case-insensitive
        for name, size in PUBLISHED.items():
            if name in lower:
                space, address = "iram", lower[name]
            elif f"xram.{name}" in lower:
                space, address = "xram", lower[f"xram.{name}"]
            else:
                missing.append(name)
                continue
            if not 0 <= address <= RAM_SIZE[space] - size:
                raise SymbolError(f"{source}: {name} = {address} is outside the "
                                  f"{'internal' if space == 'iram' else 'external'} RAM")
            self.where[name] = (space, address)
        if missing:
            raise SymbolError(f"{source} does not name the battle program's published symbols "
                              f"({', '.join(missing)}); it is not a symbol file of our battle program")

    @classmethod
    def load(cls, path: str | pathlib.Path) -> "Symbols":
        path = pathlib.Path(path)
        try:
            table = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SymbolError(f"cannot read the symbol file {path} ({getattr(exc, 'strerror', None) or exc})") from None
        if not isinstance(table, dict):
            raise SymbolError(f"{path} is not a symbol file (a JSON object of names and numbers)")
        return cls(table, str(path))

    def _bytes(self, machine, name: str) -> list[int]:
        space, address = self.where[name]
        ram = machine.iram if space == "iram" else machine.xram
        return [int(b) for b in ram[address:address + PUBLISHED[name]]]

    def read(self, machine) -> Snapshot:
        """Decode the published state from ``machine`` (anything with ``iram`` and ``xram``)."""
        one = {n: self._bytes(machine, n)[0] for n, size in PUBLISHED.items() if size == 1}
        two = {n: bcd(self._bytes(machine, n)) for n, size in PUBLISHED.items() if size == 2}
        return Snapshot(
            phase=_name(PHASES, one["phase"]),
            weapon={s: _name(WEAPONS, one[f"weapon_{s}"]) for s in SIDES},
            energy={s: two[f"energy_{s}"] for s in SIDES},
            result=_name(RESULTS, one["battle_result"]),
            tally={s: bcd([one[f"tally_{s}"]]) for s in SIDES},
            counter_reading=two["counter_reading"])


def symbol_file(cart: str | pathlib.Path | None) -> pathlib.Path | None:
    """The symbol file of a cartridge: ``CART.json`` next to ``CART.bin``, or the built-in
    battle program's when ``cart`` is None; None if there is none."""
    from cartridge.images import ROMS
    path = ROMS / "conquest.json" if cart is None else pathlib.Path(cart).with_suffix(".json")
    return path if path.exists() else None
