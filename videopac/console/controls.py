"""The app's controls, one row each: name, default PC keys, what it does, its name on the F1
overlay, and the session's handler.

The keymap checks control names against this table and takes the default ``[controls]`` table
from it (videopac/console/keymap.py), the session calls the handler (videopac/console/session.py), the window
writes the overlay's last line from it (videopac/console/window.py) and the ledger panel its line of
ledger keys (videopac/table/panel.py), each with the keys the player's keymap binds. The window and the ledger table put
their own action for a control into ``Session.window_actions``, keyed by the row (``named``
refuses a name that is not one): fullscreen, the ledger keys; the handler here is what happens
without them. A new control is one row here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from i18n import N_


class Player(Protocol):
    """What the controls act on: the session (videopac/console/session.py) has one method per
    handler below. Declared here so that the table needs nothing of the session but these."""

    def do_help(self) -> None: ...
    def do_save(self) -> None: ...
    def do_load(self) -> None: ...
    def do_previous_slot(self) -> None: ...
    def do_next_slot(self) -> None: ...
    def do_reset(self) -> None: ...
    def do_pause(self) -> None: ...
    def fast_forward(self, on: bool) -> None: ...
    def do_screenshot(self) -> object: ...
    def do_fullscreen(self) -> None: ...
    def do_debug(self) -> None: ...
    def no_ledger(self) -> None: ...


@dataclass(frozen=True)
class Control:
    """One control of the app."""
    name: str                            # as written in the keymap file
    keys: tuple[str, ...]                # default PC keys (pyglet key names)
    comment: str                         # what it does, beside it in the default keymap file
    label: str | None                    # its name on the F1 overlay (N_), None: not shown there
    press: Callable[[Player], object]    # what the key going down does (its value is not used)
    release: Callable[[Player], None] | None = None    # for a control that acts while held
    panel: str | None = None             # what it does on the ledger panel's key line (N_), None: not there


def _fast(down: bool) -> Callable[[Player], None]:
    return lambda session: session.fast_forward(down)


CONTROLS: tuple[Control, ...] = (
    Control("help", ("F1",), "show the Videopac keyboard and where it is on the PC keyboard",
            N_("help"), lambda s: s.do_help()),
    Control("save", ("F2",), "save the state into the current slot", N_("save"), lambda s: s.do_save()),
    Control("load", ("F3",), "load the state of the current slot", N_("load"), lambda s: s.do_load()),
    Control("slot-", ("F6",), "previous save slot (0-9)", N_("slot-"), lambda s: s.do_previous_slot()),
    Control("slot+", ("F7",), "next save slot", N_("slot+"), lambda s: s.do_next_slot()),
    Control("reset", ("F5",), "the console's RESET key", N_("reset"), lambda s: s.do_reset()),
    Control("pause", ("F8", "PAUSE"), "pause or go on", N_("pause"), lambda s: s.do_pause()),
    Control("fast-forward", ("TAB",), "while held", N_("fast-forward"), _fast(True), _fast(False)),
    Control("screenshot", ("F12",), "a PNG of the picture", N_("screenshot"), lambda s: s.do_screenshot()),
    Control("fullscreen", ("F11",), "fullscreen or window", N_("fullscreen"), lambda s: s.do_fullscreen()),
    Control("leave-fullscreen", ("ESCAPE",), "back to the window", None, lambda s: s.do_fullscreen()),
    Control("debug", ("SCROLLLOCK",), "pause into the debugger in the terminal that started play",
            None, lambda s: s.do_debug()),
    # with a ledger open (videopac play --ledger GAME.sqlite; videopac/table/wiring.py), in the order of
    # the panel's key line; Tab is fast forward, so F4 toggles
    Control("confirm", ("F9",), "book the result the bridge proposes", None, lambda s: s.no_ledger(),
            panel=N_("book it")),
    Control("next-choice", ("PAGEDOWN",), "the other proposal, when the players must choose the winner",
            None, lambda s: s.no_ledger(), panel=N_("other choice")),
    Control("swap-sides", ("F10",), "the fighters hold the other controllers (red <-> blue)", None,
            lambda s: s.no_ledger(), panel=N_("swap controllers")),
    Control("undo", ("END",), "take back the latest ledger action", None, lambda s: s.no_ledger(),
            panel=N_("undo it")),
    Control("ledger", ("F4",), "show / hide the ledger panel beside the battle", N_("ledger"),
            lambda s: s.no_ledger(), panel=N_("hide")),
)
BY_NAME: dict[str, Control] = {c.name: c for c in CONTROLS}


def named(name: str) -> Control:
    """The control called ``name``; a name that is not a row here is refused at once (a
    programming error: a misspelt action would otherwise never fire)."""
    try:
        return BY_NAME[name]
    except KeyError:
        known = ", ".join(BY_NAME)
        raise KeyError(f"{name!r} is not a control of videopac/console/controls.py ({known})") from None  # i18n: untranslated (a bug)


def keymap_table() -> str:
    """The default ``[controls]`` table as the keymap file writes it, one line per PC key."""
    ledger = ", ".join(c.name for c in CONTROLS if c.panel)
    lines = ["# Controls of the app (videopac/console/controls.py). With a ledger open (videopac play",
             f"# --ledger GAME.sqlite), these act on it: {ledger}.", "[controls]"]
    for control in CONTROLS:
        for pc in control.keys:
            binding = f'{pc} = "{control.name}"'
            lines.append(f"{binding:<22} # {control.comment}")
    return "\n".join(lines) + "\n"
