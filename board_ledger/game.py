"""A game in progress: the event log, the state it folds to, and the states along the way.

``Game.play`` checks an action and only then adopts the new state. A game read from a game file
is bound to it (``book``): then ``play`` goes through the store's transaction (board_ledger/
store.py), which first takes in what other processes stored, checks the action against that and
commits it before the state is adopted, so what is shown is never ahead of what is saved.
"""
from __future__ import annotations

from typing import Callable, Iterable

from i18n import _

from board_ledger import events as ev
from board_ledger import rules
from board_ledger.errors import LedgerError
from board_ledger.state import State

#: the most events one game keeps: a long game is some ten thousand lines, and every action keeps
#: the state after it (for undo, the effects and the chart), some kilobytes on the printed board
MAX_EVENTS = 50_000


class Game:
    def __init__(self, events: Iterable[ev.Event] = ()) -> None:
        self.events: list[ev.Event] = []
        self.states: list[State] = [rules.new_state()]   # after each action that still counts
        self.actions: list[ev.Event] = []                # the actions that still count
        self.seq = 0                # the sequence number of the latest stored event taken in
        self.book: Callable[[ev.Event], ev.Event] | None = None   # set by the store
        self.before: State = self.state                  # the state before the latest event
        self.cancelled: ev.Event | None = None           # the action the latest event undid
        for event in events:
            self.take(event)

    @property
    def state(self) -> State:
        return self.states[-1]

    def check(self, event: ev.Event) -> tuple[State | None, ev.Event]:
        """The state after ``event`` and its canonical form, without keeping either."""
        if len(self.events) >= MAX_EVENTS:
            raise LedgerError(_("a game keeps at most {most} actions and this one has them all; start "
                                "a new game").format(most=MAX_EVENTS))
        if isinstance(event, ev.Undo):
            if not self.actions:
                raise LedgerError(_("nothing to undo"))
            return None, event
        return rules.step(self.state, event)

    def adopt(self, canonical: ev.Event, new_state: State | None) -> None:
        """Keep an event ``check`` accepted (``new_state`` None: an undo)."""
        self.before = self.state         # what the latest event changed (board_ledger/effects.py)
        self.cancelled = self.actions[-1] if new_state is None else None
        self.events.append(canonical)
        if new_state is None:            # undo: the compensating event cancels the latest action
            self.states.pop()
            self.actions.pop()
        else:
            self.states.append(new_state)
            self.actions.append(canonical)

    def take(self, event: ev.Event) -> ev.Event:
        """Check and keep one event in memory only; LedgerError if the rules refuse it."""
        new_state, canonical = self.check(event)
        self.adopt(canonical, new_state)
        return canonical

    def play(self, event: ev.Event) -> ev.Event:
        """Accept one action (or undo): LedgerError if the rules refuse it, nothing changes then.
        A game bound to a file stores the action (after taking in what others stored) first."""
        if self.book is not None:
            return self.book(event)
        return self.take(event)
