"""The machine state's layouts are tables written with o2em_core/layout.py: the parts of ``mem``,
the register file, the sound state and the compositor's scratch. Each name is a plain global
holding the position its table gives it, the sound state is checked row by row like the register
file, and the save state's layout fingerprint is computed from the tables and nothing else."""
from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
from typing import NamedTuple

import numpy as np
import pytest

from o2em_core import raster, savestate, sound, state
from o2em_core.layout import Table
from o2em_core.timing import NTSC, PAL, POWER_ON_LINE

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Row(NamedTuple):
    name: str
    width: int


def rows(*pairs: tuple[str, int]) -> Table[Row]:
    table: Table[Row] = Table("demo.ROWS", width=lambda row: row.width)
    for name, width in pairs:
        table.add(Row(name, width))
    return table


def test_a_rows_position_is_the_widths_of_the_rows_above_it() -> None:
    table: Table[Row] = Table("demo.ROWS", width=lambda row: row.width)
    assert [table.add(Row("A", 3)), table.add(Row("", 2)), table.add(Row("B", 1))] == [0, 3, 5]
    assert table.size == 6
    assert table.done({"A": 0, "B": 5}) == (Row("A", 3), Row("", 2), Row("B", 1))


@pytest.mark.parametrize("module", [{"A": 0, "B": 4}, {"A": 0}, {"A": 0, "B": "5"}])
def test_a_global_that_is_not_its_rows_position_stops_the_import(module) -> None:
    with pytest.raises(ImportError, match=r"demo.ROWS: the row B is not its global \['B'\]"):
        rows(("A", 3), ("", 2), ("B", 1)).done(module)


def test_a_name_given_to_two_rows_stops_the_import() -> None:
    with pytest.raises(ImportError, match="used twice"):
        rows(("A", 1), ("A", 1)).done({"A": 0})


def test_a_table_may_say_which_globals_a_row_has() -> None:
    table = rows(("X", 2), ("Y", 3))
    both = {"X_OFF": 0, "X_SIZE": 2, "Y_OFF": 2, "Y_SIZE": 3}
    table.done(both, lambda row, at: {row.name + "_OFF": at, row.name + "_SIZE": row.width})
    with pytest.raises(ImportError, match="Y_SIZE"):
        table.done({**both, "Y_SIZE": 4},
                   lambda row, at: {row.name + "_OFF": at, row.name + "_SIZE": row.width})


@pytest.mark.parametrize("module, table", [(state, "REGISTERS"), (sound, "SOUND_STATE")])
def test_each_entry_is_the_plain_global_named_after_it_and_holds_its_index(module,
                                                                           table) -> None:
    for i, row in enumerate(getattr(module, table)):
        assert getattr(module, row.name) == i and type(getattr(module, row.name)) is int
    assert len(sound.SOUND_STATE) <= sound.SND_SIZE


def test_the_parts_of_mem_lie_one_after_the_other_and_fill_it() -> None:
    at = 0
    for part in state.MEM_PARTS:
        assert (getattr(state, part.name + "_OFF"), getattr(state, part.name + "_SIZE")) == \
            (at, part.size)
        at += part.size
    assert at == state.MEM_SIZE


@pytest.mark.parametrize("path, row, renamed, name", [
    ("state.py", 'T1_PREV        = _reg("T1_PREV",', 'T1_LAST = _reg("T1_PREV",', "T1_PREV"),
    ("state.py", 'JOY_OFF,   JOY_SIZE   = _part("JOY",', 'JOY_OFF, JOY_LEN = _part("JOY",',
     "JOY_SIZE"),
    ("sound.py", 'SND_PHASE      = _value("SND_PHASE",', 'SND_FEAST = _value("SND_PHASE",',
     "SND_PHASE"),
    ("raster.py", '_LINE         = _field("_LINE",', '_ROW = _field("_LINE",', "_LINE"),
])
def test_a_row_assigned_to_another_name_stops_the_import(path, row, renamed, name) -> None:
    source = (ROOT / "o2em_core" / path).read_text(encoding="utf-8")
    assert row in source
    spec = importlib.util.spec_from_loader("o2em_core.renamed", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "o2em_core"
    with pytest.raises(ImportError, match=name):
        exec(compile(source.replace(row, renamed), path, "exec"), module.__dict__)


def test_type_checkers_see_the_sound_and_mem_names(tmp_path: pathlib.Path) -> None:
    """The names are plain assignments: mypy knows each where it is imported, and only those."""
    probe = tmp_path / "probe.py"
    probe.write_text("from o2em_core.sound import SND_PHASE, SND_IDLE, SOUND_STATE\n"
                     "from o2em_core.state import SPARE_OFF, JOY_SIZE, MEM_PARTS\n"
                     "from o2em_core.sound import SND_NO_SUCH_VALUE\n")
    res = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--cache-dir=/dev/null", "o2em_core/layout.py", str(probe)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    errors = [line for line in res.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith(str(probe)), res.stdout + res.stderr
    assert "SND_NO_SUCH_VALUE" in errors[0]


# ---- the sound state, checked against its table ----------------------------------------------

def fresh_sound(region=PAL, rate: int = 44100) -> np.ndarray:
    """A sound state as Machine makes it (machine._new_sound)."""
    return sound.new_state(rate, region.ticks_per_line, region.tick_hz,
                           idle_lines=region.lines - POWER_ON_LINE)


@pytest.mark.parametrize("region", [PAL, NTSC], ids=["pal", "ntsc"])
@pytest.mark.parametrize("row", sound.SOUND_STATE, ids=[r.name for r in sound.SOUND_STATE])
def test_a_sound_state_is_checked_against_every_row(row: sound.Value, region) -> None:
    i = sound.SOUND_STATE.index(row)
    assert sound.check_state(fresh_sound(region), fresh_sound(region)) is None
    if isinstance(row.legal, str):
        assert row.legal == state.FIXED
        s = fresh_sound(region)
        s[i] += 1
        expected = ("its sound was made at 44101 Hz, this machine plays at 44100 Hz"
                    if i == sound.SND_RATE else "its sound timing is not this machine's")
        assert sound.check_state(s, fresh_sound(region)) == expected
        return
    low, high = row.legal(fresh_sound(region).tolist()) if callable(row.legal) else row.legal
    for value in (low, high):
        s = fresh_sound(region)
        s[i] = value
        assert sound.check_state(s, fresh_sound(region)) is None, value
    for value in (low - 1, high + 1):
        s = fresh_sound(region)
        s[i] = value
        assert sound.check_state(s, fresh_sound(region)) == \
            f"the sound value {row.name} is {value}, outside {low} to {high}"


def test_the_sound_states_ranges_are_the_ones_the_loop_relies_on() -> None:
    """The rows whose range depends on the machine: the resampler's phase and sum stay within
    one host sample (ticks per second), the idle count below its power-on value."""
    f = fresh_sound().tolist()
    hz, idle = f[sound.SND_TICK_HZ], f[sound.SND_IDLE]
    ranges = {row.name: row.legal(f) for row in sound.SOUND_STATE if callable(row.legal)}
    assert ranges == {"SND_PHASE": (0, hz - 1), "SND_ACC": (0, sound.FULL_SCALE * hz),
                      "SND_IDLE": (0, idle)}
    assert idle == PAL.lines - POWER_ON_LINE > 0


def test_the_unused_sound_entries_must_be_zero() -> None:
    s = fresh_sound()
    s[len(sound.SOUND_STATE)] = 1
    assert sound.check_state(s, fresh_sound()) == "the unused sound values are not zero"


def test_the_spare_bytes_of_mem_must_be_zero() -> None:
    mem = np.zeros(state.MEM_SIZE, np.uint8)
    assert state.check_mem(mem) is None
    mem[state.SPARE_OFF + state.SPARE_SIZE - 1] = 1
    assert state.check_mem(mem) == "the unused memory is not zero"


# ---- the layout fingerprint comes from the tables -------------------------------------------

def _grown(table: tuple, i: int, **change) -> tuple:
    rows = list(table)
    rows[i] = rows[i]._replace(**change)
    return tuple(rows)


CHANGES = {
    "a register added": (state, "REGISTERS", lambda t: t + (state.Register("NEW", state.FLAG,
                                                                         None, "new"),)),
    "two registers swapped": (state, "REGISTERS", lambda t: (t[1], t[0]) + t[2:]),
    "a part of mem resized": (state, "MEM_PARTS", lambda t: _grown(t, 3, size=9)),
    "a part of mem renamed": (state, "MEM_PARTS", lambda t: _grown(t, 4, name="STICKS")),
    "a sound entry added": (sound, "SOUND_STATE", lambda t: t + (sound.Value("NEW", (0, 1),
                                                                             "new"),)),
    "a scratch field of 2 bytes as 2 of 1": (raster, "SCRATCH_FIELDS",
                                             lambda t: _grown(t, 10, count=2, size=1)),
    "the scratch moved": (raster, "SCRATCH_AT", lambda at: at + 8),
    "a line kind's code": (raster, "KIND_OBJECTS", lambda v: 128),
    "a beam event's code": (state, "EV_VBLANK", lambda v: 2),
    "a fixed point": (sound, "DC_SHIFT", lambda v: v + 1),
    "a section's shape": (savestate, "SECTIONS",
                          lambda t: (t[0]._replace(shape=(65,)),) + t[1:]),
}


@pytest.mark.parametrize("change", CHANGES)
def test_the_fingerprint_follows_every_table_of_the_layout(monkeypatch, change) -> None:
    before = savestate.layout_fingerprint()
    module, name, changed = CHANGES[change]
    monkeypatch.setattr(module, name, changed(getattr(module, name)))
    assert savestate.layout_fingerprint() != before


def test_the_fingerprint_ignores_what_gives_no_byte_a_meaning(monkeypatch) -> None:
    """A new private constant of the compositor, a reworded meaning or a stricter range keep
    every state readable."""
    before = savestate.layout_fingerprint()
    monkeypatch.setattr(raster, "_SOMETHING_NEW", 7, raising=False)
    monkeypatch.setattr(state, "CART_BANK_SIZE_LIMIT", 4096, raising=False)
    monkeypatch.setattr(sound, "SND_NEW_GUESS", 3, raising=False)
    monkeypatch.setattr(state, "REGISTERS", _grown(state.REGISTERS, 7, legal=(0, 1),
                                                   meaning="reworded"))
    monkeypatch.setattr(sound, "SOUND_STATE", _grown(sound.SOUND_STATE, 0, legal=(0, 15),
                                                     meaning="reworded"))
    monkeypatch.setattr(raster, "SCRATCH_FIELDS", _grown(raster.SCRATCH_FIELDS, 0,
                                                         meaning="reworded"))
    monkeypatch.setattr(state, "MEM_PARTS", _grown(state.MEM_PARTS, 0, meaning="reworded"))
    assert savestate.layout_fingerprint() == before


def test_states_of_the_fingerprint_before_the_tables_load_as_todays() -> None:
    """main wrote 0x64B56BAA until the fingerprint came from the tables alone, and the bytes
    did not change (tests/vdc/test_state_midframe.py loads such states)."""
    assert {0x64B56BAA, 0x121F8E41} <= set(savestate.readable_layouts())
