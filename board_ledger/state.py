"""The state of a game at one moment: the board, who holds what, chips, PBR, whose turn it is.

PBR is kept as an integer count of half squares (rule 6: half values sit on the border between two
squares). A country's holders map player -> "allied" (dark field) or "conquered" (light field);
several holders only arise from actions of allied players (rule 18B: each ally places a marker).
"""
from __future__ import annotations

import copy
from collections.abc import Set
from dataclasses import dataclass, field

from board_ledger.board import Board

ALLIED = "allied"
CONQUERED = "conquered"
WEAPONS = ("P", "S", "T")  # plane, submarine, tank (rule 10C)


@dataclass
class Player:
    name: str
    homeland: str | None = None
    chips: int = 0
    halves: int = 0          # PBR in half squares
    eliminated: bool = False
    digit: int | None = None  # the digit chosen for rule 2
    bonus_zones: set[int] = field(default_factory=set)  # zones whose rule 7 bonus was paid
    general: str = ""        # the level of the computer general at this seat, "" for a person


@dataclass
class War:
    """A war in progress (rules 10–19): the two sides, the country, and the battles so far."""

    side: tuple[str, ...]        # the attacking players, the one whose turn it is first
    defenders: tuple[str, ...]
    target: str
    kind: str                    # "unoccupied", "occupied" or "homeland"
    battles: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {"attacker": 0, "defender": 0})
    destroyed: dict[str, set[str]] = field(default_factory=lambda: {"attacker": set(), "defender": set()})
    left: dict[str, int] = field(default_factory=lambda: {"attacker": 2500, "defender": 2500})  # on screen
    history: tuple[tuple[tuple[str, str], str, tuple[int, int] | None], ...] = ()  # (weapons, winner, energies)


@dataclass(frozen=True)
class WarResult:
    """How a war ended: its country, the winning and losing sides, the loser's energy left."""

    target: str
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    energy: int


@dataclass
class Confrontation:
    """An end-game confrontation in progress (rule 21)."""

    challenger: str
    opponent: str
    attacker: str                # alternates after each battle (rule 21E)
    energy: dict[str, int]       # each side's starting energy, PBR x 100 (rule 21C)
    lost: dict[str, str] = field(default_factory=dict)  # weapon lost in the previous battle (21F)
    battles: int = 0
    left: dict[str, int] = field(default_factory=dict)  # energy on screen after the last battle
    history: tuple[tuple[tuple[str, str], str, tuple[int, int] | None], ...] = ()  # (weapons, winner, energies)


@dataclass
class State:
    board: Board
    phase: str = "setup"          # setup, homelands, alliances, play, final-round, endgame, over
    players: list[Player] = field(default_factory=list)   # seating order
    start: str | None = None
    chooser: int = 0              # homelands / alliances: index in the order from the start player
    holders: dict[str, dict[str, str]] = field(default_factory=dict)  # changed only by hold()
    paid_in: int = 0
    paid_out: int = 0
    turn: str | None = None       # whose turn it is to attack
    ally_credit: int = 0          # bought alliances still allowed now (rules 8, 9, 13D, 16E)
    last_defender: str | None = None  # the defender rotation of rule 13E
    war: War | None = None
    pacts: list[frozenset[str]] = field(default_factory=list)
    broken: set[frozenset[str]] = field(default_factory=set)
    final_queue: list[str] = field(default_factory=list)   # rule 20: players yet to have their chance
    fought: set[str] = field(default_factory=set)           # rule 21H: players who have fought
    expected: tuple[str, str] | None = None                 # the next confrontation (rule 21B, 21H)
    last_pair: tuple[str, str] | None = None                # the confrontation just ended
    last_survivor: str | None = None
    confrontation: Confrontation | None = None
    target_pbr: int | None = None   # variant 2
    time_limit: int | None = None   # variant 1, minutes
    winner: str | None = None
    converted: dict[str, int] = field(default_factory=dict)  # rule 20C: the chips that went onto the PBR
    last_war: "WarResult | None" = None  # the war that ended with the latest action (effects, war view)

    def copy(self) -> "State":
        """An independent copy; cheap enough to probe actions and to keep one per action. The
        board and the holders are shared: neither is ever changed in place (see ``hold``)."""
        new = copy.copy(self)
        new.players = [Player(p.name, p.homeland, p.chips, p.halves, p.eliminated, p.digit, set(p.bonus_zones),
                              p.general) for p in self.players]
        w = self.war
        if w is not None:
            new.war = War(w.side, w.defenders, w.target, w.kind, w.battles, dict(w.wins),
                          {k: set(v) for k, v in w.destroyed.items()}, dict(w.left), w.history)
        c = self.confrontation
        if c is not None:
            new.confrontation = Confrontation(c.challenger, c.opponent, c.attacker, dict(c.energy),
                                              dict(c.lost), c.battles, dict(c.left), c.history)
        new.pacts = list(self.pacts)
        new.broken = set(self.broken)
        new.final_queue = list(self.final_queue)
        new.fought = set(self.fought)
        new.converted = dict(self.converted)
        return new

    # --- people -----------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def live(self) -> list[str]:
        return [p.name for p in self.players if not p.eliminated]

    def order_from(self, name: str) -> list[str]:
        """All players in seat order starting with ``name`` (the order of rule 3)."""
        i = self.names.index(name)
        return self.names[i:] + self.names[:i]

    def left_of(self, name: str, skip: Set[str] = frozenset()) -> str | None:
        """The next player to ``name``'s left who is still in the game and not in ``skip``."""
        for other in self.order_from(name)[1:] + [name]:
            if other not in skip and not self.player(other).eliminated:
                return other
        return None

    def pact_of(self, name: str) -> frozenset[str]:
        for pact in self.pacts:
            if name in pact:
                return pact
        return frozenset({name})

    def allied(self, a: str, b: str) -> bool:
        """Whether two different players are allies (rule 18)."""
        return a != b and b in self.pact_of(a)

    # --- the board ----------------------------------------------------------------------------
    def homeland_owner(self, country: str) -> str | None:
        """The player still in the game whose homeland ``country`` is."""
        for p in self.players:
            if p.homeland == country and not p.eliminated:
                return p.name
        return None

    def holders_of(self, country: str) -> set[str]:
        """Everyone with a marker on ``country``, a live homeland owner included."""
        owner = self.homeland_owner(country)
        held = set(self.holders.get(country, {}))
        return held | {owner} if owner else held

    def hold(self, country: str, markers: dict[str, str] | None) -> None:
        """Put ``markers`` (player -> allied or conquered) on ``country``, or with None clear it.
        The holders are replaced, never changed in place, so the states copied from this one,
        which share them, keep theirs: a game keeps one state per action, and a board's worth of
        holders in each made a long game take gigabytes."""
        holders = dict(self.holders)
        if markers is None:
            holders.pop(country, None)
        else:
            holders[country] = markers
        self.holders = holders

    def occupied(self, country: str) -> bool:
        return bool(self.holders_of(country))

    def board_full(self) -> bool:
        return all(self.occupied(c.name) for c in self.board.countries)

    def holdings(self, name: str, kind: str) -> list[str]:
        """The countries ``name`` holds as ``kind`` (allied or conquered), in printed order."""
        return [c.name for c in self.board.countries if self.holders.get(c.name, {}).get(name) == kind]

    @property
    def war_chest(self) -> int:
        """The bank's running balance: paid in minus paid out (negative once it paid out more)."""
        return self.paid_in - self.paid_out
