"""The player's controls and inputs, on a fake machine that records what reaches it."""
import numpy as np
import pytest
from pyglet.window import key

from o2em_core import palette
from videopac.console import controls, keymap, paths
from videopac.console.keyhold import HOLD_FRAMES
from videopac.console.session import Session


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


@pytest.fixture
def session(fake):
    return Session(fake, keymap.load(), "conquest", clock=Clock())


def frames(session, n=HOLD_FRAMES + 1):
    """Let ``n`` frames begin, as the play loop does: key changes held back for the BIOS's
    keyboard scan (videopac/console/keyhold.py) reach the machine when the HOLD_FRAMES frames
    with the key down have run and the next begins."""
    for _frame in range(n):
        session.before_frame()


def stick(machine, n):
    return {d for d, on in machine.sticks[n].items() if on}


def test_keys_are_held_while_the_pc_key_is_down(session, fake):
    session.key_press(key.R)
    session.key_press(key._5)
    session.key_press(key.BACKSPACE)
    assert fake.pressed == {"R", "5", "CLEAR"}
    session.key_release(key.R)
    assert fake.pressed == {"R", "5", "CLEAR"}   # not yet: the BIOS must see it down first
    frames(session)
    assert fake.pressed == {"5", "CLEAR"}


def test_two_pc_keys_on_one_videopac_key(session, fake):
    session.key_press(key.BACKSPACE)
    session.key_press(key.DELETE)
    session.key_release(key.BACKSPACE)
    frames(session)
    assert fake.pressed == {"CLEAR"}          # DELETE still holds it
    session.key_release(key.DELETE)
    assert fake.pressed == set()              # it was down long enough


def test_shifted_character_is_released_with_shift(session, fake):
    session.key_press(key.QUESTION, shift=True)     # Shift-/ on a US keyboard
    assert fake.pressed == {"?"}
    session.key_release(key.LSHIFT, shift_key=True)  # Shift goes up first ...
    session.key_release(key.SLASH)                   # ... so the key's release is '/'
    frames(session)
    assert fake.pressed == set()


def test_joystick_keys_set_the_joystick_bits(session, fake):
    session.key_press(key.UP)
    session.key_press(key.RCTRL)
    session.key_press(key.NUM_3)
    assert stick(fake, 0) == {"up", "fire"}
    assert stick(fake, 1) == {"down", "right"}
    assert fake.pressed == set()
    session.key_release(key.UP)
    session.key_release(key.NUM_3)
    assert stick(fake, 0) == {"fire"} and stick(fake, 1) == set()


def test_keyboard_and_gamepad_bits_are_merged(session, fake):
    session.set_pad(1, frozenset({"left"}))
    session.key_press(key.NUM_0)
    assert stick(fake, 1) == {"left", "fire"}
    session.set_pad(1, frozenset())
    assert stick(fake, 1) == {"fire"}


def test_losing_focus_lets_go_of_everything(session, fake):
    session.key_press(key.A)
    session.key_press(key.LEFT)
    session.release_all()
    frames(session)
    assert fake.pressed == set() and stick(fake, 0) == set()


def test_pause_reset_and_messages(session, fake):
    session.key_press(key.F8)
    assert session.paused and session.current_message() == "paused"
    session.key_release(key.F8)
    session.key_press(key.PAUSE)
    assert not session.paused
    session.key_press(key.F5)
    assert fake.resets == 1 and session.current_message() == "reset"
    session.clock.t += 5
    assert session.current_message() == ""


def test_fast_forward_while_held(session):
    session.key_press(key.TAB)
    assert session.fast
    session.key_release(key.TAB)
    assert not session.fast


def test_state_slots_save_and_load(session, fake):
    for _ in range(7):
        fake.run_frame()
    session.key_press(key.F7)                          # slot 1
    assert session.slot == 1 and session.current_message() == "slot 1"
    session.key_press(key.F2)
    assert session.current_message() == "saved to slot 1"
    assert paths.state_path("conquest", 1).read_bytes() == fake.save_state()
    for _ in range(5):
        fake.run_frame()
    session.control("load")
    assert fake.frames == 7 and session.current_message() == "loaded slot 1"
    session.control("slot-")
    session.control("slot-")
    assert session.slot == 9
    session.control("load")
    assert session.current_message() == "slot 9 is empty" and fake.frames == 7


def test_damaged_state_is_a_message_not_a_crash(session, fake):
    path = paths.state_path("conquest", 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage")
    session.control("load")
    assert session.current_message() == "slot 0: not a save state" and fake.frames == 0


def test_state_slots_with_the_real_machine(tmp_path):
    """The real machine's states go through the slots unchanged, and one made with another
    cartridge is refused with the machine's own sentence."""
    from o2em_core import Machine
    cart = bytes(range(256)) * 8
    real = Machine(None, cart, region="ntsc")
    s = Session(real, keymap.load(), "real", clock=Clock())
    for _ in range(3):
        real.run_frame()
    s.control("save")
    saved = real.save_state()
    for _ in range(4):
        real.run_frame()
    s.control("load")
    assert real.save_state() == saved and real.frames == 3
    other = Session(Machine(None, bytes(2048), region="ntsc"), keymap.load(), "real", clock=Clock())
    other.control("load")
    assert other.current_message() == "slot 0: the save state was made with a different BIOS or cartridge"


def test_screenshot_is_the_frame_as_png(session, fake):
    fake.run_frame()
    path = session.do_screenshot()
    assert path.parent == paths.data_dir() / "screenshots" and path.name.startswith("conquest-")
    import zlib
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    idat = data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8]
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(243, 1 + 360 * 3)
    assert (rows[:, 0] == 0).all()
    assert np.array_equal(rows[:, 1:].reshape(243, 360, 3), palette.to_rgb(fake.frame))


def test_unwritable_data_folder_is_a_message_not_a_crash(session, fake, user_dirs):
    (user_dirs / "data").write_text("a file where the data folder should be")
    session.control("save")
    assert session.current_message().startswith("slot 0 not saved: ")
    session.control("screenshot")
    assert session.current_message().startswith("no screenshot: ")
    session.control("load")
    assert session.current_message().startswith("slot 0 cannot be read: ")


def test_f3_with_a_crafted_state_says_so_and_plays_on(user_dirs) -> None:
    """F3 (load) in `play` with a crafted slot file: a message, the machine unchanged."""
    from o2em_core import state
    from tests.core.test_state_input import conquest, with_reg
    m = conquest()
    for _ in range(3):
        m.run_frame()
    saved = m.save_state()
    session = Session(m, keymap.load(), "conquest")
    path = paths.state_path("conquest", 0)
    path.parent.mkdir(parents=True)
    path.write_bytes(with_reg(saved, state.FRAME_END, -1))
    before = m.save_state()
    session.control("load")
    assert session.message.startswith("slot 0: the save state cannot be loaded")
    assert m.save_state() == before
    m.run_frame()


def test_f3_with_a_huge_slot_file_reads_a_bounded_part(user_dirs, fake) -> None:
    from o2em_core.savestate import STATE_FILE_LIMIT
    session = Session(fake, keymap.load(), "conquest")
    path = paths.state_path("conquest", 0)
    path.parent.mkdir(parents=True)
    with open(path, "wb") as f:
        f.truncate(1 << 30)                      # sparse: 1 GB without using the disk
    session.control("load")
    assert session.message == (f"slot 0: {path} is {1 << 30} bytes, larger than "
                               f"{STATE_FILE_LIMIT}, the limit for save states")


def test_every_control_of_the_table_is_on_a_default_key_and_does_something(session, fake):
    """videopac/console/controls.py is the one list: each control has a default PC key in the keymap,
    and pressing that key carries the control out (here: its message, or the help overlay)."""
    for control in controls.CONTROLS:
        symbols = [s for s, b in session.keymap.bindings.items() if b.kind == "control" and b.value == control.name]
        assert [session.keymap.names[s] for s in symbols] == list(control.keys), control.name
        before = (session.message, session.help, session.paused, session.fast, session.slot)
        session.message = ""
        session.key_press(symbols[0])
        session.key_release(symbols[0])
        after = (session.message, session.help, session.paused, session.fast, session.slot)
        assert after != before or session.message, control.name


def test_ledger_keys_without_a_ledger_say_how_to_open_one(session):
    session.key_press(key.F9)
    assert session.current_message() == "no ledger open: videopac play --ledger GAME.sqlite"
    session.window_actions[controls.named("confirm")] = lambda: session.say("booked")   # what the table sets
    session.key_release(key.F9)
    session.key_press(key.F9)
    assert session.current_message() == "booked"


def test_an_action_for_a_control_that_is_not_in_the_table_is_refused_at_once():
    """The window and the table key their actions by a row of videopac/console/controls.py: a misspelt
    name stops them with a sentence naming it, instead of an action that never fires."""
    with pytest.raises(KeyError, match="'confrim' is not a control of videopac/console/controls.py"):
        controls.named("confrim")
    assert controls.named("confirm") is controls.BY_NAME["confirm"]
