"""The state of the battle program, read from the machine's RAM through the cartridge's
symbol table: the published symbols of docs/battle-program.md (encodings in docs/conquest.md
and cartridge/conquest/vars.inc). Nothing here knows an address."""
from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING, TypedDict

from cartridge import symbols as symbol_files
from cartridge.images import builtin_symbols
from i18n import _
from videopac import UsageError

if TYPE_CHECKING:
    import numpy as np

# the names of the dump (docs/emulator.md) for the program's codes, which its symbol file
# publishes (cartridge/conquest/vars.inc): the codes are read there, never restated here
PHASES = {"select": "PH_SELECT", "entry": "PH_ENTRY", "battle": "PH_BATTLE",
          "result": "PH_RESULT", "computer": "PH_COMPUTER", "practice": "PH_PRACTICE"}
WEAPONS = {"none": "W_NONE", "plane": "W_PLANE", "submarine": "W_SUB", "tank": "W_TANK"}
RESULTS = {"running": "RES_RUNNING", "red won": "RES_RED_WON", "blue won": "RES_BLUE_WON",
           "both destroyed": "RES_BOTH"}                        # battle_result
PUBLISHED = ("phase", "weapon_red", "weapon_blue", "energy_red", "energy_blue",
             "battle_result", "tally_red", "tally_blue", "counter_reading")


class SymbolFileError(UsageError, ValueError):
    """A symbol file that cannot be read as a JSON object of names to numbers."""


def load_symbols(path: pathlib.Path) -> dict[str, int]:
    """The symbol table in ``path`` (cartridge/symbols.py reads it); SymbolFileError in one
    sentence if it cannot be used."""
    try:
        return symbol_files.load_symbols(path)
    except symbol_files.NotASymbolTable:
        raise SymbolFileError(_("{path} is not a symbol table (a JSON object of numbers)").format(
            path=path)) from None
    except (OSError, ValueError):
        raise SymbolFileError(_("{path} is not a readable symbol file").format(path=path)) from None


def bcd(*digits: int) -> int:
    """The value of BCD bytes, high byte first (a non-decimal nibble counts as its value)."""
    value = 0
    for byte in digits:
        value = value * 100 + (byte >> 4) * 10 + (byte & 0x0F)
    return value


def symbol_value(symbols: dict[str, int], name: str) -> int | None:
    """A constant of the symbol file, also when the assembler filed it under a bank
    (``bank3.TANK_RANGE``); None when it is not there."""
    if name in symbols:
        return symbols[name]
    return next((v for k, v in symbols.items() if k.endswith("." + name)), None)


def codes(symbols: dict[str, int], names: dict[str, str]) -> dict[int, str] | None:
    """code -> name for a table of names to the symbols that hold their codes (``WEAPONS``,
    ``PHASES``, ``RESULTS``); None when the symbol file lacks one of them."""
    found = {name: symbol_value(symbols, symbol) for name, symbol in names.items()}
    return None if None in found.values() else {code: name for name, code in found.items()
                                                  if code is not None}


def _name(names: dict[int, str], value: int) -> str:
    return names.get(value, f"unknown {value}")


class Battle(TypedDict):
    """The ``battle`` object of ``videopac run --dump``: the published symbols, decoded."""
    phase: str
    weapon_red: str
    weapon_blue: str
    energy_red: int
    energy_blue: int
    battle_result: str
    tally_red: int
    tally_blue: int
    counter_reading: int


def decode(iram: np.ndarray | bytes, symbols: dict[str, int]) -> Battle | None:
    """The ``battle`` object of ``videopac run --dump``, or None when the symbol table does
    not publish the battle program's symbols (another cartridge)."""
    if not all(name in symbols and 0 <= symbols[name] < len(iram) - 1 for name in PUBLISHED):
        return None
    phases, weapons, results = codes(symbols, PHASES), codes(symbols, WEAPONS), codes(symbols, RESULTS)
    if phases is None or weapons is None or results is None:
        return None

    def byte(name: str, offset: int = 0) -> int:
        return int(iram[symbols[name] + offset])

    return {
        "phase": _name(phases, byte("phase")),
        "weapon_red": _name(weapons, byte("weapon_red")),
        "weapon_blue": _name(weapons, byte("weapon_blue")),
        "energy_red": bcd(byte("energy_red"), byte("energy_red", 1)),
        "energy_blue": bcd(byte("energy_blue"), byte("energy_blue", 1)),
        "battle_result": _name(results, byte("battle_result")),
        "tally_red": bcd(byte("tally_red")),
        "tally_blue": bcd(byte("tally_blue")),
        "counter_reading": bcd(byte("counter_reading"), byte("counter_reading", 1)),
    }


def symbols_for(cart: str | pathlib.Path | None) -> dict[str, int] | None:
    """The symbol table of a cartridge: ``CART.json`` next to ``CART.bin``, or the built-in
    battle program's when ``cart`` is None; None if there is none (SymbolFileError if unreadable)."""
    if cart is None:
        return builtin_symbols("conquest")
    path = pathlib.Path(cart).with_suffix(".json")
    return load_symbols(path) if path.exists() else None
