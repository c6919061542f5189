"""The self-checking CPU programs of roms_test/cpu: what each leaves in the external RAM,
against values computed by hand from the MCS-48 datasheet and docs/hardware.md (the comments in the
.a48 sources give the reasoning line by line)."""
from __future__ import annotations

import pytest

from .programs import run

REGIONS = ("pal", "ntsc")

# program -> (frames to run, expected result bytes from external RAM 00h)
EXPECTED: dict[str, tuple[int, bytes]] = {
    # ADD/ADDC A,PSW pairs: 3Ah+49h, F8h+08h, 10h+0Fh+C, 80h+80h then +7Fh+C, EFh+11h, FFh+11h+C
    # DA A: 19h+28h, 99h+01h, 12h with CY, FAh; logic; rotates; SWAP/CPL/INC/DEC; XCH/XCHD;
    # INC/DEC Rn, INC @R0; CY/F0; MOV PSW,A; CALL/RET with SP 5
    "alu": (1, bytes.fromhex(
        "83 48 00 c8 20 48 80 48 00 c8 11 c8"
        "47 48 00 88 72 88 60 88"
        "c3 03 cf"
        "03 40 81 02 88"
        "a5 5a 5b 59 ff 00 88"
        "12 34 cb ad ad"
        "00 fe 78"
        "00 a8 00 08 ed 6d 08")),
    # JC/JNC/JZ/JNZ all paths, JB0-7, JF0/JF1/JT0/JNT0/JTF (7 paths), DJNZ x5, MOVP, JMPP, MOVP3,
    # jump at 2FFh into page 3, banks (BS, R7 of each), stack wrap 7->0 and back, RETR from SP 0
    "flow": (1, bytes.fromhex("ff ff 7f 05 00 5c ad 33 e2 18 11 22 08 0f ef")),
    # T after 95 and 96 counted cycles, overflow/TF/JTF, overflow with TCNTI off, interrupt after
    # 2 + 3n >= 32 cycles (n = 10), T = 00 in the handler
    "timer": (1, bytes.fromhex("02 03 00 03 00 aa 01 0a 00")),
    "vdc": (1, bytes.fromhex(
        "fe 0f a5 00 00 30 c4 00 77 01 5a 00 00 bf 00 00 3c 28 a5 5a 96 11 10 ff ff 30")),
    # MB1 CALLs, bank switch (bank 1 table B1, bank 0 code + table B0), vector JMP with A11 = 0
    # in the handler, JMP with MB1 after RETR
    "banks": (2, bytes.fromhex("11 12 13 b1 14 b0 b1 15 16 17")),
    # 3 KB banks: bank 3 at reset, then 0, 1, 2 chosen by P10/P11, each giving C0|bank from
    # 0C00h (its own bank offset 800h, not a mirror of 800h), 80|bank from 800h, 40|bank from
    # 400h, F0|bank from MOVP in page 0Fh; then bank 0 -> 3 -> 0 switched at 0D00h/0D06h
    "banks3k": (2, bytes.fromhex("c3 83 43 f3 c0 80 40 f0 c1 81 41 f1 c2 82 42 f2 d3 d0")),
}

# scratch RAM a program uses besides its results
SCRATCH: dict[str, dict[int, int]] = {"vdc": {0x70: 0x96, 0x71: 0x11}}

# first VBLANK after power-on (docs/mame-oracle.md), in machine cycles: the interrupt is seen by the
# first instruction starting in the cycle that contains it
FIRST_VBLANK_CYCLE = {"pal": 7924, "ntsc": 5978}


@pytest.mark.parametrize("region", REGIONS)
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_program_results(name: str, region: str) -> None:
    frames, expected = EXPECTED[name]
    m = run(name, region, frames)
    assert m.xram[:len(expected)].tobytes().hex(" ") == expected.hex(" ")
    rest = {a: int(v) for a, v in enumerate(m.xram) if a >= len(expected) and v}
    assert rest == SCRATCH.get(name, {})


@pytest.mark.parametrize("region", REGIONS)
def test_vblank_interrupt(region: str) -> None:
    m = run("irq", region, 6)
    res = m.xram[:8].tobytes()
    passes = res[0] | res[1] << 8
    # 21 cycles before the 9-cycle counting loop starts
    assert abs(passes - (FIRST_VBLANK_CYCLE[region] - 21) / 9) <= 1.5
    assert res[2] & 0x08                     # status bit 3: VBLANK
    assert res[3] == 5                       # re-entered while not acknowledged, 5 times
    assert res[4] == 1                       # after RET, the next VBLANK is not taken
    assert res[5:8] == bytes([0x03, 0x07, 0x26])   # external first, then the timer


@pytest.mark.parametrize("region, lines, passes", [
    # PAL: T1 falls at (312, 454), (0, 454) ... -> 10th count at (8, 454): from the VBLANK
    # interrupt (242, 365) that is 36113 px = 2006.3 cycles; the loop starts ~18 cycles later
    # and takes 7 cycles a pass.
    ("pal", 0xF3, (2006.3 - 18) / 7),
    # NTSC: the first count at (0, 453) -> 10th at (9, 453): 13738 px = 686.9 cycles.
    ("ntsc", 0xF2, (686.9 - 18) / 7),
])
def test_event_counter(region: str, lines: int, passes: float) -> None:
    m = run("counter", region, 6)
    res = m.xram[:5].tobytes()
    assert res[0] == lines                   # 243 (PAL) / 242 (NTSC) lines counted per frame
    assert abs((res[1] | res[2] << 8) - passes) <= 1
    assert res[3] == 0x00                    # T wrapped to 00h when the interrupt came
    assert res[4] == 0x11                    # and TF was set


@pytest.mark.parametrize("region, low, high", [("pal", 0xDA, 0xDC), ("ntsc", 0x39, 0x3B)])
def test_pal_ntsc_loop(region: str, low: int, high: int) -> None:
    # VBLANK + the HBLANK after it: PAL 1773.3 + 4.9, NTSC 477.75 + 4.35 cycles; minus ~27 cycles
    # of interrupt handler and wait loop; 8 cycles a pass. KTAA accepts CEh-DEh as PAL.
    m = run("palntsc", region, 3)
    assert low <= m.xram[0] <= high


def test_keyboard_and_joysticks() -> None:
    m = run("keys", "pal", 1)
    m.press("A")          # row 4, column 0
    m.press("M")          # row 4, column 6: the higher column wins
    m.press("ENTER")      # row 5, column 7
    m.set_joystick(0, up=True, fire=True)
    m.set_joystick(1, left=True, down=True)
    m.run_frame()
    rows = m.xram[:6].tobytes()
    assert rows == bytes([0xF0, 0xF1, 0xF2, 0xF3, (7 - 6) << 5 | 0x04, (7 - 7) << 5 | 0x05])
    assert m.xram[6:10].tobytes() == bytes([0xFF & ~0x11, 0xFF & ~0x0C, 0xFF, 0xF4])
    m.release("M")
    m.release_all()
    m.set_joystick(0)
    m.run_frame()
    assert m.xram[:7].tobytes() == bytes([0xF0, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xFF])


@pytest.mark.parametrize("region", REGIONS)
def test_jni_not_taken_then_interrupt(region: str) -> None:
    # return addresses seen by six VBLANK interrupts while polling "poll: JNI hit; JMP poll":
    # 16h (before the JNI) or, when INT rose during a JNI that was not taken, the JNI's
    # target 1Ah (MAME's rule) -- never 18h, the JMP after it
    m = run("jni", region, 8)
    seen = m.xram[:6].tobytes()
    assert set(seen) <= {0x16, 0x1A} and 0x1A in seen


@pytest.mark.parametrize("region", REGIONS)
def test_beam_registers(region: str) -> None:
    m = run("beam", region, 3)
    res = m.xram[:30].tobytes()
    live = [res[i:i + 3] for i in range(0, 24, 3)]
    ys = [y for y, _, _ in live]
    # right after VBLANK starts (line 242, px 365): line 243 on, 1-2 lines between samples
    assert ys[0] == 243 and all(1 <= (b - a) % 256 <= 2 for a, b in zip(ys, ys[1:]))  # 8 bits
    assert all(x < 228 and status == 0x02 for _, x, status in live)   # X = px/2; bit 1 copy
    series = m.iram[0x10:0x2E].tolist()
    if region == "pal":     # line 0 before px 366 reads vtotal 313, clamped to 263 = 107h
        assert series[:3] == [0x07, 0x07, 0x01]
    else:                   # T1 drops at (0, 453): already past BG, Y = 1
        assert series[0] == 0x01
    rest = series[2:]
    assert all(0 <= b - a <= 1 for a, b in zip(rest, rest[1:]))
    (y0, _, st0), (y1, _, st1) = res[24:27], res[27:30]
    assert st0 & 0x02 and not st1 & 0x02                 # the status copies control bit 1
    assert 0 <= y1 - y0 <= 2                              # latched at the 1 -> 0 write


@pytest.mark.parametrize("region", REGIONS)
def test_cpu_rate_against_the_beam(region: str) -> None:
    # 20 frames after power-on the readings are where MAME's rates put them: with the crystal
    # ratio (exactly 20 / 18 pixel clocks a cycle) they would be ~4 pixel clocks later
    from o2em_core import timing
    r = timing.REGIONS[region]
    assert r.cycles_per_second == {"pal": 394_100, "ntsc": 357_955}[region]
    m = run("drift", region, 22)
    pairs = m.iram[0x10:0x38].reshape(20, 2)
    assert all(x < 228 for _, x in pairs)
    assert m.cycles == pytest.approx(22 * r.cycles_per_second / r.fps, abs=2)
