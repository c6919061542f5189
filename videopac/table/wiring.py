"""The table: `videopac play --ledger GAME.sqlite` — the battle on the console and the board
game's ledger beside it, joined by the battle bridge.

Opens the ledger's game file (its latest game), finds the battle program's symbol file, and wires
the bridge to the play loop (one snapshot per emulated frame) and the panel to the window. The
ledger keys (F4, F9, PgDn, F10, End) act on the bridge and the game file; every booking goes
through ``Game.play``, so it is committed to the file before the panel shows it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from i18n import _

from board_ledger.errors import LedgerError, StoreError
from board_ledger.game import Game
from board_ledger.store import Store
from videopac import BAD_INPUT
from videopac.battle.published import SymbolFileError, decode, symbols_for
from videopac.console.controls import named
from videopac.table.bridge import Bridge, Snapshot, colour_name
from videopac.table.generals import Generals
from videopac.table.panel import MIN_PLAY, LedgerPanel, shown_line

if TYPE_CHECKING:
    from videopac.console.session import Session
    from videopac.console.window import PlayWindow


POLL_FRAMES = 25           # look for actions booked by another process about twice a second


class CannotOpenTable(Exception):
    """The ledger file or the cartridge's symbols cannot be used; one sentence, and the exit
    status: BAD_INPUT, or TROUBLE when the file is locked or the disk refuses."""

    def __init__(self, message: str, status: int = BAD_INPUT) -> None:
        super().__init__(message)
        self.status = status


class LedgerTable:
    """The ledger game, the bridge and the panel of one playing session."""

    def __init__(self, store: Store, game_id: int, game: Game, symbols: dict[str, int],
                 quick: bool = False) -> None:
        self.store, self.game_id, self.game, self.symbols = store, game_id, game, symbols
        self.bridge = Bridge(game)
        self.panel = LedgerPanel(game, self.bridge, title=_("Ledger {file} game {game}").format(
            file=store.path.name, game=game_id))
        self.generals = Generals(game, store, game_id, self.bridge, symbols, quick=quick)
        self.panel.seats = self.generals.seats
        self.session: Session | None = None

    @staticmethod
    def side(picture_width: int) -> tuple[int, int]:
        """The room (width, least height) to open the play window with, right of the picture."""
        return max(MIN_PLAY[0], picture_width // 2), MIN_PLAY[1]

    def attach(self, session: Session, window: PlayWindow) -> Callable[[], None]:
        """Put the panel beside the picture and the ledger keys on the session; returns the
        per-frame callback of the play loop."""
        self.session = session
        self.panel.keymap = session.keymap      # the key line names the player's own keys
        window.attach_panel(self.panel)
        session.window_actions.update({
            named("ledger"): window.toggle_panel, named("confirm"): self.confirm,
            named("next-choice"): self.next_choice, named("swap-sides"): self.swap,
            named("undo"): self.undo})
        machine, symbols, bridge = session.machine, self.symbols, self.bridge
        frames = 0

        def on_frame() -> None:
            nonlocal frames
            frames += 1
            if frames % POLL_FRAMES == 0:
                self.reload()
            decoded = decode(machine.iram, symbols)
            assert decoded is not None       # open_table refused symbols that do not publish it
            snap = Snapshot.of(decoded)
            bridge.observe(snap)
            booked = self.generals.frame(machine, snap)       # the computer seats (docs/generals.md)
            if booked:
                self.say(_("booked: {actions}").format(actions=" | ".join(shown_line(b) for b in booked[-1:])))
        return on_frame

    def reload(self) -> bool:
        """Take in actions another process booked in the same file (e.g. the attack typed in
        `videopac ledger --window`); True if there were any."""
        try:
            news = self.store.refresh(self.game_id, self.game)
        except LedgerError as exc:
            self.say(_("the ledger file cannot be read again: {reason}").format(reason=exc))
            return False
        if news:
            self.bridge.sync()
        return bool(news)

    def say(self, text: str) -> None:
        if self.session is not None:
            self.session.say(text)

    def confirm(self) -> None:
        if self.reload():
            self.say(_("the ledger changed in another window: check the proposal again"))
            return
        if not self.bridge.proposal:
            self.say(_("nothing to book yet"))
            return
        try:
            booked = self.bridge.confirm()
        except LedgerError as exc:
            self.say(_("refused: {reason}").format(reason=exc))
            return
        self.say(_("booked: {actions}").format(actions=" | ".join(shown_line(b) for b in booked[-1:])))

    def next_choice(self) -> None:
        self.bridge.next_choice()
        if self.bridge.proposal:
            self.say(_("to book: {action}").format(action=shown_line(self.bridge.proposal[-1])))

    def swap(self) -> None:
        self.bridge.swap()
        self.say(", ".join(f"{n} {colour_name(c)}" for n, c in self.bridge.colour.items())
                 or _("no war: nothing to swap"))

    def undo(self) -> None:
        self.reload()
        try:
            self.bridge.undo()
        except LedgerError as exc:
            self.say(_("refused: {reason}").format(reason=exc))
            return
        self.say(_("undone: the latest ledger action"))

    def close(self) -> None:
        self.store.close()


def _status(exc: LedgerError) -> int:
    """A game file's trouble (locked, disk full: StoreError.code) or BAD_INPUT."""
    return exc.code if isinstance(exc, StoreError) else BAD_INPUT


def open_table(path: str, cart: str | None, quick: bool = False) -> LedgerTable:
    """The ledger file ``path`` (created if missing) beside the cartridge ``cart`` (None: the
    built-in battle program); CannotOpenTable says what is wrong in one sentence."""
    what = _("the built-in battle program") if cart is None else cart
    try:
        symbols = symbols_for(cart)
    except SymbolFileError as exc:
        raise CannotOpenTable(str(exc)) from None
    if symbols is None:
        raise CannotOpenTable(_("{what} has no symbol file (CART.json beside CART.bin); the "
                                "ledger bridge reads the battles through it").format(what=what))
    if decode(bytes(64), symbols) is None:
        raise CannotOpenTable(_("the symbol file of {what} does not publish the battle program's "
                                "symbols (docs/conquest.md); the ledger needs our battle "
                                "program").format(what=what))
    try:
        store = Store(path)
    except LedgerError as exc:
        raise CannotOpenTable(str(exc), _status(exc)) from None
    try:
        game_id, game = store.load()
    except LedgerError as exc:
        store.close()
        raise CannotOpenTable(str(exc), _status(exc)) from None
    return LedgerTable(store, game_id, game, symbols, quick)
