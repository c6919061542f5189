"""The bridge reads the battle program through videopac/battle/published.py (the one decoder of the
published symbols) and puts its answer in the ledger's terms."""
import json

from tests.table.fake_conquest import PHASE, RESULT, WEAPON, FakeConquest, symbol_table
from videopac.battle.published import symbols_for
from videopac.table.bridge import read


def test_snapshot_in_the_ledgers_terms():
    fake = FakeConquest()
    fake.put("phase", PHASE["battle"])
    fake.put("weapon_red", WEAPON["T"])      # the fake's own codes, read from its symbol file
    fake.put("weapon_blue", WEAPON["P"])
    fake.put("energy_red", 1355)
    fake.put("energy_blue", 907)
    fake.put("counter_reading", 1283)
    fake.put("battle_result", RESULT["running"])
    snap = read(fake, symbol_table())
    assert (snap.phase, snap.weapon, snap.energy) == ("battle", {"red": "T", "blue": "P"},
                                                      {"red": 1355, "blue": 907})
    assert snap.counter_reading == 1283 and snap.result == "running"
    for side in ("red", "blue", "both"):
        fake.put("battle_result", RESULT[side])
        assert read(fake, symbol_table()).result == side


def test_not_the_battle_programs_symbols():
    table = symbol_table()
    del table["phase"]
    assert read(FakeConquest(), table) is None


def test_symbol_file_sits_next_to_the_cartridge(tmp_path):
    cart = tmp_path / "game.bin"
    cart.write_bytes(bytes(2048))
    assert symbols_for(cart) is None
    (tmp_path / "game.json").write_text(json.dumps(symbol_table()))
    assert symbols_for(cart) == symbol_table()
    assert symbols_for(None)["phase"] < 64                  # the built-in battle program's


def test_play_ledger_needs_the_battle_programs_symbols(tmp_path):
    import pytest

    from videopac.table.wiring import CannotOpenTable, open_table
    cart = tmp_path / "other.bin"
    cart.write_bytes(bytes(2048))
    with pytest.raises(CannotOpenTable, match="has no symbol file"):
        open_table(str(tmp_path / "g.sqlite"), str(cart))
    (tmp_path / "other.json").write_text(json.dumps({"start": 1024}))
    with pytest.raises(CannotOpenTable, match="does not publish the battle program's symbols"):
        open_table(str(tmp_path / "g.sqlite"), str(cart))
    (tmp_path / "other.json").write_text("{broken")
    with pytest.raises(CannotOpenTable, match="not a readable symbol file"):
        open_table(str(tmp_path / "g.sqlite"), str(cart))
    table = open_table(str(tmp_path / "g.sqlite"), None)      # the built-in battle program
    assert table.game.events == [] and table.bridge.contest is None
    table.close()
