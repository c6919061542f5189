"""A playing session: one machine and what the player does to it.

Keys held on the PC become keys held on the Videopac or joystick bits; controls pause, reset,
save and load states in slots, take screenshots. Nothing here knows pyglet: the window forwards
key symbols, the gamepads forward joystick bits, and the window shows ``message``.
"""
from __future__ import annotations

import collections
import pathlib
import time
from typing import TYPE_CHECKING, Callable

from i18n import _, os_reason
from safefiles import read_at_most

from o2em_core import palette
from o2em_core.savestate import STATE_FILE_LIMIT
from videopac.console import paths
from videopac.console.controls import BY_NAME, Control
from videopac.console.keyhold import KeyHold
from videopac.console.keymap import DIRECTIONS, Binding, Keymap

if TYPE_CHECKING:
    from collections.abc import Iterable

    from o2em_core.machine import Machine
    from videopac.console.debugger import PlayDebugger

SLOTS = 10
MESSAGE_SECONDS = 2.0
KEYBOARD, PADS = 0, 1      # the two sources of joystick bits, merged by OR


class Session:
    """The machine plus the player's controls and the merged state of every input device."""

    def __init__(self, machine: Machine, keymap: Keymap, cart: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.machine = machine
        self.keymap = keymap
        self.cart = cart
        self.clock = clock
        self.slot = 0
        self.paused = False
        self.fast = False
        self.help = False
        self.message = ""
        self._message_until = 0.0
        self._held: dict[int, tuple[Binding, bool]] = {}    # PC symbol -> (binding, with Shift)
        self._keys: collections.Counter[str] = collections.Counter()  # Videopac key -> PC keys on it
        self._bits: list[list[frozenset[str]]] = [[frozenset(), frozenset()],
                                                  [frozenset(), frozenset()]]  # [stick][source]
        self._sent: list[frozenset[str] | None] = [None, None]
        # which sources each joystick listens to (--joystick; videopac/sticks/routing.py)
        self.accepts: list[tuple[bool, bool]] = [(True, True), (True, True)]
        # a control's action in the window or the ledger table (fullscreen, ledger keys), set by them
        self.window_actions: dict[Control, Callable[[], None]] = {}
        self.debugger: PlayDebugger | None = None      # set by play
        self.debug_lines: list[str] = []     # the registers the window shows while debugging
        self._hold = KeyHold()               # console keys held long enough for the BIOS
        self._next_frame = 0                 # the frame that runs next, counted by before_frame

    # -- messages ---------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Show a short message on screen."""
        self.message, self._message_until = text, self.clock() + MESSAGE_SECONDS

    def current_message(self) -> str:
        return self.message if self.clock() < self._message_until else ""

    # -- keyboard ---------------------------------------------------------------------------
    def key_press(self, symbol: int, shift: bool = False) -> bool:
        """A PC key went down; True if the keymap knows it."""
        binding = self.keymap.lookup(symbol)
        if binding is None or symbol in self._held:
            return binding is not None
        if binding.kind == "control":
            self.control(binding.value, down=True)
            self._held[symbol] = (binding, shift)
            return True
        self._held[symbol] = (binding, shift)
        if binding.kind == "key":
            self._keys[binding.value] += 1
            if self._keys[binding.value] == 1:
                self._console_key(binding.value, down=True)
        else:
            self._update_keyboard_sticks()
        return True

    def key_release(self, symbol: int, shift_key: bool = False) -> None:
        """A PC key went up. Releasing Shift also lets go of keys pressed as shifted characters
        (Shift-/ is '?', but its release arrives as '/' once Shift is up)."""
        if shift_key:
            for sym in [s for s, (_, shifted) in self._held.items() if shifted]:
                self.key_release(sym)
        held = self._held.pop(symbol, None)
        if held is None:
            return
        binding = held[0]
        if binding.kind == "control":
            self.control(binding.value, down=False)
        elif binding.kind == "key":
            self._keys[binding.value] -= 1
            if self._keys[binding.value] == 0:
                del self._keys[binding.value]
                self._console_key(binding.value, down=False)
        else:
            self._update_keyboard_sticks()

    def _console_key(self, key: str, down: bool) -> None:
        """Press or release the console's ``key`` now, or when it has been down (or up) long
        enough for the BIOS's keyboard scan (videopac/console/keyhold.py)."""
        if self._hold.change(key, down, self._next_frame):
            (self.machine.press if down else self.machine.release)(key)

    def before_frame(self) -> None:
        """A frame is about to run: the key changes due by now reach the console."""
        for key, down in self._hold.due(self._next_frame):
            (self.machine.press if down else self.machine.release)(key)
        self._next_frame += 1

    def release_all(self) -> None:
        """Let go of everything (the window lost the focus: key-up events will not come)."""
        for symbol in list(self._held):
            self.key_release(symbol)

    # -- joysticks --------------------------------------------------------------------------
    def route(self, accepts: Iterable[frozenset[str]]) -> None:
        """Let joystick n listen to the keyboard and/or the gamepads as ``accepts[n]`` (sets of
        ``"keys"``, ``"gamepad"``, ``"serial"``) says; an adapter drives its stick itself."""
        self.accepts = [("keys" in a, "gamepad" in a) for a in accepts]

    def _update_keyboard_sticks(self) -> None:
        for stick in (0, 1):
            bits = frozenset().union(*(b.bits for b, _ in self._held.values()
                                       if b.kind == "joystick" and b.stick == stick))
            self._set_bits(stick, KEYBOARD, bits)

    def set_pad(self, stick: int, bits: frozenset[str]) -> None:
        """The joystick bits a gamepad holds on ``stick`` (directions and fire)."""
        self._set_bits(stick, PADS, bits)

    def _set_bits(self, stick: int, source: int, bits: frozenset[str]) -> None:
        self._bits[stick][source] = bits
        keys, pads = self.accepts[stick]
        merged = ((self._bits[stick][KEYBOARD] if keys else frozenset())
                  | (self._bits[stick][PADS] if pads else frozenset()))
        if merged != self._sent[stick]:
            self._sent[stick] = merged
            self.machine.set_joystick(stick, **{d: d in merged for d in DIRECTIONS})

    # -- controls ---------------------------------------------------------------------------
    def control(self, name: str, down: bool = True) -> None:
        """Carry out a control (videopac/console/controls.py): the window's or the ledger table's action
        for it if they set one, else the table's handler; only a held control (fast-forward)
        acts on the key going up."""
        control = BY_NAME[name]
        if not down:
            if control.release is not None:
                control.release(self)
            return
        action = self.window_actions.get(control)
        if action is not None:
            action()
        else:
            control.press(self)

    def fast_forward(self, on: bool) -> None:
        """Run as fast as the machine can while the key is held."""
        self.fast = on
        if on:
            self.say(_("fast forward"))

    def no_ledger(self) -> None:
        """A ledger key without a ledger open: say how to open one."""
        self.say(_("no ledger open: videopac play --ledger GAME.sqlite"))

    def do_help(self) -> None:
        self.help = not self.help

    def do_pause(self) -> None:
        self.paused = not self.paused
        self.say(_("paused") if self.paused else _("running"))

    def do_debug(self) -> None:
        """Pause into the debugger in the terminal that started play (docs/debugger.md)."""
        if self.debugger is None:
            self.say(_("no debugger here"))
        elif not self.debugger.active:
            self.debugger.enter()

    # -- the play window's debugger (videopac/console/debugger.py, PlayDebugger) -----------------
    def debug_pause(self) -> None:
        """The debugger takes the terminal: the game holds still."""
        self.paused = True

    def debug_show(self, lines: list[str]) -> None:
        """The registers the window shows over the picture while the debugger holds the game."""
        self.debug_lines = lines

    def debug_resume(self) -> None:
        """The debugger lets go: play on, the registers off the picture."""
        self.paused = False
        self.debug_lines = []

    def do_reset(self) -> None:
        self.machine.reset()
        self.say(_("reset"))

    def do_previous_slot(self) -> None:
        self.slot = (self.slot - 1) % SLOTS
        self.say(_("slot {slot}").format(slot=self.slot))

    def do_next_slot(self) -> None:
        self.slot = (self.slot + 1) % SLOTS
        self.say(_("slot {slot}").format(slot=self.slot))

    def do_save(self) -> None:
        try:
            paths.write_atomically(paths.state_path(self.cart, self.slot), self.machine.save_state())
        except OSError as exc:   # disk full, no permission: say so and play on
            self.say(_("slot {slot} not saved: {reason}").format(slot=self.slot, reason=os_reason(exc)))
            return
        self.say(_("saved to slot {slot}").format(slot=self.slot))

    def do_load(self) -> None:
        path = paths.state_path(self.cart, self.slot)
        try:
            state = read_at_most(path, STATE_FILE_LIMIT, _("save states"))
        except ValueError as exc:            # larger than any state: one sentence naming it
            self.say(_("slot {slot}: {reason}").format(slot=self.slot, reason=exc))
            return
        except FileNotFoundError:
            self.say(_("slot {slot} is empty").format(slot=self.slot))
            return
        except OSError as exc:
            self.say(_("slot {slot} cannot be read: {reason}").format(slot=self.slot, reason=os_reason(exc)))
            return
        try:
            self.machine.load_state(state)
        except ValueError as exc:  # the machine refuses damaged or foreign states, unchanged
            self.say(_("slot {slot}: {reason}").format(slot=self.slot, reason=str(exc).rstrip(".")))
            return
        self.say(_("loaded slot {slot}").format(slot=self.slot))

    def do_screenshot(self) -> pathlib.Path | None:
        path = paths.screenshot_path(self.cart)
        try:
            paths.write_atomically(path, palette.to_png(palette.to_rgb(self.machine.frame)))
        except OSError as exc:
            self.say(_("no screenshot: {reason}").format(reason=os_reason(exc)))
            return None
        self.say(_("screenshot {name}").format(name=path.name))
        return path

    def do_fullscreen(self) -> None:     # replaced by the window's action when there is one
        self.say(_("no window"))
