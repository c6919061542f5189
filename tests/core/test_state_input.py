"""Save states are outside input: a state with a valid checksum but values the machine cannot
hold is refused in one sentence before the compiled core sees it; states of older layouts are
"made by an older version", not "damaged"; every state the machine itself saves loads again."""
import json
import subprocess
import sys
import zlib

import pytest

from cartridge.images import builtin_image
from o2em_core import Machine, StateError, machine, savestate, state

HEADER = savestate.HEADER


def conquest(region: str = "pal") -> Machine:
    return Machine(builtin_image("bios"), builtin_image("conquest"), region=region)


def with_header(saved: bytes, payload: bytes, **fields) -> bytes:
    """``payload`` under ``saved``'s header with its checksum and length made valid and the
    named header fields (version, layout) replaced."""
    names = ("magic", "version", "ntsc", "layout", "bios", "cart", "length", "crc")
    head = dict(zip(names, HEADER.unpack(saved[:HEADER.size])))
    head.update(fields, length=len(payload), crc=zlib.crc32(payload))
    return HEADER.pack(*head.values()) + payload


def with_reg(saved: bytes, reg: int, value: int) -> bytes:
    payload = bytearray(saved[HEADER.size:])
    payload[reg * 8:reg * 8 + 8] = value.to_bytes(8, "little", signed=True)
    return with_header(saved, bytes(payload))


@pytest.fixture(scope="module")
def saved() -> bytes:
    m = conquest()
    for _ in range(20):
        m.run_frame()
    return m.save_state()


@pytest.mark.parametrize("reg, value, words", [
    (state.PC, 1 << 31, "PC is 2147483648, outside 0 to 4095"),
    (state.LINES, 0, "LINES is 0, this machine has 313"),
    (state.TICK, 1 << 40, "TICK 1099511627776 is outside the frame"),
    (state.FRAME_END, 1 << 62, "FRAME_END 4611686018427387904 does not follow"),
    (state.EV_LINE, -5, "the beam event of line -5 cannot be"),
    (state.A, 256, "A is 256, outside 0 to 255"),
])
def test_impossible_register_is_refused_in_one_sentence(saved, reg, value, words) -> None:
    m = conquest()
    before = m.save_state()
    with pytest.raises(StateError) as err:
        m.load_state(with_reg(saved, reg, value))
    text = str(err.value)
    assert words in text and "\n" not in text
    assert text.startswith("the save state cannot be loaded: ")
    assert text.endswith("it is damaged or was not made by this emulator")
    assert m.save_state() == before                 # nothing of it was taken


def test_states_saved_along_a_game_all_load_again() -> None:
    """No false refusals: states at frame ends, mid-frame after single steps, with keys and
    sticks held, in both regions, all pass the checks and restore exactly."""
    for region in ("pal", "ntsc"):
        m = conquest(region)
        for frame in range(120):
            if frame % 30 == 10:
                m.press("1")
            if frame % 30 == 12:
                m.release_all()
            m.set_joystick(frame % 2, up=frame % 3 == 0, fire=frame % 5 == 0)
            m.run_frame()
            for _ in range(frame % 7 * 50):
                m.step()
            saved = m.save_state()
            other = conquest(region)
            other.load_state(saved)
            assert other.save_state() == saved


def test_state_of_an_older_layout_is_from_an_older_version(saved) -> None:
    """A version-1 state whose arrays had other sizes: its checksum is right, so it is not
    damaged, it is from an older version of the emulator."""
    older = with_header(saved, saved[HEADER.size:-2048], version=1, layout=0)
    with pytest.raises(StateError) as err:
        conquest().load_state(older)
    assert str(err.value) == savestate.OLDER_VERSION and "\n" not in str(err.value)
    other_layout = with_header(saved, saved[HEADER.size:], layout=0x12345678)
    with pytest.raises(StateError, match="older version"):
        conquest().load_state(other_layout)


def test_version_1_state_of_todays_layout_is_converted(saved) -> None:
    """States written before the header had a layout field, by the emulator whose layout is
    still today's, load as they are."""
    old = with_header(saved, saved[HEADER.size:], version=1, layout=0)
    m = conquest()
    m.load_state(old)
    assert m.save_state() == saved


def test_layout_fingerprint_sees_a_moved_field(monkeypatch) -> None:
    """A field of the compositor's scratch one byte further on (the spare row above it one
    byte longer) is another layout."""
    before = savestate.layout_fingerprint()
    from o2em_core import raster
    fields = list(raster.SCRATCH_FIELDS)
    spare = next(i for i, row in enumerate(fields) if not row.name)
    fields[spare] = fields[spare]._replace(count=fields[spare].count + 1)
    monkeypatch.setattr(raster, "SCRATCH_FIELDS", tuple(fields))
    assert savestate.layout_fingerprint() != before


def test_run_refuses_a_crafted_state_with_status_2(saved, tmp_path) -> None:
    path = tmp_path / "pc.state"
    path.write_bytes(with_reg(saved, state.PC, 1 << 31))
    res = subprocess.run([sys.executable, "-m", "videopac", "run", "--frames", "1",
                          "--state-in", str(path)], capture_output=True, text=True, timeout=300)
    err = res.stderr.replace(machine.FIRST_COMPILE_NOTICE + "\n", "")
    assert res.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "PC is 2147483648" in err


@pytest.mark.slow
def test_fuzzed_states_are_refused_or_run_never_crash() -> None:
    """Thousands of crafted states with valid checksums (every field at its boundaries, then
    random combinations), loaded in a child process so that a crash fails this test."""
    res = subprocess.run([sys.executable, "-m", "tests.core.state_fuzz", "15", "8000"],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"the fuzz process died ({res.returncode}): {res.stderr[-2000:]}"
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert summary["bad"] == []
    assert summary["refused"] > 1000 and summary["accepted"] > 100
