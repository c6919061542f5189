"""The battle bridge: follows the battles of the ledger's pending war (or end-game confrontation)
on the battle program's published state and proposes the ledger lines that book the result.

Frame by frame it sees the cartridge go from program entry to battle to result (videopac/battle/published.py
decodes the symbols). Each finished battle is checked by the ledger's own rules on a shadow copy
of the game (rule 12: best of three, draws, the energy tie-break, a destroyed weapon not reused,
energy out loses the war; rule 21: PBR moves battle by battle, the survivor's conversion), so the
bridge keeps no second copy of the rules. Nothing is booked until the players confirm a proposal
(``confirm``); a correction afterwards is an ``undo`` like any other. Pure logic: no window.
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from i18n import N_, _

from board_ledger import events as ev
from board_ledger import notation, rules
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.rules import WEAPON_NAMES
from board_ledger.state import State
from videopac.battle import published as battle

if TYPE_CHECKING:
    from o2em_core.machine import Machine

OTHER = {"red": "blue", "blue": "red"}
LETTER = {"none": None, "plane": "P", "submarine": "S", "tank": "T"}      # the ledger's weapons
RESULT = {"running": "running", "red won": "red", "blue won": "blue", "both destroyed": "both"}


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """The published state of one frame in the ledger's terms (weapons P/S/T, the side that won)."""
    phase: str
    weapon: dict[str, str | None]   # "red" / "blue" -> P, S, T or None
    energy: dict[str, int]
    result: str                     # running, red, blue, both
    counter_reading: int = 0

    @classmethod
    def of(cls, decoded: battle.Battle) -> "Snapshot":
        """From the ``battle`` object that videopac/battle/published.py decodes (the one decoder)."""
        return cls(decoded["phase"], {"red": LETTER.get(decoded["weapon_red"]),
                                      "blue": LETTER.get(decoded["weapon_blue"])},
                   {"red": decoded["energy_red"], "blue": decoded["energy_blue"]},
                   RESULT.get(decoded["battle_result"], "running"), decoded["counter_reading"])


def read(machine: Machine, symbols: dict[str, int]) -> Snapshot | None:
    """The snapshot of the machine's last frame, or None if the symbols are not the battle
    program's."""
    decoded = battle.decode(machine.iram, symbols)
    return Snapshot.of(decoded) if decoded is not None else None
COLOUR_NAMES = {"red": N_("red"), "blue": N_("blue")}      # the controllers' sides, as shown


def colour_name(colour: str) -> str:
    """A controller's side ("red", "blue") in the user's language."""
    return _(COLOUR_NAMES.get(colour, colour))


KEY_OF = {"red": "R", "blue": "B"}           # docs/battle-program.md: R selects red, B blue


@dataclasses.dataclass(frozen=True)
class Seen:
    """One battle as the cartridge showed it, in the ledger's terms."""
    battle: ev.Battle               # with both energies left on screen, the attacker's first
    counted: bool                   # False: refused by the rules (the reason is in ``why``)
    why: str = ""

    @property
    def line(self) -> str:
        return notation.format_event(self.battle)


@dataclasses.dataclass(frozen=True)
class Contest:
    """The fight the ledger is waiting for: a war (rules 10-19) or a confrontation (rule 21)."""
    kind: str                       # "war" or "confrontation"
    attacker: str                   # of the next battle (alternates in a confrontation)
    defender: str
    target: str | None
    energy: dict[str, int]          # player -> energy on screen now (2500 at the start of a war)
    banned: dict[str, set[str]]     # player -> weapons he may not use in the next battle
    battles: int = 0                # fought so far
    wins: tuple[int, int] = (0, 0)  # a war: the attacker's and the defender's wins so far


def contest_of(s: State) -> Contest | None:
    """The war or confrontation in progress in ``s``, if any."""
    if s.war is not None:
        w = s.war
        a, d = w.side[0], w.defenders[0]
        return Contest("war", a, d, w.target, {a: w.left["attacker"], d: w.left["defender"]},
                       {a: set(w.destroyed["attacker"]), d: set(w.destroyed["defender"])},
                       w.battles, (w.wins["attacker"], w.wins["defender"]))
    c = s.confrontation
    if c is not None:
        other = c.opponent if c.attacker == c.challenger else c.challenger
        banned = {n: {c.lost[n]} if n in c.lost else set() for n in (c.attacker, other)}
        return Contest("confrontation", c.attacker, other, None,
                       {n: c.left[n] for n in (c.attacker, other)}, banned, c.battles)
    return None


class Bridge:
    """Watches snapshots of the battle program beside a ledger ``Game``."""

    def __init__(self, game: Game):
        self.game = game
        self.preferred: dict[str, str] = {}        # player -> the controller he last used
        self.colour: dict[str, str] = {}           # the two fighters -> "red" / "blue"
        self.seen: list[Seen] = []
        self.choices: list[list[str]] = []         # proposals: each a list of notation lines
        self.choice = 0                            # the one shown (and booked by confirm)
        self.notes: list[str] = []                 # what the players should know now
        self.reading: int | None = None            # the computer-mode number (rule 2)
        self.booked: list[str] = []                # lines booked by the last confirm
        self._synced = -1
        self._shadow: State = game.state
        self._prev: Snapshot | None = None
        self._entry: Snapshot | None = None
        self._start: Snapshot | None = None
        self._decided = False

    # -- following the ledger ---------------------------------------------------------------
    def sync(self) -> None:
        """Start afresh whenever the ledger changed (a booking, a line typed, an undo)."""
        if len(self.game.events) == self._synced:
            return
        self._synced = len(self.game.events)
        self._shadow = self.game.state
        self.seen, self.choices, self.choice, self._decided = [], [], 0, False
        self.notes = []
        c = self.contest
        if c is None:
            self.colour = {}
            return
        a, d = c.attacker, c.defender
        if {a, d} == set(self.colour):
            return                                  # the same two fight on (a new war, or undo)
        pa, pd = self.preferred.get(a), self.preferred.get(d)
        if pa and pd and pa != pd:
            self.colour = {a: pa, d: pd}
        elif pd and not pa:
            self.colour = {a: OTHER[pd], d: pd}
        else:                                       # rule 11C: the attacker picks first; red
            self.colour = {a: pa or "red", d: OTHER[pa or "red"]}

    @property
    def contest(self) -> Contest | None:
        return contest_of(self._shadow)

    def swap(self) -> None:
        """The players hold the other controllers: red and blue change places."""
        self.sync()
        self.colour = {n: OTHER[c] for n, c in self.colour.items()}
        self.preferred.update(self.colour)

    def player_of(self, colour: str) -> str | None:
        return next((n for n, c in self.colour.items() if c == colour), None)

    # -- following the cartridge ------------------------------------------------------------
    def observe(self, snap: Snapshot) -> None:
        """One frame of the battle program's published state."""
        self.sync()
        prev, self._prev = self._prev, snap
        if snap.phase == "computer":
            self.reading = snap.counter_reading
        if snap.phase == "entry":
            self._entry = snap
            if prev is None or prev.phase != "entry" or prev.weapon != snap.weapon or prev.energy != snap.energy:
                self._check_entry(snap)
        if snap.phase == "battle" and (prev is None or prev.phase != "battle") and snap.result == "running":
            self._start = self._entry or snap          # weapons and energies as entered
        if self._start is not None and snap.result != "running" and snap.phase in ("battle", "result"):
            start, self._start = self._start, None
            self._battle_over(start, snap)
        if snap.phase not in ("battle", "result"):
            self._start = None                          # RESET or practice: no battle of ours

    def _check_entry(self, snap: Snapshot) -> None:
        """Warn while the players type: a banned weapon, an energy the rules do not give."""
        c = self.contest
        if c is None or self._decided:
            return
        notes = []
        for name, colour in self.colour.items():
            weapon = snap.weapon[colour]
            if weapon is not None and weapon in c.banned.get(name, ()):
                rule = 12 if c.kind == "war" else 21
                notes.append(_("{name} ({colour}) may not use the {weapon} (rule {rule}F)").format(
                    name=name, colour=colour_name(colour), weapon=_(WEAPON_NAMES[weapon]), rule=rule))
            if snap.energy[colour] not in (0, c.energy[name]):
                notes.append(_("{name} ({colour}) must enter {energy}, not {typed}").format(
                    name=name, colour=colour_name(colour), energy=c.energy[name], typed=snap.energy[colour]))
        self.notes = notes

    def _battle_over(self, start: Snapshot, end: Snapshot) -> None:
        c = self.contest
        if c is None:
            self.notes = [_("a battle outside a war: the ledger has no war or confrontation now")]
            return
        if self._decided:
            self.notes = [_("this battle came after the war was decided: it is not counted")]
            return
        a, d = c.attacker, c.defender
        ca, cd = self.colour[a], self.colour[d]
        wa, wd = start.weapon[ca] or end.weapon[ca], start.weapon[cd] or end.weapon[cd]
        winner = {"red": self.player_of("red"), "blue": self.player_of("blue"), "both": ""}[end.result]
        left = (end.energy[ca], end.energy[cd])
        # a side without a weapon is shown as "?" in the refused line (formatting None failed)
        battle = ev.Battle((wa or "?", wd or "?"), winner or "", left)
        try:
            if wa is None or wd is None:
                raise LedgerError(_("a side had no weapon"))
            after, _effects = rules.step(self._shadow, battle)
        except LedgerError as exc:
            self.seen.append(Seen(battle, False, str(exc)))
            self.notes = [_("not counted: {line}").format(line=exc)]
            return
        self.seen.append(Seen(battle, True))
        self.notes = []
        if c.kind == "confrontation":
            self._shadow = after
            lines = [s.line for s in self.seen if s.counted]
            self.choices = [lines]
            if after.confrontation is not None and left == (0, 0):   # both gone: who survives?
                self.choices = [lines + [notation.format_event(ev.Survivor(n, 0))] for n in (a, d)]
                self.notes = [_("both energies are gone (rule 21G): choose the survivor")]
            return
        # a war: follow it with the battles alone; the energies decide only where rule 12 says
        self._shadow, _effects = rules.step(self._shadow, ev.Battle((wa, wd), winner or ""))
        war = self._shadow.war
        assert war is not None                 # a battle the rules took leaves its war going on
        war.left = {"attacker": left[0], "defender": left[1]}
        role = rules.decided_role(war)
        if role:
            self._propose([role])
        elif war.battles == 3 or left == (0, 0):     # equal energies, or both gone: the players decide
            self._propose(["attacker", "defender"])
            self.notes = [_("the cartridge cannot decide this war (rule 12C: equal energies, or both "
                            "gone): choose the winner")]

    def _propose(self, roles: list[str]) -> None:
        war = self._shadow.war
        assert war is not None                 # called while the shadow follows a war
        lines = [notation.format_event(dataclasses.replace(s.battle, energies=None))
                 for s in self.seen if s.counted]
        who = {"attacker": war.side[0], "defender": war.defenders[0]}
        self.choices = []
        for role in roles:
            loser = "defender" if role == "attacker" else "attacker"
            war_line = notation.format_event(ev.War(who[role], war.left[loser]))
            self.choices.append(lines + [war_line])
        self.choice, self._decided = 0, True

    # -- the players' answer ----------------------------------------------------------------
    @property
    def proposal(self) -> list[str]:
        return self.choices[self.choice] if self.choices else []

    def next_choice(self) -> None:
        if self.choices:
            self.choice = (self.choice + 1) % len(self.choices)

    def confirm(self) -> list[str]:
        """Book the proposal shown, line by line; returns the lines booked. A line the ledger
        refuses stops there (LedgerError), the lines before it stay booked."""
        self.sync()
        lines, booked = self.proposal, []
        if not lines:
            return []
        self.preferred.update(self.colour)
        try:
            for line in lines:
                event = notation.parse_line(line)
                assert event is not None       # the proposal's lines are events we wrote
                booked.append(notation.format_event(self.game.play(event)))
        finally:
            self.booked = booked
            self.sync()
        return booked

    def undo(self) -> str:
        """Take back the latest action in the ledger (a compensating event)."""
        self.game.play(ev.Undo())
        self.sync()
        return "undo"

    # -- what the players type on the console -----------------------------------------------
    def keys(self) -> list[str]:
        """The console keys for the next battle: per side R/B, weapon, energy; then ENTER."""
        c = self.contest
        if c is None:
            return []
        first = c.battles == 0
        out = [] if first else [_("SPACE (back to program entry; the energies stay)")]
        for name in (c.attacker, c.defender):
            colour = self.colour.get(name, "red")
            allowed = "/".join(w for w in "PST" if w not in c.banned.get(name, ()))
            energy = f" {c.energy[name]:04d}" if first else ""
            out.append(f"{name} ({colour_name(colour)}): {KEY_OF[colour]} {allowed}{energy}")
        out.append("ENTER")
        return out
