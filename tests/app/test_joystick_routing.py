"""--joystick N=keys|gamepad[:I]|serial:PORT: a named stick listens to that source only."""
from videopac.console import keymap
from videopac.console.session import Session
from videopac.sticks.gamepads import Gamepads
from videopac.sticks.routing import parse_joystick_specs, routing


class Recorder:
    """Stands in for the machine: records the last joystick bits per stick."""

    def __init__(self):
        self.sticks = {0: set(), 1: set()}

    def set_joystick(self, n, **bits):
        self.sticks[n] = {d for d, on in bits.items() if on}


class Pad:
    name = "pad"

    def open(self):
        pass

    def push_handlers(self, *handlers):
        pass


def test_default_routing_keeps_keys_and_first_two_pads():
    r = routing([])
    assert r.accepts == (frozenset({"keys", "gamepad"}),) * 2
    assert r.pads == {0: 0, 1: 1}
    assert routing([], swap=True).pads == {0: 1, 1: 0}


def test_named_sources_are_the_only_ones():
    r = routing(parse_joystick_specs(["0=serial:/dev/ttyUSB0", "1=keys"]))
    assert r.accepts == (frozenset({"serial"}), frozenset({"keys"}))


def test_gamepad_numbers_choose_the_pad():
    r = routing(parse_joystick_specs(["0=gamepad:1", "1=gamepad:0"]))
    assert r.pads == {1: 0, 0: 1}
    r = routing(parse_joystick_specs(["1=gamepad"]))        # the lowest pad nobody named
    assert r.pads == {0: 1}
    r = routing(parse_joystick_specs(["0=gamepad:0", "1=gamepad"]))
    assert r.pads == {0: 0, 1: 1}


def test_session_ignores_the_keyboard_on_a_gamepad_stick():
    machine = Recorder()
    session = Session(machine, keymap.load(), "conquest")
    r = routing(parse_joystick_specs(["0=gamepad", "1=keys"]))
    session.route(r.accepts)
    session.set_pad(0, frozenset({"up"}))
    session.set_pad(1, frozenset({"left"}))        # pads do not reach a keys-only stick
    assert machine.sticks == {0: {"up"}, 1: set()}
    km = keymap.load()
    symbol = next(s for s, b in km.bindings.items() if b.kind == "joystick" and b.stick == 0)
    session.key_press(symbol)                      # keyboard does not reach a gamepad-only stick
    assert machine.sticks[0] == {"up"}


def test_second_pad_drives_stick_zero_when_asked():
    bits = {}
    pads = Gamepads(lambda stick, b: bits.__setitem__(stick, b),
                    order=routing(parse_joystick_specs(["0=gamepad:1"])).pads)
    first, second = Pad(), Pad()
    pads.connect(first)
    pads.connect(second)
    pads.on_dpad_motion(first, (1, 0))             # pad 0 is not routed anywhere
    assert bits == {}
    pads.on_dpad_motion(second, (0, 1))
    assert bits == {0: frozenset({"up"})}
