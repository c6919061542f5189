"""The computer seats of a game at the table: whose move is being thought about, and the
general's move booked after a short pause, through the same store as everybody's.

Every front end that holds a game (the terminal ledger, the ledger window, the phones' server,
`videopac play --ledger`) keeps one ``Seats`` and calls ``tick`` often. Several processes may do
so on one game file: each books a general's move only on the state it decided on (``Store.apply``
with ``after``), so a move is booked once, by whichever process comes first, and the others take
it in as news. A general's choice depends only on the game (its dice are seeded by the seat and
the number of events), so every process would choose the same; and the sentence of why is said
from the state (``general.explain``), so every screen shows the same sentence.

A battle is not a seat's decision: a war waits for the battle program (docs/generals.md), except
that ``fight`` (given by a front end that can run the battle program headless) decides a war
between two computer generals.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from board_ledger import events as ev
from board_ledger import general
from board_ledger.computer_game import Fight, battle_events
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.general import Because, General
from board_ledger.state import State
from board_ledger.store import Store

PAUSE = 1.5          # seconds a general's move waits, so that the table can follow it


def level(s: State, name: str) -> str:
    """The level of ``name``'s general, "" for a person."""
    return next((p.general for p in s.players if p.name == name), "")


def computers(s: State) -> list[str]:
    """The seats a computer general plays, in seating order."""
    return [p.name for p in s.players if p.general]


def thinking(s: State) -> str | None:
    """The computer seat whose move the game waits for now (None: a person's, a battle's, nobody's)."""
    if s.phase == "over":
        return None
    if s.phase == "setup":
        return s.names[0] if s.players and len(computers(s)) == len(s.players) else None
    name = general.whose_decision(s)
    return name if name and level(s, name) else None


def fighting(s: State) -> tuple[str, str] | None:
    """The two computer generals of the war or confrontation now, when both seats are computers."""
    pair = general.fighters(s)
    if pair and all(level(s, n) for n in pair):
        return pair
    return None


def general_of(s: State, name: str, events: int) -> General:
    """The general at ``name``'s seat, its dice seeded by the seat and the game's length."""
    return General(level(s, name) or general.DEFAULT_LEVEL, random.Random(f"{name}:{events}"))


def latest_why(game: Game) -> tuple[str, Because] | None:
    """The latest action of a computer seat that still counts, said as its general's why."""
    for before, action in zip(reversed(game.states[:-1]), reversed(game.actions)):
        who = general.actor(before, action) or (before.names[0] if isinstance(action, ev.Draw) else None)
        if who and level(before, who):
            why = general.explain(before, action, who)
            return (who, why) if why else None
        if who:
            return None                  # a person's move is the latest
    return None


@dataclass(frozen=True)
class Move:
    """One event a general booked, with the states before and after it (for effects and why)."""
    before: State
    event: ev.Event
    after: State

    def why(self) -> Because | None:
        return general.explain(self.before, self.event)


def entry(s: State, events: int) -> Because | None:
    """In a war or confrontation between a person and a general fought on a console without the
    bridge: the general's side of the next battle, as the people type it for it."""
    pair = general.fighters(s)
    if pair is None or [bool(level(s, n)) for n in pair].count(True) != 1:
        return None
    name = next(n for n in pair if level(s, n))
    weapon, _why = general_of(s, name, events).weapon(s, name)
    energy = general.entry_energies(s)[pair.index(name)]
    return general.because(general.WHY["entry"], name=name, weapon=general.Weapon(weapon),
                           letter=weapon, energy=energy)


class Seats:
    """The computer seats of one game as a front end drives them: ``tick`` now and then."""

    def __init__(self, game: Game, store: Store | None = None, game_id: int = 0,
                 pause: float = PAUSE, clock: Callable[[], float] = time.monotonic,
                 fight: Fight | None = None) -> None:
        self.game, self.store, self.game_id = game, store, game_id
        self.pause, self.clock, self.fight = pause, clock, fight
        self._seen = -1
        self._since = clock()
        self.trouble = ""                # what went wrong in the latest decision, if anything
        self.moves: list[Move] = []      # what the latest move_now booked, with the states around
        self.note: Because | None = None  # a general's word outside a booking (its weapon at entry)

    def thinking(self) -> str | None:
        """The computer seat whose move is being thought about now (shown on every screen)."""
        s = self.game.state
        name = thinking(s)
        pair = fighting(s) if self.fight is not None else None
        return name or (pair[0] if pair else None)

    def tick(self) -> list[ev.Event]:
        """Book the awaited computer move once the game has been still for the pause; the events
        booked (none: nothing to do yet, or another process booked first)."""
        due = self.due()
        return [] if due is None else self.book(self.plan(*due), due[1])

    def due(self) -> tuple[State, int] | None:
        """The state and its number of events on which a computer move is awaited now, once
        the game has been still for the pause; None while nothing is due. A front end that
        must stay answering (the phones' server) plans the move away from its loop and books
        it after: a war between two generals is a whole battle on the emulator."""
        events = len(self.game.events)
        now = self.clock()
        if events != self._seen:
            self._seen, self._since = events, now
            return None
        if now - self._since < self.pause:
            return None
        return self.game.state, events

    def plan(self, s: State, events: int) -> list[ev.Event]:
        """What the computer seats do on state ``s`` (a state is never changed in place, so
        this may run beside the front end); none if a general failed (``trouble`` says why)."""
        try:
            return self._plan(s, events)
        except Exception as exc:         # noqa: BLE001 - a general never stops the game (issue 27)
            self.trouble = f"{type(exc).__name__}: {exc}"
            return []

    def book(self, planned: list[ev.Event], events: int) -> list[ev.Event]:
        """Book ``planned``, decided on the game's state at ``events`` events; nothing if the
        game has moved on since (a person or another process was first: their move stands)."""
        booked: list[ev.Event] = []
        if len(self.game.events) == events:
            booked = self._book_all(planned)
        self._seen, self._since = len(self.game.events), self.clock()
        return booked

    def move_now(self) -> list[ev.Event]:
        """Book the awaited computer move at once (for a front end that keeps its own pause);
        the events booked."""
        return self._book_all(self.plan(self.game.state, len(self.game.events)))

    def _book_all(self, planned: list[ev.Event]) -> list[ev.Event]:
        seq = self.game.seq
        booked = []
        self.moves = []
        for action in planned:
            try:
                event = self._book(action, seq)
            except LedgerError:
                break                    # someone else was first: their move stands
            booked.append(event)
            self.moves.append(Move(self.game.before, event, self.game.state))
            seq = self.game.seq
        return booked

    def _plan(self, s: State, events: int) -> list[ev.Event]:
        name = thinking(s)
        if name is not None:
            g = general_of(s, name, events)
            decision = g.draw(s) if s.phase == "setup" else g.decide(s, name)
            return [decision.action] if decision else []
        pair = fighting(s)
        if pair and self.fight is not None:
            generals = {n: general_of(s, n, events) for n in pair}
            return battle_events(s, generals, self.fight, events)
        return []

    def _book(self, action: ev.Event, seq: int) -> ev.Event:
        if self.store is None:
            return self.game.play(action)
        return self.store.apply(self.game_id, action, self.game, after=seq).event
