"""Gamepads as Videopac joysticks, through pyglet.input's game controllers.

The first two pads connected become joysticks 0 and 1 (swapped with ``--swap-joysticks``); a pad
plugged in later takes the first free joystick, and unplugging one frees it. The d-pad or the
left stick steers (the stick counts past half-way), any face button fires.
"""
from __future__ import annotations

from typing import Any, Callable

from i18n import _

FIRE_BUTTONS = frozenset(["a", "b", "x", "y"])
DEADZONE = 0.5   # stick deflection that counts as a direction

# pyglet's controllers and their manager are untyped (pyproject.toml): named here for the reader
Controller = Any
ControllerManager = Any


def _directions(x: float, y: float) -> set[str]:
    """Directions of a d-pad or stick vector (pyglet: +y is up)."""
    bits = set()
    if y > DEADZONE:
        bits.add("up")
    if y < -DEADZONE:
        bits.add("down")
    if x < -DEADZONE:
        bits.add("left")
    if x > DEADZONE:
        bits.add("right")
    return bits


class Gamepads:
    """Assigns controllers to joysticks and sends their bits to ``set_pad(stick, bits)``."""

    def __init__(self, set_pad: Callable[[int, frozenset[str]], None], swap: bool = False,
                 say: Callable[[str], None] = lambda text: None,
                 order: dict[int, int] | None = None) -> None:
        self.set_pad = set_pad
        self.say = say
        # pad number -> joystick; --joystick N=gamepad:I gives another map (sticks/routing.py, routing)
        self.order = order if order is not None else ({0: 1, 1: 0} if swap else {0: 0, 1: 1})
        self.pads: list[object | None] = [None] * (max(self.order, default=-1) + 1)
        self._state: dict[int, dict[str, set[str]]] = {}

    def attach(self, manager: ControllerManager) -> None:
        """Take the pads already connected and follow hot-plugging (pyglet ControllerManager)."""
        for controller in manager.get_controllers():
            self.connect(controller)
        manager.push_handlers(on_connect=self.connect, on_disconnect=self.disconnect)

    def connect(self, controller: Controller) -> None:
        if controller in self.pads or None not in self.pads:
            return
        number = self.pads.index(None)
        self.pads[number] = controller
        self._state[id(controller)] = {"dpad": set(), "stick": set(), "buttons": set()}
        try:
            controller.open()
        except Exception:  # a pad that cannot be opened (permissions, gone again) is skipped
            self.pads[number] = None
            self.say(_("gamepad {name} cannot be opened").format(name=getattr(controller, "name", "")))
            return
        controller.push_handlers(self)
        if number in self.order:
            self.say(_("gamepad {number} is joystick {stick}").format(
                number=number + 1, stick=self.order[number]))

    def disconnect(self, controller: Controller) -> None:
        if controller not in self.pads:
            return
        number = self.pads.index(controller)
        self.pads[number] = None
        self._state.pop(id(controller), None)
        if number in self.order:
            self.set_pad(self.order[number], frozenset())
        self.say(_("gamepad {number} unplugged").format(number=number + 1))

    def _update(self, controller: Controller, part: str, bits: set[str]) -> None:
        if controller not in self.pads:
            return
        state = self._state[id(controller)]
        state[part] = bits
        merged = state["dpad"] | state["stick"] | ({"fire"} if state["buttons"] else set())
        number = self.pads.index(controller)
        if number in self.order:
            self.set_pad(self.order[number], frozenset(merged))

    # pyglet Controller events
    def on_dpad_motion(self, controller: Controller, vector: Any) -> None:
        self._update(controller, "dpad", _directions(vector[0], vector[1]))

    def on_stick_motion(self, controller: Controller, stick: str, vector: Any) -> None:
        if stick == "leftstick":
            self._update(controller, "stick", _directions(vector[0], vector[1]))

    def on_button_press(self, controller: Controller, button: str) -> None:
        if button in FIRE_BUTTONS and controller in self.pads:
            self._update(controller, "buttons", self._state[id(controller)]["buttons"] | {button})

    def on_button_release(self, controller: Controller, button: str) -> None:
        if button in FIRE_BUTTONS and controller in self.pads:
            self._update(controller, "buttons", self._state[id(controller)]["buttons"] - {button})
