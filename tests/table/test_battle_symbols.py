"""videopac/battle.py: the published symbols found by name and decoded (battle-program.md)."""
import json

import pytest

from tests.table.fake_conquest import FakeConquest, symbol_table
from videopac.battle import Symbols, SymbolError, bcd, symbol_file


def test_bcd_high_byte_first():
    assert bcd([0x25, 0x00]) == 2500
    assert bcd([0x01, 0x55]) == 155
    assert bcd([0x99, 0x99]) == 9999


def test_decodes_internal_and_external_ram_by_name():
    fake = FakeConquest()
    symbols = Symbols(symbol_table())
    assert symbols.where["energy_red"] == ("xram", 0x40)   # written xram.energy_red
    assert symbols.where["phase"] == ("iram", 0x30)
    fake.put("phase", 2)
    fake.put("weapon_red", 3)
    fake.put("weapon_blue", 1)
    fake.put("energy_red", 1355)
    fake.put("energy_blue", 907)
    fake.put("counter_reading", 1283)
    fake.put("tally_blue", 0x10)                           # BCD 10: practice won
    snap = symbols.read(fake)
    assert (snap.phase, snap.weapon, snap.energy) == ("battle", {"red": "T", "blue": "P"},
                                                      {"red": 1355, "blue": 907})
    assert snap.counter_reading == 1283 and snap.tally == {"red": 0, "blue": 10}
    assert snap.to_json() == {"phase": "battle", "weapon_red": "tank", "weapon_blue": "plane",
                              "energy_red": 1355, "energy_blue": 907, "battle_result": "running",
                              "tally_red": 0, "tally_blue": 10, "counter_reading": 1283}
    fake.put("battle_result", 3)
    fake.put("phase", 9)
    snap = symbols.read(fake)
    assert snap.result == "both" and snap.phase == "unknown 9"


def test_a_symbol_file_without_the_published_names_is_refused(tmp_path):
    table = symbol_table()
    del table["phase"], table["xram.energy_blue"]
    with pytest.raises(SymbolError, match="phase, energy_blue"):
        Symbols(table)
    with pytest.raises(SymbolError, match="outside the internal RAM"):
        Symbols({**symbol_table(), "tally_red": 64})
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]")
    with pytest.raises(SymbolError, match="not a symbol file"):
        Symbols.load(bad)
    with pytest.raises(SymbolError, match="cannot read"):
        Symbols.load(tmp_path / "missing.json")


def test_symbol_file_sits_next_to_the_cartridge(tmp_path):
    cart = tmp_path / "game.bin"
    cart.write_bytes(bytes(2048))
    assert symbol_file(cart) is None
    (tmp_path / "game.json").write_text(json.dumps(symbol_table()))
    assert symbol_file(cart) == tmp_path / "game.json"
    assert Symbols.load(symbol_file(cart)).where["phase"] == ("iram", 0x30)
