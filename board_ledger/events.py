"""The events of a game: one per accepted action; the game state is the fold of the events.

Every line of the notation becomes one event. ``undo`` is itself an event (a compensating event): it
cancels the latest action not yet cancelled, so the log only ever grows.

Each event class knows its own notation, as a move in python-chess knows its UCI text: its verb,
usage and German verbs, ``parse`` (the line's arguments to the event) and ``format`` (the event to
its line). A class with a verb enters ``EVENT_TYPES`` as it is defined; how a verb is added is
written once, in docs/architecture.md ("Add a ledger verb").
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from i18n import N_, _

from board_ledger.board import csv_rows, parse_board
from board_ledger.errors import LedgerError, NotationError
from board_ledger.numbers import MAX_DIGITS, clipped, whole_number
from board_ledger.tokens import CANONICAL, Args, Pen, number, quote, quoted, word


#: the event class of each verb, in the order the classes are defined (the help's order); filled by
#: ``Event.__init_subclass__``, so an event class cannot be left out
EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    """Base of every event. ``verb`` is the notation word that writes it, ``usage`` how a line of
    it is written (errors and the REPL's help show it), ``german`` its German verbs (the first is
    the one German mode shows). ``parse`` reads a line's arguments, ``format`` writes the line:
    ``cls.parse(args)`` and ``event.format()`` are inverse for every canonical event."""

    verb: ClassVar[str] = ""
    usage: ClassVar[str] = ""
    german: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its own verb is a kind of event: it enters EVENT_TYPES."""
        super().__init_subclass__(**kwargs)
        verb = cls.__dict__.get("verb")
        if verb:
            if verb in EVENT_TYPES:
                raise ImportError(f"the verb {verb!r} is written by two event classes")  # i18n: untranslated, a bug
            EVENT_TYPES[verb] = cls

    def to_json(self) -> dict[str, Any]:
        return {"type": self.verb, **dataclasses.asdict(self)}

    @classmethod
    def parse(cls, args: Args) -> Self:
        """The event a line's arguments write; NotationError if they are malformed."""
        raise NotImplementedError

    def format(self, pen: Pen = CANONICAL) -> str:
        """The line that writes this event (``pen`` may write German words and country names)."""
        raise NotImplementedError


def csv_lines(rows: str) -> str:
    """An inline board's rows as CSV text: '|' ends a row, except inside a quoted CSV field."""
    out, quoted_field = [], False
    for ch in rows:
        quoted_field ^= ch == '"'
        out.append("\n" if ch == "|" and not quoted_field else ch)
    return "".join(out)


@dataclass(frozen=True)
class BoardFile(Event):
    """Replace the printed board by a custom board file (variant 3); the text travels with the game."""
    verb: ClassVar[str] = "board"
    usage: ClassVar[str] = N_('board "FILE.csv" ["ROWS"]         custom board (before the players); ROWS: inline CSV, rows split by |')
    german: ClassVar[tuple[str, ...]] = ("brett",)
    name: str
    text: str = ""

    @classmethod
    def parse(cls, args: Args) -> Self:
        words = args.words()
        args.need(len(words) in (1, 2))
        return cls(words[0], csv_lines(words[1]) if len(words) == 2 else "")

    def inline_rows(self) -> str:
        """The board as one line of CSV rows split by '|', canonical so it replays."""
        try:
            lines = csv_rows(parse_board(self.text, self.name))
        except LedgerError:               # not a board the rules took: keep what was given
            lines = [line for line in self.text.splitlines() if line.strip()]
        return "|".join(lines)

    def format(self, pen: Pen = CANONICAL) -> str:
        # the board travels inline, so a saved game stands alone
        rows = self.inline_rows() if self.text.strip() else ""
        return pen.line(self.verb, quote(self.name), *([quoted(rows)] if rows else []))


@dataclass(frozen=True)
class SetValue(Event):
    """Change one country's value before the game (variant 3)."""
    verb: ClassVar[str] = "value"
    usage: ClassVar[str] = N_("value COUNTRY N                  change a country's value (before the players)")
    german: ClassVar[tuple[str, ...]] = ("wert",)
    country: str
    value: int

    @classmethod
    def parse(cls, args: Args) -> Self:
        country, value = args.exactly(2)
        return cls(country, number(value, _("the value")))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, pen.place(self.country), str(self.value))


@dataclass(frozen=True)
class SetZone(Event):
    """Move one country to another zone, at the end of its printed list (variant 3)."""
    verb: ClassVar[str] = "zone"
    usage: ClassVar[str] = N_("zone COUNTRY N                   move a country to zone N (before the players)")
    country: str
    zone: int

    @classmethod
    def parse(cls, args: Args) -> Self:
        country, zone = args.exactly(2)
        return cls(country, number(zone, _("the zone")))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, pen.place(self.country), str(self.zone))


@dataclass(frozen=True)
class Variant(Event):
    """Play against the clock (``time``, minutes) or to a target PBR (``target``)."""
    verb: ClassVar[str] = "variant"
    usage: ClassVar[str] = N_("variant time MINUTES | variant target PBR")
    german: ClassVar[tuple[str, ...]] = ("variante",)
    kind: str
    amount: int

    @classmethod
    def parse(cls, args: Args) -> Self:
        kind, amount = args.exactly(2)
        kind = word(kind)
        args.need(kind in ("time", "target"))
        return cls(kind, number(amount, _("the time") if kind == "time" else _("the target")))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, pen.keyword(self.kind), str(self.amount))


#: the levels of a computer general (docs/generals.md); a person's seat has the level ""
GENERAL_LEVELS = ("easy", "standard", "hard", "random")
COMPUTER = "cpu:"             # a seat written cpu:NAME or cpu:LEVEL:NAME is a computer general


def seat_word(word: str) -> tuple[str, str]:
    """``cpu:hard:Bert`` -> ("Bert", "hard"), ``cpu:Bert`` -> ("Bert", "standard"), ``Anna`` ->
    ("Anna", "")."""
    if not word.lower().startswith(COMPUTER):
        return word, ""
    rest = word[len(COMPUTER):]
    level, colon, name = rest.partition(":")
    if colon and level.lower() in GENERAL_LEVELS:
        return name, level.lower()
    return rest, "standard"


def seat_text(name: str, level: str) -> str:
    """A seat as the notation writes it (the inverse of ``seat_word``)."""
    if not level:
        return quote(name)
    return COMPUTER + ("" if level == "standard" else level + ":") + quote(name)


@dataclass(frozen=True)
class Players(Event):
    """The players in seating order: the player to X's left is the next one named (rule 1).
    A seat written ``cpu:NAME`` or ``cpu:LEVEL:NAME`` is a computer general (docs/generals.md);
    ``generals`` holds each seat's level, "" for a person (empty: every seat a person)."""
    verb: ClassVar[str] = "players"
    usage: ClassVar[str] = N_("players NAME NAME ...             seating order, 2 to 6 players; cpu:NAME or cpu:LEVEL:NAME a computer")
    german: ClassVar[tuple[str, ...]] = ("spieler",)
    names: tuple[str, ...]
    generals: tuple[str, ...] = ()

    @classmethod
    def parse(cls, args: Args) -> Self:
        seats = [seat_word(w) for w in args.at_least(1)]
        levels = tuple(level for _name, level in seats)
        return cls(tuple(name for name, _level in seats), levels if any(levels) else ())

    def level(self, seat: int) -> str:
        """The level of a seat's general, "" for a person."""
        return self.generals[seat] if seat < len(self.generals) else ""

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, *(seat_text(n, self.level(i)) for i, n in enumerate(self.names)))


@dataclass(frozen=True)
class _PlayerAction(Event):
    """An action of one named player, written VERB NAME."""
    player: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        return cls(*args.exactly(1))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.player))


@dataclass(frozen=True)
class Start(_PlayerAction):
    """The starting player, chosen at the table (rule 2)."""
    verb: ClassVar[str] = "start"
    usage: ClassVar[str] = N_("start NAME                        the starting player, or:")
    german: ClassVar[tuple[str, ...]] = ("beginn",)


@dataclass(frozen=True)
class Draw(Event):
    """Each player's digit in seat order and the cartridge's reading (rule 2)."""
    verb: ClassVar[str] = "draw"
    usage: ClassVar[str] = N_("draw DIGIT DIGIT ... [reading R]  digits in seat order; no reading: the ledger draws")
    german: ClassVar[tuple[str, ...]] = ("los",)
    digits: tuple[int, ...]
    reading: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        words = args.words()
        reading = ""
        if len(words) >= 2 and word(words[-2]) == "reading":
            reading = words[-1]
            if whole_number(reading) is None:
                raise NotationError(_("the reading must be digits 0-9, not '{reading}'").format(
                    reading=clipped(reading)))
            words = words[:-2]
        args.need(len(words) >= 1)
        return cls(tuple(number(w, _("a digit")) for w in words), reading)

    def format(self, pen: Pen = CANONICAL) -> str:
        reading = [pen.keyword("reading"), self.reading] if self.reading else []
        return pen.line(self.verb, *map(str, self.digits), *reading)


@dataclass(frozen=True)
class Homeland(Event):
    """A player's homeland, chosen in seat order (rule 3)."""
    verb: ClassVar[str] = "homeland"
    usage: ClassVar[str] = N_("homeland NAME COUNTRY")
    german: ClassVar[tuple[str, ...]] = ("mutterland",)
    player: str
    country: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        return cls(*args.exactly(2))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.player), pen.place(self.country))


@dataclass(frozen=True)
class Allies(Event):
    """The free alliances inside the homeland zone (rules 4–6); empty for none."""
    verb: ClassVar[str] = "allies"
    usage: ClassVar[str] = N_("allies NAME COUNTRY ... | allies NAME -")
    german: ClassVar[tuple[str, ...]] = ("bündnisse",)
    player: str
    countries: tuple[str, ...]

    @classmethod
    def parse(cls, args: Args) -> Self:
        player, *countries = args.at_least(2)
        return cls(player, () if countries == ["-"] else tuple(countries))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.player), *([pen.place(c) for c in self.countries] or ["-"]))


@dataclass(frozen=True)
class _SideAction(Event):
    """An action of one player or of allies together, written NAME[+ALLY...] COUNTRY."""
    side: tuple[str, ...]
    country: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        args.need(len(args) == 2 and all(args.tokens[0]))
        return cls(tuple(args.tokens[0]), args.one(args.tokens[1]))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, "+".join(map(quote, self.side)), pen.place(self.country))


@dataclass(frozen=True)
class Ally(_SideAction):
    """A bought alliance (rule 9); more than one name is a pooled purchase by allies (rule 18B)."""
    verb: ClassVar[str] = "ally"
    usage: ClassVar[str] = N_("ally NAME[+ALLY...] COUNTRY          buy an alliance")
    german: ClassVar[tuple[str, ...]] = ("bündnis",)


@dataclass(frozen=True)
class Attack(_SideAction):
    """An attack (rules 10, 15, 19); more than one name is a joint attack by allies (rule 18B)."""
    verb: ClassVar[str] = "attack"
    usage: ClassVar[str] = N_("attack NAME[+ALLY...] COUNTRY")
    german: ClassVar[tuple[str, ...]] = ("angriff",)


@dataclass(frozen=True)
class Battle(Event):
    """One battle: the attacker's and defender's weapons (P, S, T), the winner ('' for a draw) and,
    optionally, both energies left on screen (attacker's first), which let the battles end the war."""
    verb: ClassVar[str] = "battle"
    usage: ClassVar[str] = N_("battle WEAPON WEAPON NAME|draw [ENERGY ENERGY]  weapons P/S/T and energies left, attacker's first")
    german: ClassVar[tuple[str, ...]] = ("schlacht",)
    weapons: tuple[str, str]
    winner: str
    energies: tuple[int, int] | None = None

    @classmethod
    def parse(cls, args: Args) -> Self:
        words = args.words()
        args.need(len(words) in (3, 5))
        weapons = (words[0].upper(), words[1].upper())
        if any(w not in ("P", "S", "T") for w in weapons):
            raise NotationError(_("weapons are P (plane), S (submarine) or T (tank)"))
        energies = (number(words[3], _("the energy")), number(words[4], _("the energy"))) \
            if len(words) == 5 else None
        return cls(weapons, "" if word(words[2]) == "draw" else words[2], energies)

    def format(self, pen: Pen = CANONICAL) -> str:
        left = [str(self.energies[0]), str(self.energies[1])] if self.energies else []
        winner = quote(self.winner) if self.winner else pen.keyword("draw")
        return pen.line(self.verb, self.weapons[0], self.weapons[1], winner, *left)


@dataclass(frozen=True)
class War(Event):
    """The end of a war: its winner and the loser's remaining energy (rule 12)."""
    verb: ClassVar[str] = "war"
    usage: ClassVar[str] = N_("war WINNER ENERGY                 the loser's remaining energy")
    german: ClassVar[tuple[str, ...]] = ("krieg",)
    winner: str
    energy: int

    @classmethod
    def parse(cls, args: Args) -> Self:
        winner, energy = args.exactly(2)
        return cls(winner, number(energy, _("the energy")))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.winner), str(self.energy))


@dataclass(frozen=True)
class Pass(_PlayerAction):
    """The player whose turn it is gives the attack option on to the left (rules 14, 20)."""
    verb: ClassVar[str] = "pass"
    usage: ClassVar[str] = N_("pass NAME")
    german: ClassVar[tuple[str, ...]] = ("passen",)


@dataclass(frozen=True)
class _PlayerGroup(Event):
    """An action of several players named one after another."""
    fewest: ClassVar[int] = 1
    players: tuple[str, ...]

    @classmethod
    def parse(cls, args: Args) -> Self:
        return cls(tuple(args.at_least(cls.fewest)))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, *map(quote, self.players))


@dataclass(frozen=True)
class Pact(_PlayerGroup):
    """A player alliance (rule 18)."""
    verb: ClassVar[str] = "pact"
    usage: ClassVar[str] = N_("pact NAME NAME ...")
    german: ClassVar[tuple[str, ...]] = ("pakt", "spielerbündnis")
    fewest: ClassVar[int] = 2


@dataclass(frozen=True)
class Break(_PlayerGroup):
    """Dissolve the player alliance the named players belong to, for good (rule 18F)."""
    verb: ClassVar[str] = "break"
    usage: ClassVar[str] = N_("break NAME [NAME ...]")
    german: ClassVar[tuple[str, ...]] = ("auflösen",)


@dataclass(frozen=True)
class Challenge(Event):
    """An end-game confrontation (rule 21B): the challenger, then the challenged player."""
    verb: ClassVar[str] = "challenge"
    usage: ClassVar[str] = N_("challenge CHALLENGER OPPONENT")
    german: ClassVar[tuple[str, ...]] = ("herausfordern",)
    challenger: str
    opponent: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        return cls(*args.exactly(2))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.challenger), quote(self.opponent))


@dataclass(frozen=True)
class Survivor(Event):
    """The end of a confrontation: the player whose energy is left, and how much (rule 21G)."""
    verb: ClassVar[str] = "survivor"
    usage: ClassVar[str] = N_("survivor NAME ENERGY              end of a confrontation")
    german: ClassVar[tuple[str, ...]] = ("überlebender",)
    player: str
    energy: int

    @classmethod
    def parse(cls, args: Args) -> Self:
        player, energy = args.exactly(2)
        return cls(player, number(energy, _("the energy")))

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, quote(self.player), str(self.energy))


@dataclass(frozen=True)
class TimeUp(Event):
    """The agreed time has run out (variant 1)."""
    verb: ClassVar[str] = "time"
    usage: ClassVar[str] = N_("time up                           the agreed time has run out")
    german: ClassVar[tuple[str, ...]] = ("zeit",)

    @classmethod
    def parse(cls, args: Args) -> Self:
        (up,) = args.exactly(1)
        args.need(word(up) == "up")
        return cls()

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb, pen.keyword("up"))


@dataclass(frozen=True)
class Seat(Event):
    """A person takes over a computer general's seat, or gives it back (docs/generals.md);
    ``level`` is the general's level, "" for a person."""
    verb: ClassVar[str] = "seat"
    usage: ClassVar[str] = N_("seat NAME person|cpu[:LEVEL]      a person takes over a computer's seat, or gives it back")
    german: ClassVar[tuple[str, ...]] = ("platz",)
    player: str
    level: str

    @classmethod
    def parse(cls, args: Args) -> Self:
        name, who = args.exactly(2)
        if word(who) == "person":
            return cls(name, "")
        _rest, level = seat_word(who + ":" + name)
        args.need(who.lower() == COMPUTER.rstrip(":") or who.lower() == COMPUTER + level)
        return cls(name, level)

    def format(self, pen: Pen = CANONICAL) -> str:
        who = pen.keyword("person") if not self.level else COMPUTER + self.level
        return pen.line(self.verb, quote(self.player), who)


@dataclass(frozen=True)
class Undo(Event):
    """Cancel the latest action that is not yet cancelled (a compensating event)."""
    verb: ClassVar[str] = "undo"
    usage: ClassVar[str] = N_("undo")
    german: ClassVar[tuple[str, ...]] = ("zurück",)

    @classmethod
    def parse(cls, args: Args) -> Self:
        args.exactly(0)
        return cls()

    def format(self, pen: Pen = CANONICAL) -> str:
        return pen.line(self.verb)


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value has the type a field is declared with (str, int, tuples, None); an int
    is a whole number the notation can write, so a stored event holds no count a line could not."""
    if hint is str:
        return isinstance(value, str)
    if hint is int:       # a count as the notation writes it: 0 to MAX_DIGITS digits, never negative
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10 ** MAX_DIGITS
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
    verb = data.get("type") if isinstance(data, dict) else None
    cls = EVENT_TYPES.get(verb) if isinstance(verb, str) else None
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
