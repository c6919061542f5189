"""A game in progress: the event log, the state it folds to, and the states along the way.

``Game.play`` checks an action, hands the canonical event to ``on_accept`` (the store commits it
there) and only then adopts the new state, so what is shown is never ahead of what is saved.
"""
from __future__ import annotations

from typing import Callable, Iterable

from board_ledger import events as ev
from board_ledger import rules
from board_ledger.errors import LedgerError
from board_ledger.state import State


class Game:
    def __init__(self, events: Iterable[ev.Event] = (),
                 on_accept: Callable[[ev.Event], None] | None = None) -> None:
        self.events: list[ev.Event] = []
        self.states: list[State] = [rules.new_state()]   # after each action that still counts
        self.actions: list[ev.Event] = []                # the actions that still count
        self.on_accept = None
        for event in events:
            self.play(event)
        self.on_accept = on_accept

    @property
    def state(self) -> State:
        return self.states[-1]

    def check(self, event: ev.Event) -> tuple[State | None, ev.Event]:
        """The state after ``event`` and its canonical form, without keeping either."""
        if isinstance(event, ev.Undo):
            if not self.actions:
                raise LedgerError("nothing to undo")
            return None, event
        return rules.step(self.state, event)

    def play(self, event: ev.Event) -> ev.Event:
        """Accept one action (or undo): LedgerError if the rules refuse it, nothing changes then."""
        new_state, canonical = self.check(event)
        if self.on_accept is not None:
            self.on_accept(canonical)
        self.events.append(canonical)
        if new_state is None:            # undo: the compensating event cancels the latest action
            self.states.pop()
            self.actions.pop()
        else:
            self.states.append(new_state)
            self.actions.append(canonical)
        return canonical
