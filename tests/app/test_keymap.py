"""The keymap file: defaults that keep the battle program's keys, and clear errors."""
import pytest
from pyglet.window import key

from videopac.console import keymap

BATTLE_KEYS = ["R", "B", "P", "S", "T", "SPACE", "ENTER", "CLEAR"] + [str(d) for d in range(10)]


def test_every_videopac_key_is_on_the_pc_keyboard():
    m = keymap.load()
    for name in keymap.VIDEOPAC_KEYS - {"YES", "NO"}:   # YES/NO are the Y and N keys
        assert m.pc_keys_for("key", name), name
    assert m.pc_keys_for("key", "CLEAR") == ["BACKSPACE", "DELETE"]


def test_joysticks_do_not_take_keys_the_battle_program_needs():
    m = keymap.load()
    for name in BATTLE_KEYS:
        for pc in m.pc_keys_for("key", name):
            assert m.lookup(getattr(key, pc)).kind == "key"
    sticks = {b.stick for b in m.bindings.values() if b.kind == "joystick"}
    assert sticks == {0, 1}
    assert m.lookup(key.UP) == keymap.Binding("joystick", "up", 0, frozenset({"up"}))
    assert m.lookup(key.RCTRL).bits == {"fire"} and m.lookup(key.NUM_0).stick == 1
    assert m.lookup(key.NUM_7).bits == {"up", "left"}


def test_controls_sit_on_keys_the_videopac_does_not_have():
    m = keymap.load()
    controls = [s for s, b in m.bindings.items() if b.kind == "control"]
    assert len(controls) >= len(keymap.CONTROLS)
    assert not any(keymap.load().names[s][:1].isalnum() and len(m.names[s]) == 1 for s in controls)
    assert m.lookup(key.F2).value == "save" and m.lookup(key.TAB).value == "fast-forward"


def test_user_file_replaces_only_its_tables(tmp_path):
    f = tmp_path / "k.toml"
    f.write_text('[joystick.1]\nINSERT = "fire"\nHOME = "up"\n')
    m = keymap.load(f)
    assert m.lookup(key.HOME) == keymap.Binding("joystick", "up", 1, frozenset({"up"}))
    assert m.lookup(key.NUM_8) is None                      # the default [joystick.1] is gone
    assert m.lookup(key.UP).stick == 0                      # [joystick.0] kept
    assert m.lookup(key.B).value == "B"                     # [keyboard] kept
    f.write_text('[keyboard]\nA = "A"\n')
    assert keymap.load(f).lookup(key.B) is None             # a [keyboard] of your own is all of it


@pytest.mark.parametrize("text, words", [
    ('[keyboard]\nFOO = "A"\n', ["unknown PC key name 'FOO'", "[keyboard]"]),
    ('[keyboard]\nA = "Ä"\n', ["unknown Videopac key 'Ä'"]),
    ('[joystick.0]\nUP = "upward"\n', ["unknown joystick direction 'upward'"]),
    ('[controls]\nF1 = "explode"\n', ["unknown control 'explode'"]),
    ('[mouse]\nX = "A"\n', ["unknown table [mouse]"]),
    ('[keyboard]\nA = 5\n', ["must be a string"]),
    ('[keyboard\n', ["not a valid TOML file"]),
])
def test_bad_user_file_is_one_clear_sentence(tmp_path, text, words):
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(keymap.KeymapError) as info:
        keymap.load(f)
    message = str(info.value)
    assert str(f) in message and "\n" not in message and message.endswith(".")
    for w in words:
        assert w in message


def test_a_pc_key_with_two_meanings_is_refused(tmp_path):
    f = tmp_path / "dup.toml"
    f.write_text('[joystick.1]\nS = "down"\n')
    with pytest.raises(keymap.KeymapError, match=r"'S' already has a meaning in \[keyboard\]"):
        keymap.load(f)
