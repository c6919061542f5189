"""`videopac debug`: the terminal debugger, driven by scripts (as a test would), through a pty
(as a person types), and from the play window's debug key (real X key events under Xvfb)."""
from __future__ import annotations

import contextlib
import os
import pty
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from cartridge.asm48 import assemble
from cartridge.images import builtin_image
from o2em_core import Machine
from videopac.console.debugger import DebugPrompt, Debugger

# A cartridge (2 KB at 400h) with a subroutine that writes external RAM and the video chip.
PROGRAM = """
        cpu     8048
        org     400h
        jmp     start
        org     408h
start:  mov     r0,#10h
        call    sub             ; 40A
        mov     r2,#5           ; 40C
idle:   jmp     idle
sub:    mov     a,#42h
        anl     p1,#0A7h        ; P13 = 0 (video chip), P14 = 0 (RAM), P16 = 0
        movx    @r0,a           ; both selected: the write reaches both
        call    leaf
        ret
leaf:   inc     r5
        ret
"""


def machine_and_symbols():
    assembly = assemble(PROGRAM)
    cart = assembly.image(0x400, 0xBFF, fill=0)
    bios = bytes([0x84, 0x00]) + bytes(1022)          # JMP 400h at the reset vector
    return Machine(bios, cart), assembly.symbols


def console():
    machine, symbols = machine_and_symbols()
    out: list[str] = []
    c = DebugPrompt(Debugger(machine, symbols, out.append))
    return c, out


def run(c, *lines):
    out = c.debugger.out.__self__
    del out[:]
    for line in lines:
        c.execute(line)
    return "\n".join(out)


def test_breakpoint_by_symbol_and_registers():
    c, _ = console()
    text = run(c, "bp sub", "g - 20", "r")
    assert "breakpoint at 410 <sub>" in text
    assert "PC=410 <sub>" in text and "SP=1" in text
    assert "stack: 40C" in text


def test_step_over_runs_the_whole_call_and_step_out_leaves_it():
    c, _ = console()
    run(c, "bp 40A", "g - 20")
    assert c.debugger.pc == 0x40A
    text = run(c, "o")
    assert c.debugger.pc == 0x40C and ">40C" in text
    assert int(c.debugger.machine.iram[5]) == 1        # leaf ran: R5 of register bank 0
    c2, _ = console()
    run(c2, "bp leaf", "g - 20")
    assert c2.debugger.pc == c2.debugger.address("leaf") and c2.debugger.machine.cpu.sp == 2
    run(c2, "out")
    assert c2.debugger.machine.cpu.sp == 1 and c2.debugger.pc == 0x417   # back in sub, at RET


def test_watchpoints_on_external_ram_and_video_registers():
    c, _ = console()
    text = run(c, "wp xram 10", "g - 20")
    assert "watchpoint xram 10: xram 10 written (42)" in text
    c, _ = console()
    text = run(c, "wp vdc 0-1F", "g - 20")
    assert "watchpoint vdc 00-1F: vdc 10 written" in text
    c, _ = console()
    text = run(c, "wp iram 5", "g - 20")          # INC R5 of register bank 0
    assert "iram 05 written (01)" in text


# Register bank 1 and two stack levels: SEL RB1, then a call inside a call.
BANK1_PROGRAM = """
        cpu     8048
        org     400h
        jmp     start
        org     408h
start:  sel     rb1
        mov     r3,#33h         ; 409: R3 of bank 1 is internal RAM 1B
        call    outer           ; 40B
idle:   jmp     idle            ; 40D
outer:  call    inner           ; 40F
        ret                     ; 411
inner:  inc     r3
        ret
"""


def test_registers_and_watchpoints_follow_the_selected_bank_and_the_stack():
    assembly = assemble(BANK1_PROGRAM)
    machine = Machine(bytes([0x84, 0x00]) + bytes(1022), assembly.image(0x400, 0xBFF, fill=0))
    out: list[str] = []
    c = DebugPrompt(Debugger(machine, assembly.symbols, out.append))
    text = run(c, "wp iram 1B", "g - 20")
    assert "iram 1B written (33) by the instruction at 409" in text
    text = run(c, "wpclear", "bp inner", "g - 20", "r")
    assert "R3=33" in text and "(register bank 1)" in text and "PSW=1A [BS]" in text
    assert "stack: 411, 40D <idle>" in text       # deepest first, each 12-bit return address
    text = run(c, "wp iram 1B", "s")                       # INC R3 writes bank 1's R3
    assert "iram 1B written (34)" in text and int(machine.iram[0x1B]) == 0x34


def test_vdc_view_decodes_every_field_of_the_registers():
    c, _ = console()
    v = c.debugger.machine.vdc_regs
    v[0xA0], v[0xA3], v[0xA2] = 0x68, 0x6A, 0x81   # grid, objects, dots; bg 5, grid 2 bright
    v[4:7] = (0x30, 0x40, 0x2C)                     # sprite 1: colour 5 (bits 5-3), zoom (bit 2)
    v[0x18:0x1C] = (0x20, 0x50, 0x00, 0x0B)          # char 2: pointer bit 8 set, colour 5
    v[0x1C:0x20] = (0x20, 0x60, 0x00, 0x0A)          # char 3: the same without bit 8
    v[0xC4], v[0xD4] = 0x81, 0x01                    # horizontal column 4: rows 0, 7 and 8
    text = run(c, "vdc")
    assert "control A0=68 [grid objects dots]" in text
    assert "colour A3=6A: background 5, grid 2 bright" in text
    assert "sprite 1: y=30 x=40 colour 5 zoom" in text
    assert "char 2: y=20 x=50 glyph 22'X' colour 5" in text      # (100 + 20/2) / 8 = 22
    assert "char 3: y=20 x=60 glyph 02'2' colour 5" in text
    assert "horizontal columns 000 000 000 000 181 " in text


def test_vdc_view_finds_the_collision_copy_by_the_bios_symbol():
    machine, symbols = machine_and_symbols()
    machine.iram[0x30], machine.iram[0x3D] = 0x5A, 0x77
    out: list[str] = []
    DebugPrompt(Debugger(machine, dict(symbols, iram_collision=0x30), out.append)).execute("vdc")
    assert "collision mask A2=00, last result copied by the BIOS (iram 30)=5A;" in out[1]
    out.clear()
    DebugPrompt(Debugger(machine, symbols, out.append)).execute("vdc")   # a BIOS without symbols
    assert ("collision mask A2=00, iram 3D (where the built-in BIOS copies the last result; "
            "no BIOS symbols)=77;") in out[1]


def test_step_counts_disassembly_memory_and_errors():
    c, _ = console()
    text = run(c, "s 3")
    assert c.debugger.pc == 0x40A
    text = run(c, "dasm 408 3")
    assert "408  B8 10" in text and "start:" in text and "call  sub" in text
    text = run(c, "mem iram 8 4")
    assert text.startswith("iram 00:")
    text = run(c, "frobnicate", "bp", "mem nowhere", "s x", "wp xram 80")
    assert text.count("error:") == 5


def test_go_without_anything_to_stop_on_is_refused_unless_bounded():
    c, _ = console()
    assert "nothing would stop" in run(c, "g")
    run(c, "g - 3")
    assert c.debugger.machine.frames == 3


def test_trace_and_screenshot_files(tmp_path):
    c, _ = console()
    trace, shot = tmp_path / "t.txt", tmp_path / "f.png"
    run(c, f"trace {trace}", "s 4", "trace off", f"shot {shot} 2")
    lines = trace.read_text().splitlines()
    assert len(lines) == 4 and lines[0].startswith("000") and "jmp   400h" in lines[0] and "call  sub" in lines[3]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_next_line_and_next_frame():
    c, _ = console()
    run(c, "nl")
    line = c.debugger.machine.beam[0]
    assert line != 243
    run(c, "nf 2")
    assert c.debugger.machine.frames == 2


def test_script_file_from_the_command_line(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("press SPACE\nbp cart_start\ng - 300\nr\nvdc\nq\n")
    res = subprocess.run([sys.executable, "-m", "videopac", "debug", "--script", str(script)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "breakpoint at 408 <cart_start>" in res.stdout
    assert "control A0=" in res.stdout and "sprite 0:" in res.stdout
    assert "last result copied by the BIOS (iram 3D)=" in res.stdout   # the built-in symbols
    own = tmp_path / "own.bin"                      # the same BIOS, as the user's own file
    own.write_bytes(builtin_image("bios"))
    script.write_text("press SPACE\ng - 300\nr\nvdc\nq\n")   # no BIOS symbol: no cart_start
    res = subprocess.run([sys.executable, "-m", "videopac", "debug", "--bios", str(own),
                          "--script", str(script)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "iram 3D (where the built-in BIOS copies the last result; no BIOS symbols)=" in (
        res.stdout)


def test_bad_files_are_one_sentence(tmp_path):
    res = subprocess.run([sys.executable, "-m", "videopac", "debug", "--script",
                          str(tmp_path / "missing.txt")], capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def _read_until(fd: int, needle: str, timeout: float) -> str:
    seen, deadline = "", time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{needle!r} not seen; got {seen[-400:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                seen += os.read(fd, 4096).decode(errors="replace")
            except OSError:
                break
    return seen


@contextlib.contextmanager
def at_the_prompt(*argv: str) -> Iterator[int]:
    """`videopac --lang en debug ARGV` in a terminal (a pty): its file descriptor, once the first
    prompt is up; `q` must end it with status 0."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "videopac", "--lang", "en", "debug", *argv])
    try:
        _read_until(fd, "> ", 300)
        yield fd
        os.write(fd, b"q\n")
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.close(fd)


def test_the_prompt_through_a_terminal():
    """A person at the prompt: the banner, a command, its answer, quit."""
    with at_the_prompt() as fd:
        os.write(fd, b"s 2\n")
        _read_until(fd, "> ", 30)
        os.write(fd, b"r\n")
        text = _read_until(fd, "stack:", 30)
        assert "PC=" in text


@pytest.mark.xvfb
@pytest.mark.skipif(shutil.which("xdotool") is None or shutil.which("Xvfb") is None,
                    reason="xdotool and Xvfb are installed by make test")
def test_scroll_lock_in_the_play_window_pauses_into_the_debugger(tmp_path):
    """Play in a window started from a terminal; a real Scroll Lock key press (XTEST through
    xdotool) pauses into the debugger on that terminal; a typed command answers there; 'g' plays
    on. On an X display of its own, so that no other test's window takes the key."""
    from tools.xvfb import virtual_display

    cart = tmp_path / "dbgcart.bin"
    cart.write_bytes(builtin_image("conquest"))
    with virtual_display() as display:
        env = dict(os.environ, PYGLET_AUDIO="silent", DISPLAY=display,
                   XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(sys.executable, [sys.executable, "-m", "videopac", "--lang", "en", "play",
                                       str(cart), "--scale", "1"], env)
        try:
            def xdotool(*args: str) -> subprocess.CompletedProcess:
                return subprocess.run(["xdotool", *args], env=env, capture_output=True,
                                      text=True, timeout=30)

            deadline = time.monotonic() + 300          # a cold numba cache compiles first
            while xdotool("search", "--onlyvisible", "--name", "^Videopac - dbgcart$").returncode:
                assert time.monotonic() < deadline, "the play window did not open"
                time.sleep(0.2)
            text = ""
            for _attempt in range(5):                  # a key before the loop runs is lost
                xdotool("search", "--onlyvisible", "--name", "^Videopac - dbgcart$",
                        "windowfocus", "--sync")
                xdotool("key", "--clearmodifiers", "Scroll_Lock")
                try:
                    text = _read_until(fd, "debug>", 10)
                    break
                except AssertionError:
                    continue
            assert "the game is paused" in text and "PC=" in text
            os.write(fd, b"vdc\n")
            assert "control A0=" in _read_until(fd, "debug>", 30)
            os.write(fd, b"g\n")
            _read_until(fd, "playing on", 30)
        finally:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            os.close(fd)


def test_a_recording_replays_to_the_same_frame_hash(tmp_path):
    """What --record writes (through the Recorder that stands in for the machine) replays with
    'videopac run --input' to the picture the played session ended on."""
    from cartridge.images import builtin_image
    from videopac.console.record import Recorder
    from videopac.run import frame_sha256

    out = tmp_path / "game.txt"
    machine = Recorder(Machine(builtin_image("bios"), builtin_image("conquest")),
                       out.open("w", encoding="utf-8"))
    plan = {10: ("press", "SPACE"), 14: ("release", "SPACE"), 30: ("press", "B"),
            32: ("release", "B"), 40: ("joy", 1), 70: ("joy", 0), 80: ("reset", None)}
    for frame in range(120):
        action = plan.get(frame)
        if action and action[0] == "press":
            machine.press(action[1])
        elif action and action[0] == "release":
            machine.release(action[1])
        elif action and action[0] == "joy":
            machine.set_joystick(1, up=bool(action[1]), fire=bool(action[1]))
        elif action:
            machine.reset()
        machine.set_joystick(0)                 # unchanged sticks are not written again
        machine.run_frame()
    machine.close()
    played = frame_sha256(machine)
    text = out.read_text()
    assert "10 press SPACE" in text and "40 joy 1 up+fire" in text and "80 reset" in text
    assert text.rstrip().endswith("120 end") and text.count("joy 0") == 0
    res = subprocess.run([sys.executable, "-m", "videopac", "run", "--input", str(out),
                          "--frame-hash"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == played
