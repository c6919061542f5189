"""The register file is one table (state.REGISTERS): the names the compiled code indexes with,
what RESET does, which values a save state may hold, and the save state's layout all follow
from it."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np
import pytest

from o2em_core import Machine, StateError, savestate, state
from o2em_core.timing import PAL

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIOS = (ROOT / "cartridge/roms/bios.bin").read_bytes()
CART = (ROOT / "cartridge/roms/conquest.bin").read_bytes()


def test_each_row_is_the_global_named_after_it_and_holds_its_index() -> None:
    assert len(state.REGISTERS) == len(state.REG_NAMES) <= state.REGS_SIZE
    for i, row in enumerate(state.REGISTERS):
        assert getattr(state, row.name) == i and type(getattr(state, row.name)) is int


def test_type_checkers_see_every_register_name(tmp_path: pathlib.Path) -> None:
    """The names are plain assignments, not put into globals() at run time: mypy --strict
    passes on the table's modules and knows each name where it is imported, and only those."""
    probe = tmp_path / "probe.py"
    probe.write_text("from o2em_core.state import CART_HIGH, PSW, TICK\n"
                     "from o2em_core.state import NO_SUCH_REGISTER\n")
    res = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--cache-dir=/dev/null", "o2em_core/state.py", "o2em_core/savestate.py",
                          str(probe)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    errors = [line for line in res.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith(str(probe)), res.stdout + res.stderr
    assert "NO_SUCH_REGISTER" in errors[0]


def test_reset_does_what_the_reset_column_says() -> None:
    """docs/hardware.md §2.10: PC, SP, BS, F0, F1, MB, interrupts, timer mode and ports are
    reset; A, T, CY, AC and everything outside the CPU keep their values."""
    r = np.arange(100, 100 + state.REGS_SIZE, dtype=np.int64)
    r[state.PSW] = 0xFF
    before = r.copy()
    state.reset_cpu(r)
    assert r[state.PC] == 0 and r[state.PSW] == 0xC8          # CY, AC kept; bit 3 reads 1
    for reg in (state.F1, state.MB, state.TF, state.TMODE, state.IEN_I, state.IEN_T,
                state.TIMER_REQ, state.IN_IRQ):
        assert r[reg] == 0, state.REG_NAMES[reg]
    assert r[state.P1] == r[state.P2] == r[state.BUS] == 0xFF
    changed = {state.REG_NAMES[i] for i in np.flatnonzero(r != before)}
    assert changed == {"PC", "PSW", "F1", "MB", "TF", "TMODE", "IEN_I", "IEN_T",
                       "TIMER_REQ", "IN_IRQ", "P1", "P2", "BUS"}


def fresh() -> np.ndarray:
    return state.new_regs(PAL, 8192, (2048, 1, 0))


@pytest.mark.parametrize("row", state.REGISTERS, ids=state.REG_NAMES)
def test_a_state_is_checked_against_every_row(row: state.Register) -> None:
    reg = state.REG_NAMES.index(row.name)
    r = fresh()
    assert state.check(r, fresh()) is None
    if isinstance(row.legal, tuple):
        low, high = row.legal
        for value in (low - 1, high + 1):
            r[reg] = value
            assert state.check(r, fresh()) == \
                f"{row.name} is {value}, outside {low} to {high}"
    elif row.legal in (state.FIXED, state.BOARD):
        r[reg] += 1
        assert state.check(r, fresh()) == f"{row.name} is {r[reg]}, this machine has {r[reg] - 1}"
    else:
        assert row.legal == state.TIMED
        r[reg] = 1 << 61
        assert state.check(r, fresh()) is not None


def test_a_renamed_layout_loads_only_while_it_is_todays(monkeypatch) -> None:
    """An entry of savestate.SAME_BYTES makes states of an earlier fingerprint load, as long as
    it is keyed by today's; when the layout changes again, such states are refused."""
    m = Machine(BIOS, CART)
    m.run_frame()
    saved = m.save_state()
    renamed = bytearray(saved)
    renamed[12:16] = (0x0BADF00D).to_bytes(4, "little")
    ours = savestate.layout_fingerprint()
    with pytest.raises(StateError, match="older version"):
        Machine(BIOS, CART).load_state(bytes(renamed))
    monkeypatch.setattr(savestate, "SAME_BYTES", {ours: (0x0BADF00D,)})
    other = Machine(BIOS, CART)
    other.load_state(bytes(renamed))
    assert other.save_state() == saved
    monkeypatch.setattr(savestate, "SAME_BYTES", {ours ^ 1: (0x0BADF00D,)})
    with pytest.raises(StateError, match="older version"):
        Machine(BIOS, CART).load_state(bytes(renamed))


def test_the_layout_fingerprint_follows_the_register_table(monkeypatch) -> None:
    before = savestate.layout_fingerprint()
    monkeypatch.setattr(state, "REGISTERS",
                        state.REGISTERS + (state.Register("NEW", state.FLAG, None, "new"),))
    assert savestate.layout_fingerprint() != before


def test_the_sections_are_the_machines_arrays_in_order() -> None:
    m = Machine(BIOS, CART)
    m.run_frame()
    got = savestate.read(m.save_state()).sections
    assert list(got) == [s.name for s in savestate.SECTIONS]
    for section in savestate.SECTIONS:
        live = m._sections()[section.name]
        assert (live.dtype, live.shape, live.nbytes) == \
            (np.dtype(section.dtype), section.shape, section.nbytes)
        assert (got[section.name] == live).all()
