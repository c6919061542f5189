"""The events of a game: one per accepted action; the game state is the fold of the events.

Every line of the notation becomes one event. ``undo`` is itself an event (a compensating event): it
cancels the latest action not yet cancelled, so the log only ever grows.
"""
from __future__ import annotations

import dataclasses
import types
import typing
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


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value has the type a field is declared with (str, int, tuples, None)."""
    if hint is str:
        return isinstance(value, str)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is type(None):
        return value is None
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if typing.get_origin(hint) is tuple and isinstance(value, (list, tuple)):
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(v, args[0]) for v in value)
        return len(value) == len(args) and all(_fits(v, a) for v, a in zip(value, args))
    return False


def from_json(data: Any) -> Event:
    """The event a stored JSON object describes; LedgerError if it describes none (an unknown
    type, a missing field or a field of the wrong JSON type)."""
    cls = EVENT_TYPES.get(data.get("type")) if isinstance(data, dict) and \
        isinstance(data.get("type"), str) else None
    if cls is None:
        raise LedgerError(_("it is not a ledger event"))
    hints = typing.get_type_hints(cls)
    fields = {}
    for f in dataclasses.fields(cls):
        if f.name not in data and f.default is dataclasses.MISSING:
            raise LedgerError(_("a '{verb}' event needs the field '{field}'").format(verb=cls.verb, field=f.name))
        value = data.get(f.name, f.default)
        if not _fits(value, hints[f.name]):
            raise LedgerError(_("the field '{field}' of a '{verb}' event has the wrong type").format(
                field=f.name, verb=cls.verb))
        fields[f.name] = tuple(value) if isinstance(value, list) else value
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
        state, _effects = rules.step(state, event)
    return state
