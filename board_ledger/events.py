"""The events of a game: one per accepted action; the game state is the fold of the events.

Every line of the notation becomes one event. ``undo`` is itself an event (a compensating event): it
cancels the latest action not yet cancelled, so the log only ever grows.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterable

from i18n import _

from board_ledger.errors import LedgerError

if TYPE_CHECKING:
    from board_ledger.state import State


@dataclass(frozen=True)
class Event:
    """Base of every event; ``verb`` is the notation word that writes it."""

    verb: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.verb, **dataclasses.asdict(self)}


@dataclass(frozen=True)
class BoardFile(Event):
    """Replace the printed board by a custom board file (variant 3); the text travels with the game."""
    verb: ClassVar[str] = "board"
    name: str
    text: str = ""


@dataclass(frozen=True)
class SetValue(Event):
    """Change one country's value before the game (variant 3)."""
    verb: ClassVar[str] = "value"
    country: str
    value: int


@dataclass(frozen=True)
class SetZone(Event):
    """Move one country to another zone, at the end of its printed list (variant 3)."""
    verb: ClassVar[str] = "zone"
    country: str
    zone: int


@dataclass(frozen=True)
class Variant(Event):
    """Play against the clock (``time``, minutes) or to a target PBR (``target``)."""
    verb: ClassVar[str] = "variant"
    kind: str
    amount: int


@dataclass(frozen=True)
class Players(Event):
    """The players in seating order: the player to X's left is the next one named (rule 1)."""
    verb: ClassVar[str] = "players"
    names: tuple[str, ...]


@dataclass(frozen=True)
class Start(Event):
    """The starting player, chosen at the table (rule 2)."""
    verb: ClassVar[str] = "start"
    player: str


@dataclass(frozen=True)
class Draw(Event):
    """Each player's digit in seat order and the cartridge's reading (rule 2)."""
    verb: ClassVar[str] = "draw"
    digits: tuple[int, ...]
    reading: str


@dataclass(frozen=True)
class Homeland(Event):
    """A player's homeland, chosen in seat order (rule 3)."""
    verb: ClassVar[str] = "homeland"
    player: str
    country: str


@dataclass(frozen=True)
class Allies(Event):
    """The free alliances inside the homeland zone (rules 4–6); empty for none."""
    verb: ClassVar[str] = "allies"
    player: str
    countries: tuple[str, ...]


@dataclass(frozen=True)
class Ally(Event):
    """A bought alliance (rule 9); more than one name is a pooled purchase by allies (rule 18B)."""
    verb: ClassVar[str] = "ally"
    side: tuple[str, ...]
    country: str


@dataclass(frozen=True)
class Attack(Event):
    """An attack (rules 10, 15, 19); more than one name is a joint attack by allies (rule 18B)."""
    verb: ClassVar[str] = "attack"
    side: tuple[str, ...]
    country: str


@dataclass(frozen=True)
class Battle(Event):
    """One battle: the attacker's and defender's weapons (P, S, T), the winner ('' for a draw) and,
    optionally, both energies left on screen (attacker's first), which let the battles end the war."""
    verb: ClassVar[str] = "battle"
    weapons: tuple[str, str]
    winner: str
    energies: tuple[int, int] | None = None


@dataclass(frozen=True)
class War(Event):
    """The end of a war: its winner and the loser's remaining energy (rule 12)."""
    verb: ClassVar[str] = "war"
    winner: str
    energy: int


@dataclass(frozen=True)
class Pass(Event):
    """The player whose turn it is gives the attack option on to the left (rules 14, 20)."""
    verb: ClassVar[str] = "pass"
    player: str


@dataclass(frozen=True)
class Pact(Event):
    """A player alliance (rule 18)."""
    verb: ClassVar[str] = "pact"
    players: tuple[str, ...]


@dataclass(frozen=True)
class Break(Event):
    """Dissolve the player alliance the named players belong to, for good (rule 18F)."""
    verb: ClassVar[str] = "break"
    players: tuple[str, ...]


@dataclass(frozen=True)
class Challenge(Event):
    """An end-game confrontation (rule 21B): the challenger, then the challenged player."""
    verb: ClassVar[str] = "challenge"
    challenger: str
    opponent: str


@dataclass(frozen=True)
class Survivor(Event):
    """The end of a confrontation: the player whose energy is left, and how much (rule 21G)."""
    verb: ClassVar[str] = "survivor"
    player: str
    energy: int


@dataclass(frozen=True)
class TimeUp(Event):
    """The agreed time has run out (variant 1)."""
    verb: ClassVar[str] = "time"


@dataclass(frozen=True)
class Undo(Event):
    """Cancel the latest action that is not yet cancelled (a compensating event)."""
    verb: ClassVar[str] = "undo"


EVENT_TYPES: dict[str, type[Event]] = {
    cls.verb: cls for cls in (BoardFile, SetValue, SetZone, Variant, Players, Start, Draw, Homeland,
                              Allies, Ally, Attack, Battle, War, Pass, Pact, Break, Challenge,
                              Survivor, TimeUp, Undo)
}


def from_json(data: dict[str, Any]) -> Event:
    """The event a stored JSON object describes; LedgerError if it describes none."""
    try:
        cls = EVENT_TYPES[data["type"]]
        fields = {f.name: data[f.name] if f.name in data or f.default is dataclasses.MISSING else f.default
                  for f in dataclasses.fields(cls)}
    except (KeyError, TypeError):
        raise LedgerError(_("not a ledger event: {data}").format(data=str(data)[:60])) from None
    for f in dataclasses.fields(cls):
        if isinstance(fields[f.name], list):
            fields[f.name] = tuple(fields[f.name])
    return cls(**fields)


def effective(events: Iterable[Event]) -> list[Event]:
    """The actions that still count: each ``undo`` cancels the latest one not yet cancelled."""
    kept: list[Event] = []
    for event in events:
        if isinstance(event, Undo):
            if not kept:
                raise LedgerError(_("nothing to undo"))
            kept.pop()
        else:
            kept.append(event)
    return kept


def fold(events: Iterable[Event]) -> "State":
    """The game state after ``events`` (undo events included): state = fold(events)."""
    from board_ledger import rules

    state = rules.new_state()
    for event in effective(events):
        state, _ = rules.step(state, event)
    return state
