"""`videopac play`: the console on the table — a window with sound, keyboard and gamepads.

Without a cartridge file it plays the built-in battle program on the built-in open BIOS.
"""
from __future__ import annotations

import argparse
import gc
import os
import pathlib
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cartridge.images import builtin_image
from cartridge.romfile import RomFileError, load_bios, load_cart
from i18n import N_, _, os_reason
from safefiles import open_text_output
from videopac import BAD_INPUT, TROUBLE, UsageError, fail
from videopac.battle.computer import (Computer, ComputerSpecError, add_computer_arguments,
                                      parse_specs, players)
from videopac.battle.published import SymbolFileError, symbols_for
from videopac.console import audio, keymap, paths
from videopac.console.audio import SampleQueue
from videopac.console.display import display_found
from videopac.console.pacing import Pacer
from videopac.console.record import Recorder
from videopac.sticks import gamepads
from videopac.sticks.routing import (JoystickSpec, JoystickSpecError, add_joystick_argument,
                                     open_serial_sources, parse_joystick_specs, routing)
from videopac.sticks.serial_line import SerialJoystickSource

# Imported where they are used, not here, to keep `videopac play --help` and a refused command
# line quick: pyglet (its window and GL modules), o2em_core (numba), and the modules built on
# them: videopac.console.session (o2em_core), videopac.console.window and videopac.table.wiring
# (pyglet); also videopac.console.debugger, which builds its tables of the 8048's instructions
# as it is imported.
if TYPE_CHECKING:
    from videopac.console.session import Session
    from videopac.console.window import PlayWindow
    from videopac.table.wiring import LedgerTable

PROG = "videopac play"
SAMPLE_RATE = 44100
TICK = 1 / 120          # event-loop ticks per second: frames land within 8 ms of their time
FAST_FORWARD = 4        # speed while the fast-forward key is held
HEADLESS = N_("no display was found; to run without a window use "
              "'videopac run --headless CART.bin' (see 'videopac run --help').")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cart", nargs="?", metavar=_("CART"),
                        help=_("cartridge ROM file (default: the built-in battle program)"))
    parser.add_argument("--bios", metavar=_("FILE"), help=_("BIOS ROM file (default: the built-in open BIOS)"))
    parser.add_argument("--region", choices=("pal", "ntsc"), default="pal",
                        help=_("Videopac G7000 (pal, 49.7 Hz, default) or Odyssey² (ntsc, 59.9 Hz)"))
    parser.add_argument("--scale", type=int, default=3, metavar="N",
                        help=_("window size: N screen pixels per scanline (default 3)"))
    parser.add_argument("--fullscreen", action="store_true", help=_("start in fullscreen"))
    parser.add_argument("--swap-joysticks", action="store_true",
                        help=_("first gamepad is joystick 1, second is joystick 0"))
    parser.add_argument("--keymap", metavar=_("FILE"), type=pathlib.Path,
                        help=_("keymap file (default: ~/.config/videopac/keymap.toml if present)"))
    parser.add_argument("--ledger", metavar=_("GAME.sqlite"),
                        help=_("open this ledger game file beside the battle (F4 shows/hides it); "
                               "the bridge proposes the results of the wars to book"))
    parser.add_argument("--quick", action="store_true",
                        help=_("with --ledger: a war between two computer generals is fought "
                               "headless at once instead of on screen (docs/generals.md)"))
    parser.add_argument("--write-keymap", action="store_true",
                        help=_("write the default keymap to ~/.config/videopac/keymap.toml to edit"))
    add_joystick_argument(parser)       # --joystick N=serial:PORT (docs/serial-joystick.md)
    add_computer_arguments(parser)      # --computer red|blue[:level] (docs/conquest.md)
    parser.add_argument("--record", metavar=_("FILE"),
                        help=_("write what is played (keys and sticks, frame by frame) to FILE as "
                               "an input script; 'videopac run --input FILE' replays it"))
    parser.add_argument("--sym", metavar=_("FILE"), action="append", default=[],
                        help=_("symbol file for the debugger (Scroll Lock pauses into it; default: "
                               "CART.json beside the cartridge and the BIOS symbols)"))


def refuse(message: str, status: int = BAD_INPUT) -> int:
    """Say what is wrong in one sentence after `videopac play` on stderr; the exit status."""
    return fail(PROG, message, status)


def load_roms(args: argparse.Namespace) -> tuple[bytes, bytes]:
    """(bios, cart) bytes from the files given or the built-in images; RomFileError says what
    is wrong with a given file in one sentence."""
    bios = load_bios(args.bios) if args.bios else builtin_image("bios")
    cart = load_cart(args.cart) if args.cart else builtin_image("conquest")
    return bios, cart


class Loop:
    """One tick of the play loop: emulate the frames the pacer asks for, queue their sound,
    show the last picture. Separate from pyglet's event loop so that it can be measured."""

    def __init__(self, session: Session, window: PlayWindow, queue: SampleQueue, pacer: Pacer,
                 sound: bool = True, sources: Sequence[SerialJoystickSource] = (),
                 players: Sequence[Computer] = ()) -> None:
        self.session, self.window, self.queue, self.pacer = session, window, queue, pacer
        self.sound = sound
        # called after each emulated frame (the ledger bridge)
        self.on_frame: Callable[[], None] | None = None
        self.sources = sources          # joystick adapters: their sticks win over other inputs
        self.players = players          # computer opponents: they move their stick every frame
        self._shown: tuple[object, ...] = ()

    def tick(self, now: float) -> int:
        session, machine = self.session, self.session.machine
        for source in self.sources:
            source.apply(machine)
            for text in source.poll_messages():
                session.say(text)
        debugger = getattr(session, "debugger", None)    # None: a session without a terminal
        if debugger is not None and debugger.active:
            debugger.poll()
        if session.paused:
            self.pacer.resync()
            return 0
        fast = session.fast
        queued = len(self.queue) if self.sound and not fast else int(self.pacer.lead)
        frames = self.pacer.due(now, queued, FAST_FORWARD if fast else 1.0)
        for _frame in range(frames):
            session.before_frame()        # keys tapped shorter than a frame are still seen
            for player in self.players:
                player.step(machine)
            if debugger is not None and debugger.armed:
                debugger.run_frame()      # breakpoints set: stop on them (docs/debugger.md)
                if session.paused:        # stopped inside the frame: show where
                    self.window.show(machine.frame)
                    return frames
            else:
                machine.run_frame()
            if self.on_frame is not None:
                self.on_frame()
            samples = machine.audio()
            if self.sound and not fast:
                self.queue.push(samples)
        if frames:
            self.window.show(machine.frame)
        return frames

    def needs_redraw(self, frames: int) -> bool:
        """A new frame, or a change of what is written on the screen."""
        s = self.session
        shown = (s.current_message(), s.help, s.paused, s.fast, tuple(getattr(s, "debug_lines", ())))
        changed, self._shown = shown != self._shown, shown
        return bool(frames) or changed


def write_keymap() -> int:
    """Copy the default keymap to the user's config folder, never over an existing file."""
    target = paths.user_keymap()
    if target.exists():
        return refuse(_("{path} exists already; edit it, or remove it to start again.").format(path=target))
    paths.write_atomically(target, keymap.default_text().encode("utf-8"))
    print(_("wrote {path}").format(path=target))
    return 0


def main(args: argparse.Namespace) -> int:
    """Open the window and play until it is closed; 2 with one sentence for a bad request."""
    if args.write_keymap:
        return write_keymap()
    try:
        joysticks = parse_joystick_specs(args.joystick)
        chosen = parse_specs(args.computer)
    except (JoystickSpecError, ComputerSpecError) as exc:
        return refuse(f"{str(exc).rstrip('.')}.")
    taken = {spec.joystick for spec in joysticks} & {side for side, _ in chosen}
    if taken:
        return refuse(_("joystick {n} cannot be both --joystick and --computer; choose one.")
                    .format(n=min(taken)))
    if not display_found():
        return refuse(_(HEADLESS))
    if args.scale < 1:
        return refuse(_("--scale must be 1 or more."))
    try:
        bios, cart = load_roms(args)
    except RomFileError as exc:
        return refuse(f"{exc}.")
    try:
        computers = players(args.computer, symbols_for(args.cart or None), args.seed)
    except (SymbolFileError, ComputerSpecError) as exc:
        return refuse(f"{str(exc).rstrip('.')}.")

    import pyglet       # lazy: see the imports
    pyglet.options["shadow_window"] = False   # one window; lets key names load before it opens
    pyglet.options["debug_gl"] = False        # no glGetError after every call: frame time matters
    user = args.keymap or (paths.user_keymap() if paths.user_keymap().exists() else None)
    try:
        keys = keymap.load(user)
    except keymap.KeymapError as exc:
        return refuse(str(exc))

    try:   # connect before the machine is built (its first start compiles for a while)
        screen = pyglet.display.get_display().get_default_screen()
    except Exception as exc:  # pyglet raises its own classes per platform for "no display"
        if "Display" in type(exc).__name__:
            return refuse(_(HEADLESS))
        return refuse(_("cannot use the display {display} ({reason}).").format(
            display=os.environ.get("DISPLAY", ""), reason=exc))

    table = None
    if args.ledger:
        from videopac.table import wiring as table_mod     # lazy: see the imports
        try:
            table = table_mod.open_table(args.ledger, args.cart, args.quick)
        except table_mod.CannotOpenTable as exc:
            return refuse(str(exc), exc.status)

    recording = None
    if args.record:
        try:
            recording = open_text_output(args.record)      # a FIFO nobody reads: refused
        except OSError as exc:
            return refuse(_("cannot write {path}: {reason}.").format(path=args.record,
                                                                     reason=os_reason(exc)), TROUBLE)
    from videopac.console import debugger        # lazy: see the imports
    try:
        symbols = debugger.symbols_of(args.cart, args.bios, args.sym)
    except UsageError as exc:
        return refuse(f"{exc}.")

    from o2em_core import Machine                # lazy: see the imports
    machine = Machine(bios, cart, region=args.region, sample_rate=SAMPLE_RATE)
    recorder = None
    if recording is not None:
        recorder = Recorder(machine, recording, args.record,     # a full disk: say it, play on
                            lambda sentence: say_everywhere(session, sentence))

    from videopac.console.session import Session         # lazy: see the imports
    session = Session(machine if recorder is None else recorder, keys,
                      paths.cartridge_name(args.cart, "conquest"))
    session.debugger = debugger.PlayDebugger(session, symbols)
    try:
        window = open_window(session, args, screen, table)
    except Exception as exc:  # no usable OpenGL configuration, window refused by the system
        return refuse(_("cannot open a window ({reason}).").format(reason=exc))
    try:
        return run(session, window, swap=args.swap_joysticks, joysticks=joysticks,
                   on_frame=table.attach(session, window) if table else None,
                   players=computers)
    finally:
        if table:
            table.close()
        if recorder is not None:
            recorder.close()


def say_everywhere(session: Session, sentence: str) -> None:
    """A sentence the player must not miss (a recording that stopped): in the terminal that
    started play and on the screen."""
    print(f"videopac play: {sentence}.", file=sys.stderr)   # i18n: untranslated (the sentence is)
    session.say(sentence)


def open_window(session: Session, args: argparse.Namespace, screen: Any,
                table: LedgerTable | None = None) -> PlayWindow:
    """The play window at ``--scale``, or at the largest scale that fits ``screen`` (with the
    ledger panel beside the picture when a table is open); ``screen`` is pyglet's."""
    from videopac.console.window import HEIGHT, WIDTH, PlayWindow, block     # lazy: see the imports

    def side(scale: int) -> tuple[int, int]:
        return table.side(block(args.region, scale)[0] * WIDTH) if table else (0, 0)
    scale = min(args.scale, screen.height // HEIGHT + 1)    # a huge --scale: no long count down
    while scale > 1 and (block(args.region, scale)[0] * WIDTH + side(scale)[0] > screen.width
                         or HEIGHT * scale > screen.height * 0.9):   # room for the title bar
        scale -= 1
    return PlayWindow(session, args.region, scale, args.fullscreen, title=f"Videopac - {session.cart}",
                      side=side(scale))


def listen(session: Session, accepts: Iterable[frozenset[str]],
           players: Iterable[Computer] = ()) -> None:
    """Route each joystick to its inputs (``accepts``, see videopac/sticks/routing.py); a stick the
    computer plays listens to no keys or gamepads."""
    accepts = list(accepts)
    for player in players:
        accepts[player.side] = frozenset()
    session.route(accepts)


def run(session: Session, window: PlayWindow, swap: bool = False,
        on_frame: Callable[[], None] | None = None, joysticks: Sequence[JoystickSpec] = (),
        players: Sequence[Computer] = ()) -> int:
    """Wire sound, gamepads and the pacer to the window and play until it is closed."""
    import pyglet       # lazy: see the imports

    # everything loaded so far (numba's compiler, pyglet, the machine) lives until the end:
    # exempt it from the garbage collector, whose full passes over it would stall frames
    gc.freeze()

    machine = session.machine
    queue = SampleQueue()
    try:
        player = audio.start(queue, SAMPLE_RATE, machine.fps)
    except Exception as exc:  # no sound device: play on, paced by the clock alone
        player = None
        session.say(_("no sound ({reason})").format(reason=exc))
    route = routing(joysticks, swap)       # --joystick: which input drives which stick
    listen(session, route.accepts, players)
    try:
        # both live as long as this function: pyglet holds event handlers by weak reference
        pads = gamepads.Gamepads(session.set_pad, say=session.say, order=route.pads)
        manager = pyglet.input.ControllerManager()
        pads.attach(manager)
    except Exception:  # no gamepad support on this system: the keyboard still works
        pass
    sources = open_serial_sources(joysticks)      # background readers: they never block
    loop = Loop(session, window, queue, Pacer(machine.fps, SAMPLE_RATE), sound=player is not None,
                sources=sources, players=players)
    loop.on_frame = on_frame

    def tick(dt: float) -> None:
        if window.has_exit:            # closed: the event loop ends after this round
            return
        if loop.needs_redraw(loop.tick(time.perf_counter())) or window.invalid:
            window.invalid = False
            window.draw(dt)

    window.push_handlers(on_close=pyglet.app.exit)
    pyglet.clock.schedule_interval(tick, TICK)
    try:
        pyglet.app.run(None)
    finally:
        pyglet.clock.unschedule(tick)
        if player is not None:
            player.delete()
        for source in sources:
            source.close()
    return 0
