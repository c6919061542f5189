"""The window under Xvfb: picture read back from the framebuffer, key events, play loop, audio."""
import time

import numpy as np
import pytest

from o2em_core import palette
from videopac.console import keymap
from videopac.console.keyhold import HOLD_FRAMES
from videopac.console.session import Session

pytestmark = pytest.mark.xvfb


@pytest.fixture
def window(xvfb, fake):
    from videopac.console.window import PlayWindow
    session = Session(fake, keymap.load(), "conquest")
    win = PlayWindow(session, "pal", scale=1)
    win.switch_to()
    yield win
    win.close()


def send(win, *event):
    """Post an event as the platform layer does; pyglet delivers it on the next event poll."""
    win.dispatch_event(*event)
    win.dispatch_events()


def test_picture_geometry():
    from videopac.console.window import block, fit, pixel_aspect
    assert pixel_aspect("ntsc") == pytest.approx(0.857, abs=0.001)
    assert pixel_aspect("pal") == pytest.approx(1.040, abs=0.001)
    assert block("pal", 1) == (1, 1) and block("pal", 3) == (3, 3)
    assert block("ntsc", 4) == (3, 4) and block("ntsc", 7) == (6, 7)
    assert fit("pal", 1920, 1080) == ((1920 - 1440) // 2, (1080 - 972) // 2, 4, 4)
    assert fit("ntsc", 1920, 1080) == ((1920 - 1080) // 2, (1080 - 972) // 2, 3, 4)
    assert fit("pal", 300, 200) == (-30, -22, 1, 1)      # smaller than 1x: still whole pixels


def test_frame_is_shown_pixel_exact_at_scale_1(window, fake):
    assert window.get_framebuffer_size() == (360, 243)
    for _ in range(3):
        fake.run_frame()
    window.show(fake.frame)
    shown = window.read_pixels()
    assert np.array_equal(shown, palette.to_rgb(fake.frame))
    assert len(np.unique(fake.frame)) == 16            # every colour took part


def test_scaled_picture_is_whole_blocks(xvfb, fake):
    from videopac.console.window import PlayWindow
    win = PlayWindow(Session(fake, keymap.load(), "x"), "ntsc", scale=4)
    try:
        assert win.get_framebuffer_size() == (360 * 3, 243 * 4)
        fake.run_frame()
        win.show(fake.frame)
        shown = win.read_pixels()
        expected = palette.to_rgb(fake.frame).repeat(4, axis=0).repeat(3, axis=1)
        assert np.array_equal(shown, expected)
    finally:
        win.close()


def test_key_events_reach_the_key_matrix_and_joysticks(window, fake):
    from pyglet.window import key
    send(window, "on_key_press", key.S, 0)
    send(window, "on_key_press", key.RETURN, 0)
    send(window, "on_key_press", key.LEFT, 0)
    send(window, "on_key_press", key.NUM_0, key.MOD_NUMLOCK)
    assert fake.pressed == {"S", "ENTER"}
    assert fake.sticks[0]["left"] and fake.sticks[1]["fire"] and not fake.sticks[0]["fire"]
    send(window, "on_key_release", key.S, 0)
    send(window, "on_key_release", key.LEFT, 0)
    for _frame in range(HOLD_FRAMES + 1):      # the play loop begins frames (keyhold.py)
        window.session.before_frame()
    assert fake.pressed == {"ENTER"} and not fake.sticks[0]["left"]
    send(window, "on_deactivate")
    assert fake.pressed == set() and not fake.sticks[1]["fire"]


def test_escape_does_not_close_the_window(window):
    from pyglet.window import key
    send(window, "on_key_press", key.ESCAPE, 0)
    assert not window.has_exit


def test_function_keys_reach_the_controls(window, fake):
    from pyglet.window import key
    for symbol in (key.F8, key.F5, key.F7, key.F2):
        send(window, "on_key_press", symbol, 0)
        send(window, "on_key_release", symbol, 0)
    s = window.session
    assert s.paused and fake.resets == 1 and s.slot == 1
    assert s.current_message() == "saved to slot 1"


def test_help_overlay_and_messages_are_drawn(window, fake):
    fake.run_frame()
    window.show(fake.frame)
    plain = window.read_pixels()
    window.session.control("help")
    with_help = window.read_pixels()
    assert window.session.help and (with_help != plain).mean() > 0.3
    window.session.control("help")
    window.session.say("saved to slot 3")
    with_message = window.read_pixels()
    changed = (with_message != plain).any(axis=2)
    assert changed.any() and not changed[:200].any()     # the message sits at the bottom


def test_play_loop_runs_at_the_audio_clock(window, fake):
    """Half a second of the loop with pyglet's silent driver: about fps/2 frames, and the sound
    card (silent, but pulling samples in real time) takes the machine's samples."""
    import pyglet
    from videopac.console import audio, pacing
    from videopac.play import Loop
    queue = audio.SampleQueue()
    player = audio.start(queue, 44100, fake.fps)
    loop = Loop(window.session, window, queue, pacing.Pacer(fake.fps, 44100))
    try:
        start = time.perf_counter()
        while (now := time.perf_counter()) - start < 0.6:
            loop.tick(now)
            pyglet.clock.tick()
            time.sleep(0.008)
        frames = fake.frames
        assert 0.6 * fake.fps * 0.8 <= frames <= 0.6 * fake.fps * 1.15
        assert queue.pulled > 0.2 * 44100                 # the audio thread consumed the sound
        window.session.control("pause")
        loop.tick(time.perf_counter() + 1)
        assert fake.frames == frames                      # paused: no frame runs
    finally:
        player.delete()


# A cartridge that scans keyboard row 3 and joystick 0 as docs/hardware.md §5.1 and §6 describe and
# keeps what it reads in internal RAM 0x20 and 0x21 (no BIOS: 0xFF slides into 0x400).
SCANNER = """
        relaxed on        ; asl reads 0x.. numbers only after RELAXED ON
        org 0x400
loop:   anl p1,#0xfb      ; P12 = 0: keyboard decoder and joystick select on
        mov a,#0xf3       ; keyboard row 3 (Q S D F G H J K), P24-P27 high
        outl p2,a
        in a,p2
        mov r0,#0x20
        mov @r0,a
        mov a,#0xf0       ; select joystick 0
        outl p2,a
        ins a,bus
        mov r0,#0x21
        mov @r0,a
        jmp loop
"""


def test_pc_keys_reach_the_real_machines_key_matrix_and_joystick(xvfb):
    """PC key -> keymap -> session -> Machine -> key matrix / joystick bus -> 8048 program."""
    from pyglet.window import key
    from cartridge.asm48.core import assemble
    from o2em_core import Machine
    from videopac.console.window import PlayWindow
    image = bytearray(b"\xff" * 2048)
    for address, byte in assemble(SCANNER).memory.items():
        image[address - 0x400] = byte
    machine = Machine(None, bytes(image), region="pal")
    win = PlayWindow(Session(machine, keymap.load(), "scanner"), "pal", scale=1)
    try:
        def run_frame() -> None:                # as the play loop runs one
            win.session.before_frame()
            machine.run_frame()

        run_frame()
        assert machine.iram[0x20] & 0x10 and machine.iram[0x21] == 0xFF      # nothing held
        send(win, "on_key_press", key.S, 0)                                 # row 3, column 1
        send(win, "on_key_press", key.LEFT, 0)
        send(win, "on_key_press", key.RCTRL, key.MOD_CTRL)
        run_frame()
        assert machine.iram[0x20] & 0x10 == 0 and (machine.iram[0x20] >> 5) == 7 - 1
        assert machine.iram[0x21] == 0xFF & ~0x08 & ~0x10                   # left, fire: low
        send(win, "on_key_release", key.S, 0)
        send(win, "on_key_release", key.LEFT, 0)
        send(win, "on_key_release", key.RCTRL, 0)
        run_frame()             # the sticks go at once; S stays down HOLD_FRAMES (keyhold.py)
        assert machine.iram[0x21] == 0xFF and machine.iram[0x20] & 0x10 == 0
        for _frame in range(HOLD_FRAMES - 1):
            run_frame()
        assert machine.iram[0x20] & 0x10 and machine.iram[0x21] == 0xFF
    finally:
        win.close()


def test_fullscreen_refits_the_picture_in_whole_pixels(window):
    from pyglet.window import key
    send(window, "on_key_press", key.F11, 0)
    send(window, "on_key_release", key.F11, 0)
    try:
        assert window.fullscreen and window.get_size() == (1280, 1024)
        # PAL at 1280x1024: scale 4 would be 1440 wide, so 3 x 3 blocks, centred
        p = window.picture
        assert (p.x, p.y, p.scale_x, p.scale_y) == ((1280 - 1080) // 2, (1024 - 729) // 2, 3, 3)
        assert window.session.current_message() == "fullscreen"
    finally:
        send(window, "on_key_press", key.ESCAPE, 0)
    assert not window.fullscreen and not window.has_exit
