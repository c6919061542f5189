"""The Machine API (docs/machine-api.md): construction and its errors, time base, input,
save states, the character ROM, the opcode table, and the JIT-free fallback."""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import zlib

import numpy as np
import pytest

from o2em_core import (Machine, StateError, charset, cpu, keyboard, machine, timing,
                       vdc)

from .programs import ROOT, images, run


def test_charset_is_the_real_rom() -> None:
    data = charset.load()
    assert len(data) == 512
    assert zlib.crc32(data) == 0xB46A3F31


def test_opcode_table_decodes_every_opcode() -> None:
    cycles, operation, mode = cpu.load_opcodes()
    assert set(cycles.tolist()) == {1, 2}
    illegal = [op for op in range(256) if cpu.OPERATIONS[operation[op]] == "ILLEGAL"]
    assert len(illegal) == 26 and all(cycles[op] == 1 for op in illegal)
    assert cpu.OPERATIONS[operation[0xE8]] == "DJNZ x,addr" and mode[0xE8] == cpu.MODE_REG
    assert cpu.OPERATIONS[operation[0xF0]] == "MOV A,x" and mode[0xF0] == cpu.MODE_IND
    assert cpu.OPERATIONS[operation[0xF2]] == "JBb addr"
    assert cpu.OPERATIONS[operation[0x80]] == "MOVX A,x" and mode[0x80] == cpu.MODE_REG
    assert cpu.OPERATIONS[operation[0x23]] == "MOV A,x" and mode[0x23] == cpu.MODE_IMM


def test_names_match_their_tables() -> None:
    assert cpu.op_name("MOV x,#data") == "OP_MOV_X_IMM" and cpu.OP_MOV_X_IMM == 4
    assert cpu.op_name("JBb addr") == "OP_JBB_ADDR"
    for i, mnemonic in enumerate(cpu.OPERATIONS):
        assert getattr(cpu, cpu.op_name(mnemonic)) == i, mnemonic
    # the assignments a reader and mypy see name the operations' globals, in their order
    source = pathlib.Path(cpu.__file__).read_text()
    declared = re.findall(r"^(OP_\w+) = _op\(", source, re.MULTILINE)
    assert declared == [cpu.op_name(m) for m in cpu.OPERATIONS]


def test_the_hot_loop_handles_every_operation_by_its_generated_name() -> None:
    # every OP_ name in cpu.py is one of OPERATIONS, and every operation but the no-ops
    # has its branch in ``run`` (the map at its top lists them in this order)
    source = pathlib.Path(cpu.__file__).read_text(encoding="utf-8")
    names = [cpu.op_name(m) for m in cpu.OPERATIONS]
    assert set(re.findall(r"\bOP_[A-Z0-9_]+", source)) <= set(names)
    run = source[source.index("def run("):]
    branches = set(re.findall(r"\bk [=<>]= (OP_[A-Z0-9_]+)", run))
    between = {n for lo, hi in re.findall(r"k >= (OP_\w+) and k <= (OP_\w+)", run)
               for n in names[names.index(lo):names.index(hi) + 1]}
    assert set(names) - branches - between == {"OP_ILLEGAL", "OP_NOP", "OP_ENT0_CLK"}


@pytest.mark.parametrize("bios, cart, region, message", [
    (bytes(1000), None, "pal", "the BIOS image is 1000 bytes; it must be 1024 bytes"),
    (bytes(1024), bytes(3000), "pal", "the cartridge image is 3000 bytes; it must be 2048, "
                                       "3072, 4096, 6144, 8192 or 12288 bytes"),
    (bytes(1024), None, "secam", "unknown region 'secam'; it must be 'pal' or 'ntsc'"),
])
def test_bad_configuration_is_one_sentence(bios, cart, region, message) -> None:
    with pytest.raises(ValueError) as err:
        Machine(bios, cart, region)
    assert str(err.value) == message


def test_no_bios_slides_into_the_cartridge() -> None:
    # an empty internal ROM reads FFh (MOV A,R7): the PC runs on from 3FFh into 400h
    cart = bytearray(2048)
    cart[0:5] = bytes([0x23, 0x5A, 0xA8, 0x84, 0x03])  # 400h: MOV A,#5Ah; MOV R0,A; JMP 403h
    m = Machine(None, bytes(cart))
    m.run_frame()
    assert m.iram[0] == 0x5A
    assert m.cpu.pc == 0x403


def test_empty_slot_reads_ff() -> None:
    probe = bytearray(1024)
    probe[0:2] = bytes([0x23, 0x40])                 # MOV A,#40h
    probe[2:4] = bytes([0x84, 0x00])                 # JMP 400h (empty slot: FFh = MOV A,R7)
    m = Machine(bytes(probe), None)
    m.iram[7] = 0x99
    for _ in range(3):
        m.step()
    assert m.cpu.a == 0x99 and m.cpu.pc == 0x401


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_frame_length_in_machine_cycles(region: str) -> None:
    r = timing.REGIONS[region]
    m = Machine(None, None, region)
    for _ in range(10):
        m.run_frame()
    exact = 10 * r.cycles_per_second / r.fps             # about 7929.4 / 5983.3 cycles a frame
    assert abs(m.cycles - exact) <= 2
    assert m.frames == 10
    assert m.fps == pytest.approx(49.70 if region == "pal" else 59.83, abs=0.01)


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_t1_and_vblank_positions(region: str) -> None:
    r = timing.REGIONS[region]
    regs = Machine(None, None, region)._regs

    def t1(line: int, px: int) -> int:
        return vdc.t1_level(regs, line * r.ticks_per_line + r.tick_of_px(px))

    assert t1(100, 365) == 0 and t1(100, 366) == 1                  # HBLANK start
    assert t1(100, r.hblank_end_px) == 1 and t1(100, r.hblank_end_px + 1) == 0
    assert t1(242, 364) == 0 and t1(242, 365) == 1                  # VBLANK start
    last = r.vblank_end_line % r.lines
    assert t1(last, 365) == 1 and t1(last, 200) == 1                # VBLANK end, inclusive
    assert t1(last + 1 if last else 1, 100) == 0


def test_frame_is_one_stable_array() -> None:
    m = Machine(None, None)
    frame = m.frame
    m.run_frame()
    assert m.frame is frame and frame.shape == (243, 360) and frame.dtype == np.uint8


def test_audio_has_a_frame_of_samples() -> None:
    m = Machine(None, None, "pal", sample_rate=44100)
    m.run_frame()
    samples = m.audio()
    assert samples.dtype == np.int16
    assert abs(len(samples) - 44100 / m.fps) <= 2


def test_keys_and_joysticks() -> None:
    m = Machine(None, None)
    for name in list(keyboard.KEYS) + ["a", "yes"]:
        m.press(name)
    assert m._keys[:6].tolist() == [0xFF, 0xF3, 0xFF, 0xFF, 0xFF, 0xFF]
    m.release("YES")                                  # the same key as Y
    assert m._keys[5] == 0xEF
    m.release_all()
    assert not m._keys.any()
    with pytest.raises(ValueError, match="unknown key 'F1'"):
        m.press("F1")
    m.set_joystick(1, right=True, fire=True)
    assert m._joys.tolist() == [0, 0x12]
    with pytest.raises(ValueError):
        m.set_joystick(2)



def test_tap_holds_each_key_and_then_leaves_the_keyboard_idle() -> None:
    """tap types one key after the other: down for ``frames`` frames (TAP_FRAMES unless asked),
    then up as long; the frames it runs see exactly the keys held."""
    m = Machine(None, None)
    seen: list[tuple[int, ...]] = []

    def frame() -> None:
        m.run_frame()
        seen.append(tuple(m._keys.tolist()))

    keyboard.tap(m, "A", "1", run_frame=frame)
    keyboard.tap(m, "ENTER", frames=3, run_frame=frame)
    down = {}
    for name in ("A", "1", "ENTER"):
        m.press(name)
        down[name] = tuple(m._keys.tolist())
        m.release(name)
    idle = tuple(m._keys.tolist())
    assert not any(idle) and len(set(down.values())) == 3
    t = keyboard.TAP_FRAMES
    assert seen == ([down["A"]] * t + [idle] * t + [down["1"]] * t + [idle] * t
                    + [down["ENTER"]] * 3 + [idle] * 3)

def test_reset_restarts_the_cpu_only() -> None:
    m = run("timer", "pal", 1)
    vregs = m.vdc_regs.copy()
    m.reset()
    c = m.cpu
    assert (c.pc, c.sp, c.bank, c.mb, c.f1, c.p1, c.p2) == (0, 0, 0, 0, 0, 0xFF, 0xFF)
    assert (m.vdc_regs == vregs).all()


def _state_machine() -> Machine:
    bios, cart = images("irq")
    m = Machine(bios, cart)
    m.run_frame()
    for _ in range(123):                              # mid-frame, mid-program
        m.step()
    return m


def test_save_state_restores_exactly() -> None:
    m = _state_machine()
    state = m.save_state()
    m.run_frame()
    m.run_frame()
    after = m.save_state()
    m.load_state(state)
    m.run_frame()
    m.run_frame()
    assert m.save_state() == after
    other = Machine(*images("irq"))
    other.load_state(state)
    other.run_frame()
    other.run_frame()
    assert other.save_state() == after and (other.frame == m.frame).all()


@pytest.mark.parametrize("damage, message", [
    (lambda s: s[:10], "this is not a Videopac save state"),
    (lambda s: b"X" + s[1:], "this is not a Videopac save state"),
    (lambda s: s[:-1] + bytes([s[-1] ^ 1]), "the save state is damaged (length or checksum "
                                            "wrong)"),
    (lambda s: s[:-5], "the save state is damaged (length or checksum wrong)"),
    (lambda s: s[:8] + b"\x09\x00" + s[10:], "the save state was made by a newer version of "
                                             "this emulator (state version 9, this one reads up "
                                             "to 2); update videopac to load it"),
])
def test_corrupt_state_is_refused_and_changes_nothing(damage, message) -> None:
    m = _state_machine()
    before = m.save_state()
    with pytest.raises(StateError) as err:
        m.load_state(damage(before))
    assert str(err.value) == message
    assert m.save_state() == before


def test_foreign_state_is_refused() -> None:
    m = _state_machine()
    state = m.save_state()
    with pytest.raises(StateError, match="from a pal machine, this one is ntsc"):
        Machine(*images("irq"), region="ntsc").load_state(state)
    with pytest.raises(StateError, match="different BIOS or cartridge"):
        Machine(*images("alu")).load_state(state)


def test_first_compile_is_announced(monkeypatch, capsys) -> None:
    monkeypatch.setattr(machine, "_progress", None)
    monkeypatch.setattr(machine.jit_cache, "is_compiled", lambda: False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    machine._announce_first_compile()
    assert capsys.readouterr().err == machine.FIRST_COMPILE_NOTICE + "\n"
    monkeypatch.setattr(machine.jit_cache, "is_compiled", lambda: True)
    machine._announce_first_compile()
    assert capsys.readouterr().err == ""


def test_runs_without_the_jit() -> None:
    # the same program, interpreted by Python, leaves the same RAM as the compiled loop
    code = ("from tests.core.programs import run; m = run('flow', 'ntsc', 1); "
            "print(m.iram.tobytes().hex(), m.xram.tobytes().hex(), m.cycles)")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    m = run("flow", "ntsc", 1)       # includes a jump from 2FFh into page 3
    assert out.stdout.split() == [m.iram.tobytes().hex(), m.xram.tobytes().hex(), str(m.cycles)]
    assert "compiling" not in out.stderr
