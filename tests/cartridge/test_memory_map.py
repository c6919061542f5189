"""The battle cartridge's memory map (cartridge/conquest/memory.toml, docs/conquest.md "The
cartridge"): the shipped includes, image and map report follow from it, and the build refuses a
RAM overlap, an overfull area, a bank that overflows and a bank call its data bank lacks."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tools import build_roms, memory_map

ROOT = Path(__file__).resolve().parents[2]
TOML = ROOT / "cartridge" / "conquest" / "memory.toml"


def _edit(old: str, new: str) -> str:
    text = TOML.read_text()
    assert old in text
    return text.replace(old, new, 1)


def test_shipped_includes_image_and_map_follow_from_memory_toml():
    assert build_roms.main(["--check", "conquest"]) == 0
    mem = memory_map.load(TOML)
    symbols = json.loads((ROOT / "cartridge" / "roms" / "conquest.json").read_text())
    for slot in mem.iram + mem.xram + mem.record:     # the assembler used the map's addresses
        assert symbols[slot.name] == slot.address, slot.name
    # every bank of the report carries its free bytes, and they add up with the used ones
    report = (ROOT / "cartridge" / "roms" / "conquest.map").read_text()
    rows = re.findall(r"^\s+(\d)\s+\S+\.a48\s+(\d+)\s+(\d+)", report, re.M)
    assert [int(n) for n, _, _ in rows] == [0, 1, 2, 3]
    assert all(int(used) + int(free) == 2048 for _, used, free in rows)


def test_the_published_symbols_keep_their_addresses():
    mem = memory_map.load(TOML)
    at = {s.name: s.address for s in mem.iram}
    assert (at["phase"], at["weapon_red"], at["weapon_blue"], at["energy_red"],
            at["energy_blue"], at["battle_result"], at["tally_red"], at["tally_blue"],
            at["counter_reading"]) == (0x22, 0x23, 0x24, 0x25, 0x27, 0x29, 0x2A, 0x2B, 0x2C)


@pytest.mark.parametrize("old, new, words", [
    # a fixed address on top of another variable
    ('{ name = "region", size = 1,', '{ name = "region", size = 1, at = 0x22,', "overlaps phase"),
    # one byte more than internal RAM 20-3C holds
    ('{ name = "tmp2", size = 1,', '{ name = "tmp2", size = 2,', "the area is full"),
    # an external RAM area beyond 7F
    ('{ name = "MQ_FEAT", size = 16,', '{ name = "MQ_FEAT", size = 17,', "the area is full"),
    # a shared byte outside the entry it claims to share
    ('at = 0x03, shares = "SH_SPRITE"', 'at = 0x10, shares = "SH_SPRITE"', "lies outside"),
    # two fields of the unit record at one offset
    ('{ name = "U_TURN", note', '{ name = "U_TURN", at = 3, note', "overlaps U_ACC"),
])
def test_an_overlap_or_an_overfull_area_stops_the_build(old, new, words):
    with pytest.raises(memory_map.MapError, match=words):
        memory_map.parse(_edit(old, new))


def _copy_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "conquest"
    shutil.copytree(ROOT / "cartridge" / "conquest", src)
    monkeypatch.setattr(build_roms, "CONQUEST", src)
    monkeypatch.setattr(build_roms, "ROOT", tmp_path)
    monkeypatch.setattr(build_roms, "IMAGES", {"conquest": tuple(
        (p, str(src / Path(s).name), a, b) for p, s, a, b in build_roms.IMAGES["conquest"])})
    return src


def test_a_bank_that_overflows_stops_the_build(tmp_path, monkeypatch):
    src = _copy_sources(tmp_path, monkeypatch)
    battle = src / "battle.a48"
    battle.write_text(battle.read_text() + "\n        ds      300h\n        db      1\n")
    with pytest.raises(build_roms.BuildError, match="the bank overflows|beyond"):
        build_roms.build("conquest")


def test_a_bank_call_its_data_bank_lacks_stops_the_build(tmp_path, monkeypatch):
    src = _copy_sources(tmp_path, monkeypatch)
    mem = memory_map.parse(_edit('routine = "terrain"\narg = false\nbanks = [2]',
                                 'routine = "terrain"\narg = false\nbanks = [0]'))
    (src / "memory.inc").write_text(memory_map.memory_inc(mem))
    with pytest.raises(build_roms.BuildError, match="bank 2 does not hold this bank call"):
        build_roms.build("conquest")


def test_each_data_bank_dispatches_exactly_its_calls():
    mem = memory_map.load(TOML)
    for bank in (0, 2):
        text = memory_map.dispatch_inc(mem, bank)
        table = re.search(r"xb_table:\n((?:\s+db .*\n)+)", text)
        assert table is not None
        entries = re.findall(r"lo\((\w+)\)", table.group(1))
        assert entries == [f"xb_{c.routine}" if bank in c.banks else "xb_none" for c in mem.calls]
