"""Gamepads: assignment to joysticks, hot-plugging, swapping, d-pad/stick/buttons to bits.
The controllers are stand-ins with pyglet's Controller event names (no pads under Xvfb)."""
from pyglet.event import EventDispatcher

from videopac.sticks.gamepads import Gamepads


class Pad(EventDispatcher):
    def __init__(self, name):
        self.name, self.opened = name, False

    def open(self):
        self.opened = True


for _event in ("on_dpad_motion", "on_stick_motion", "on_button_press", "on_button_release"):
    Pad.register_event_type(_event)


class Manager(EventDispatcher):
    def __init__(self, pads):
        self.pads = pads

    def get_controllers(self):
        return list(self.pads)


Manager.register_event_type("on_connect")
Manager.register_event_type("on_disconnect")


def rig(*pads, swap=False):
    bits = {0: frozenset(), 1: frozenset()}
    messages = []
    manager = Manager(list(pads))
    g = Gamepads(lambda stick, b: bits.__setitem__(stick, b), swap=swap, say=messages.append)
    g.attach(manager)
    return g, manager, bits, messages


def test_first_two_pads_are_joysticks_0_and_1():
    a, b, c = Pad("a"), Pad("b"), Pad("c")
    g, _, bits, messages = rig(a, b, c)     # handlers are weak references: keep g
    assert a.opened and b.opened and not c.opened
    a.dispatch_event("on_dpad_motion", a, (0.0, 1.0))
    b.dispatch_event("on_button_press", b, "a")
    c.dispatch_event("on_button_press", c, "a")            # a third pad is not wired
    assert bits == {0: {"up"}, 1: {"fire"}}
    assert messages[:2] == ["gamepad 1 is joystick 0", "gamepad 2 is joystick 1"]


def test_swap_joysticks():
    a, b = Pad("a"), Pad("b")
    g, _, bits, _ = rig(a, b, swap=True)
    a.dispatch_event("on_dpad_motion", a, (1.0, 0.0))
    assert bits == {0: frozenset(), 1: {"right"}}


def test_stick_dpad_and_buttons_merge():
    a = Pad("a")
    g, _, bits, _ = rig(a)
    a.dispatch_event("on_stick_motion", a, "leftstick", (-0.9, -0.8))
    a.dispatch_event("on_dpad_motion", a, (0.0, 1.0))
    a.dispatch_event("on_button_press", a, "x")
    a.dispatch_event("on_stick_motion", a, "rightstick", (1.0, 1.0))   # ignored
    assert bits[0] == {"left", "down", "up", "fire"}
    a.dispatch_event("on_stick_motion", a, "leftstick", (0.2, -0.3))   # inside the dead zone
    a.dispatch_event("on_button_release", a, "x")
    assert bits[0] == {"up"}


def test_hot_plug_and_unplug():
    a, b = Pad("a"), Pad("b")
    g, manager, bits, messages = rig(a)
    a.dispatch_event("on_button_press", a, "b")
    manager.dispatch_event("on_disconnect", a)
    assert bits[0] == frozenset() and messages[-1] == "gamepad 1 unplugged"
    manager.dispatch_event("on_connect", b)                 # takes the free joystick 0
    b.dispatch_event("on_dpad_motion", b, (-1.0, 0.0))
    assert bits[0] == {"left"}
    manager.dispatch_event("on_connect", a)                 # comes back as joystick 1
    a.dispatch_event("on_button_press", a, "y")
    assert bits[1] == {"fire"}
    a.dispatch_event("on_button_release", a, "y")
    assert bits[1] == frozenset()
