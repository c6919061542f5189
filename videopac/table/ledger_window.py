"""The ledger-only window: `videopac ledger --window [--db FILE]`, for tables that fight their
battles on an original console.

A large board view and the ledger's panel; actions are typed in the notation on the line at the
bottom (the same commands as the terminal ledger, through its ``Repl``), or chosen by clicking a
country: the legal actions on it are offered below the board, and a click on one puts it on the
input line to complete (an energy) and confirm with Enter. Same rules, same game file.
"""
from __future__ import annotations

import io
from typing import Any

import pyglet
from pyglet.window import key as pkey

from i18n import _

from board_ledger import notation, rules
from board_ledger.board import shown
from board_ledger import events as ev
from board_ledger.errors import LedgerError
from board_ledger.state import State
from board_ledger.seats import PAUSE
from videopac.books.terminal import Repl
from videopac.table.panel import ACCENT, DIM, MIN_WINDOW, TEXT, WARNING, LedgerPanel

HANDLED: bool = pyglet.event.EVENT_HANDLED    # an event handler's "taken: pass it on to no one"
STRIP = 92          # the strip under the board at least: offers, the last answer, the input line
MAX_OFFERS = 8
THINK_EVERY = 0.25          # seconds between looks at the computer seats (their pause is longer)
INPUT_BOX = (6, 4, 32)      # x, y, height of the input line's box
ANSWER_SIZE = 11
MONOSPACE = ("DejaVu Sans Mono", "Liberation Mono", "Courier New", "monospace")  # the help's columns
OFFER_ROW = 30              # the offered actions' row, above the answer
BELOW_ANSWER = 40           # the input line and a gap, below the answer
STRIP_SHARE = 0.3           # an answer may make the strip this share of the window high; a longer
                            # one (help, status, board) is shown over the board until the next click


def offers_for(state: State, country: str) -> list[str]:
    """The legal actions on ``country`` now, as notation lines (German verbs and names in German
    mode); an energy still to be typed is left open at the end of the line ("war Anna ")."""
    out = []
    war_target = state.war.target if state.war else None
    for action in rules.legal_actions(state):
        on_it = (getattr(action, "country", None) == country
                 or isinstance(action, ev.Allies) and action.countries == (country,)
                 or isinstance(action, ev.War) and war_target == country)
        if on_it:
            line = notation.display_event(action)
            out.append(line[:-2] if line.endswith(f" {rules.ANY_ENERGY}") else line)
    return out


class LedgerWindow(pyglet.window.Window):  # type: ignore[misc]  # pyglet is untyped (pyproject)
    """The ledger in a window of its own: the board, the offers for a clicked country, the
    answer and the input line of the REPL it drives."""

    def __init__(self, repl: Repl, width: int = 1200, height: int = 760, **kwargs: Any) -> None:
        super().__init__(width=max(width, MIN_WINDOW[0]), height=max(height, MIN_WINDOW[1]),
                         caption=_("Conquest of the World - ledger"), resizable=True, **kwargs)
        self.set_minimum_size(*MIN_WINDOW)
        self.repl = repl
        self.panel = LedgerPanel(repl.game, large=True, title=self._title())
        self._thinking: str | None = None      # the computer seat last named as thinking
        self.answer = _("Type an action (notation) and Enter, or click a country.")
        self.answer_colour = DIM
        self.strip_height = STRIP
        self.overlay: list[Any] = []            # a long answer shown over the board (pyglet labels)
        self.offers: list[str] = []
        self.offer_boxes: list[tuple[str, tuple[int, int, int, int]]] = []
        self.batch = pyglet.graphics.Batch()
        self.document = pyglet.text.document.UnformattedDocument("")
        self.document.set_style(0, 0, {"color": TEXT, "font_size": 14})
        self.input = pyglet.text.layout.IncrementalTextLayout(self.document, 10, 6, 0, width=width - 20, height=28,
                                                              batch=self.batch)
        self.caret = pyglet.text.caret.Caret(self.input, color=(255, 255, 255))
        # the caret takes the typing only: its mouse handler would swallow every click on the board
        self.push_handlers(on_text=self.on_text_typed, on_text_motion=self.caret.on_text_motion,
                           on_text_motion_select=self.caret.on_text_motion_select)
        self.strip_labels: list[Any] = []       # pyglet labels and shapes
        self._place()

    def _title(self) -> str:
        r = self.repl
        return (_("{file}, game {game}").format(file=r.store.path.name, game=r.game_id) if r.store
                else _("Not saved (no --db)"))

    # -- layout -----------------------------------------------------------------------------
    def _place(self) -> None:
        w, h = self.get_size()
        self.panel.game, self.panel.seats = self.repl.game, self.repl.seats
        self.strip_height = self._answer_height(w, h)
        self.panel.layout(0, self.strip_height, w, h - self.strip_height)
        self.input.position = (10, 6, 0)
        self.input.width = w - 20
        self._strip()

    def _answer_label(self, text: str, width: int, batch: Any = None, group: Any = None,
                      size: float = ANSWER_SIZE, colour: tuple[int, int, int, int] | None = None,
                      ) -> Any:
        return pyglet.text.Label(text, x=10, y=0, font_size=size, color=colour or self.answer_colour,
                                 width=width, multiline=True, anchor_y="top", batch=batch, group=group)

    def _answer_height(self, w: int, h: int) -> int:
        """The strip's height: room for the whole answer, up to STRIP_SHARE of the window."""
        probe = self._answer_label(self.answer, w - 20)
        need = 4 + OFFER_ROW + probe.content_height + BELOW_ANSWER
        probe.delete()
        return STRIP if need <= STRIP else need if need <= h * STRIP_SHARE else STRIP

    def _strip(self) -> None:
        for item in self.strip_labels:
            item.delete()
        self.strip_labels, self.offer_boxes = [], []
        w = self.get_size()[0]
        self.strip_labels.append(pyglet.shapes.Rectangle(0, 0, w, self.strip_height, color=(16, 17, 24, 255),
                                                         batch=self.batch, group=pyglet.graphics.Group(0)))
        self.strip_labels.append(pyglet.shapes.Rectangle(6, 4, w - 12, 32, color=(44, 46, 60, 255),
                                                         batch=self.batch, group=pyglet.graphics.Group(0)))
        front = pyglet.graphics.Group(1)
        top = self.strip_height - 4
        self._show_overlay(None)
        text = self.answer
        answer = self._answer_label(text, w - 20, self.batch, front)
        if answer.content_height > top - OFFER_ROW - BELOW_ANSWER:       # too long for the strip
            self._show_overlay(text)
            answer.text = text.splitlines()[0] + "  " + _("(the whole answer is shown above; a click closes it)")
            while answer.content_height > 18 and len(answer.text) > 8:
                answer.text = answer.text[:-8] + "…"
        answer.y = top - OFFER_ROW
        self.strip_labels.append(answer)
        x = 10
        for line in self.offers[:MAX_OFFERS]:
            label = pyglet.text.Label(line, x=x + 6, y=top - 20, font_size=11, color=ACCENT, batch=self.batch,
                                      group=front)
            width = label.content_width + 12
            if x + width > w - 10:
                label.delete()
                break
            box = pyglet.shapes.Rectangle(x, top - 24, width, 24, color=(60, 62, 84, 255), batch=self.batch,
                                          group=pyglet.graphics.Group(0))
            self.strip_labels += [box, label]
            self.offer_boxes.append((line, (x, top - 24, width, 24)))
            x += width + 8

    def _show_overlay(self, text: str | None) -> None:
        """A long answer over the board, in as many columns and as large as fits (None: away)."""
        for item in self.overlay:
            item.delete()
        self.overlay = []
        if not text:
            return
        w, h = self.get_size()
        bottom, height = self.strip_height + 4, h - self.strip_height - 8
        lines = text.splitlines()
        back, front = pyglet.graphics.Group(2), pyglet.graphics.Group(3)
        self.overlay.append(pyglet.shapes.Rectangle(4, bottom, w - 8, height, color=(12, 13, 20, 255),
                                                    batch=self.batch, group=back))
        for size in (12, 11, 10, 9, 8, 7, 6):
            for columns in (1, 2, 3):
                per = -(-len(lines) // columns)
                col_w = (w - 28) // columns
                labels = [pyglet.text.Label("\n".join(lines[k * per:(k + 1) * per]), x=14 + k * col_w,
                                            y=bottom + height - 6, font_size=size, color=TEXT, width=col_w - 10,
                                            font_name=MONOSPACE,
                                            multiline=True, anchor_y="top", batch=self.batch, group=front)
                          for k in range(columns)]
                if all(lb.content_height <= height - 12 for lb in labels) or (size, columns) == (6, 3):
                    self.overlay += labels
                    return
                for lb in labels:
                    lb.delete()

    @property
    def labels(self) -> list[Any]:
        """Every text label on screen (the panel's and the strip's)."""
        return self.panel.labels + [x for x in self.strip_labels + self.overlay
                                    if isinstance(x, pyglet.text.Label)]

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._place()

    def on_draw(self) -> None:
        self.clear()
        self.panel.draw()
        self.batch.draw()

    # -- input ------------------------------------------------------------------------------
    def poll(self, dt: float = 0.0) -> None:
        """Take in actions another process booked in the same file (the bridge beside the
        battle); the panel shows them."""
        r = self.repl
        if not r.store:
            return
        try:
            news = r.store.refresh(r.game_id, r.game)
        except LedgerError as exc:
            self.answer, self.answer_colour = _("the game file cannot be read again: {reason}").format(
                reason=exc), WARNING
            self._place()
            return
        if news:
            self.answer, self.answer_colour = _("the game file changed: {actions}").format(
                actions=" | ".join(notation.display_event(e) for e in news)), ACCENT
            self._place()

    def think(self, dt: float = 0.0) -> None:
        """The computer seats: each move after the pause, shown with its why (docs/generals.md)."""
        seats = self.repl.seats
        thinking = seats.thinking()
        if not seats.tick() and not seats.moves:
            if thinking != self._thinking:          # the panel names whose move is thought about
                self._thinking = thinking
                self._place()
            return
        said = []
        for move in seats.moves:
            why = move.why()
            said.append(_("ok: {action}").format(action=notation.display_event(move.event))
                        + (f"  {why.say()}" if why is not None else ""))
        seats.moves = []
        self.answer, self.answer_colour = "\n".join(said), TEXT
        self.panel.title = self._title()
        self._place()

    def submit(self, line: str) -> None:
        """One line as the terminal ledger takes it; the first line of its answer is shown."""
        self.poll()                         # judge the line against the file as it is now
        out = io.StringIO()
        self.repl.out = out
        keep = self.repl.handle(line)
        text = out.getvalue().strip().splitlines()
        ok, refused = _("ok: {action}").format(action=""), _("refused: {reason}").format(reason="")
        verdicts = [i for i, t in enumerate(text) if t.startswith((ok, refused))]
        if verdicts:                # an action: the verdict and what it did, not the news before it
            start = verdicts[0]
            said = [t.strip() for t in text[start + 1:] if t.startswith("  ")]
            text = [text[start]] + said
        self.answer = "\n".join(text)
        self.answer_colour = WARNING if self.answer.startswith(refused) else TEXT
        if not keep:
            self.close()
            return
        self.offers, self.panel.selected = [], None
        self.panel.title = self._title()
        self._place()

    def dismiss(self) -> None:
        """Close a long answer shown over the board; its first line stays in the strip."""
        self.answer = self.answer.splitlines()[0] if self.answer else ""
        self._place()

    def on_text_typed(self, text: str) -> bool:
        """Typed text goes onto the input line; Enter's line break does not (Enter books)."""
        text = text.replace("\r", "").replace("\n", "")
        if text:
            self.caret.on_text(text)
        return HANDLED

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        if symbol in (pkey.RETURN, pkey.NUM_ENTER):
            line = self.document.text.strip()
            self.document.text = ""
            if line:
                self.submit(line)
            return HANDLED
        if symbol == pkey.ESCAPE:           # clears the line instead of closing the window
            self.document.text = ""
            if self.overlay:
                self.dismiss()
            return HANDLED
        return None

    def choose(self, country: str | None) -> None:
        """A country was clicked: offer the legal actions on it."""
        self.panel.selected = country
        self.offers = offers_for(self.repl.game.state, country) if country else []
        if country:
            self.answer = (_("{country}: click an action, complete it if needed, Enter to book")
                           if self.offers else _("{country}: no action on it is legal now")).format(
                country=shown(country))
            self.answer_colour = TEXT
        self._place()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.overlay:                    # a click closes a long answer
            self.dismiss()
            return
        for line, (bx, by, bw, bh) in self.offer_boxes:
            if bx <= x < bx + bw and by <= y < by + bh:
                self.document.text = line
                self.caret.position = len(line)
                return
        bx, by, bh = INPUT_BOX
        if bx <= x and by <= y < by + bh:   # on the input line: the caret moves there
            self.caret.on_mouse_press(x, y, button, modifiers)
            return
        country = self.panel.country_at(x, y)
        if country is not None or y > self.strip_height:
            self.choose(country)


def run_window(db: str | None, boards: str | None = None, pause: float = PAUSE) -> int:
    """Open the window on the game file (the latest game in it) and run until it is closed."""
    repl = Repl(db, boards=boards, pause=pause)
    try:
        window = LedgerWindow(repl)
        pyglet.clock.schedule_interval(window.poll, 1.0)
        pyglet.clock.schedule_interval(window.think, THINK_EVERY)
        pyglet.app.run(1 / 30)
    finally:
        if repl.store:
            repl.store.close()
    return 0
