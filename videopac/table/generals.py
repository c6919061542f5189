"""The computer generals at the table of `videopac play --ledger` (docs/generals.md).

A general's seat is played here as a person would play it: on the board it moves after the pause
(board_ledger/seats.py); in a war or a confrontation it types its side's program at program entry
(its side's key, its weapon and, at the first battle, its energy), fights with the computer
battle opponent on its controller, and agrees to the result the bridge proposes for its side. A
person confirms his own side with F9 as always; when both fighters are generals the table
presses ENTER and SPACE for them and books the proposal after the pause. With ``quick`` a war
between two generals is not shown: it is fought on the battle program headless at once.
"""
from __future__ import annotations

import collections
from typing import TYPE_CHECKING

from board_ledger import notation
from board_ledger import seats as seats_mod
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.general import BATTLE_LEVEL
from board_ledger.store import Store
from videopac.battle import headless
from videopac.battle.computer import Computer
from videopac.table.bridge import KEY_OF, Bridge, Contest, Snapshot

if TYPE_CHECKING:
    from o2em_core.machine import Machine

KEY_FRAMES = 2          # a key typed by a general is held this many frames, then released as long
SIDE = {"red": 0, "blue": 1}     # the controller (joystick) of each side


class Generals:
    """The computer seats of one playing session: ``frame`` is called after every frame."""

    def __init__(self, game: Game, store: Store, game_id: int, bridge: Bridge, symbols: dict[str, int],
                 pause: float = seats_mod.PAUSE, quick: bool = False, fps: float = 50.0) -> None:
        self.game, self.bridge, self.symbols = game, bridge, symbols
        self.seats = seats_mod.Seats(game, store, game_id, pause=pause,
                                     fight=headless.fight if quick else None)
        self.pause_frames = int(pause * fps)
        self.keys: collections.deque[str] = collections.deque()   # keys still to type
        self._held: str | None = None
        self._hold = 0
        self._typed: object = None                         # the battle the generals typed for
        self.quick = quick
        self._still = 0                                    # frames the table has waited
        self.players: dict[str, Computer] = {}             # colour -> the general's battle computer
        self.booked: list[str] = []                        # the lines the generals booked lately

    # -- who plays -----------------------------------------------------------------------------
    def generals_in(self, contest: Contest) -> list[str]:
        """The fighters of the contest whose seats are computers."""
        s = self.game.state
        return [n for n in (contest.attacker, contest.defender) if seats_mod.level(s, n)]

    def thinking(self) -> str | None:
        return self.seats.thinking()

    # -- each frame ----------------------------------------------------------------------------
    def frame(self, machine: Machine, snap: Snapshot) -> list[str]:
        """After one frame: type, fight, confirm or move on the board; returns what was booked."""
        self._type(machine)
        contest = self.bridge.contest
        generals = self.generals_in(contest) if contest else []
        everyone = len(generals) == 2
        if contest is None or not generals or (everyone and self.quick):
            self._fight(machine, [])
            return self._board()
        self._fight(machine, generals)
        if self.bridge.proposal:
            return self._confirm() if everyone else []
        if snap.phase == "entry":
            self._enter(contest, generals, snap)
        elif snap.phase in ("result", "select"):
            self._to_entry()
        return []

    def _type(self, machine: Machine) -> None:
        """One step of the generals' typing: each key held KEY_FRAMES frames, then let go."""
        if self._held is not None:
            self._hold -= 1
            if self._hold == 0:
                machine.release(self._held)
                self._held = None
            return
        if self.keys:
            key = self.keys.popleft()
            if key:                          # "" is a frame of waiting between keys
                machine.press(key)
                self._held, self._hold = key, KEY_FRAMES
            else:
                self._hold = 0

    def _fight(self, machine: Machine, generals: list[str]) -> None:
        """The computer battle opponent plays each general's controller (it idles off battle)."""
        wanted = {self.bridge.colour.get(n, ""): n for n in generals}
        for colour in list(self.players):
            if colour not in wanted:
                del self.players[colour]
        s = self.game.state
        for colour, name in wanted.items():
            if colour not in SIDE:
                continue
            if colour not in self.players:
                level = seats_mod.level(s, name)
                self.players[colour] = Computer(SIDE[colour], BATTLE_LEVEL.get(level, "standard"), self.symbols,
                                                seed=len(self.game.events))
            self.players[colour].step(machine)

    def _enter(self, contest: Contest, generals: list[str], snap: Snapshot) -> None:
        """At program entry, once per battle: when the people at the console have typed their side
        (weapon and the energy the ledger expects), each general types its own, then ENTER."""
        battle = (len(self.game.events), len(self.bridge.seen), contest.attacker)
        if self._typed == battle or self.keys or self._held is not None:
            return
        for name in (contest.attacker, contest.defender):
            colour = self.bridge.colour.get(name, "red")
            if name not in generals and (snap.weapon.get(colour) is None
                                         or snap.energy.get(colour) != contest.energy[name]):
                return                       # a person is still typing his side
        self._typed = battle
        s = self.game.state
        keys = [""] * self.pause_frames
        for name in generals:
            colour = self.bridge.colour.get(name, "red")
            allowed = [w for w in "PST" if w not in contest.banned.get(name, set())] or list("PST")
            general = seats_mod.general_of(s, name, len(self.game.events) + len(self.bridge.seen))
            weapon, self.seats.note = general.pick(allowed, name)
            typed = [KEY_OF[colour], weapon]
            if snap.energy.get(colour) != contest.energy[name]:   # the first battle: 2500, PBR x 100
                typed += list(f"{min(contest.energy[name], headless.CARTRIDGE_MAX_ENERGY):04d}")
            keys += [k for key in typed for k in (key, "")]
        self.keys.extend(keys + ["ENTER"])

    def _to_entry(self) -> None:
        """After the pause, SPACE to program entry: from SELECT GAME for a war, after a battle
        for the next one (the general moves the war on; a person may press SPACE first)."""
        if not self.keys and self._held is None and self._typed != "space":
            self.keys.extend([""] * (2 * self.pause_frames) + ["SPACE"])
            self._typed = "space"

    def _confirm(self) -> list[str]:
        """Two generals: after the pause the proposal is booked, as each would confirm its side."""
        self._still += 1
        if self._still < self.pause_frames:
            return []
        self._still = 0
        try:
            self.booked = self.bridge.confirm()
        except LedgerError:              # someone booked by hand meanwhile: the bridge starts afresh
            self.booked = []
        return self.booked

    def _board(self) -> list[str]:
        """A computer seat's move on the board (or a quick war), after the pause."""
        self.booked = [notation.format_event(e) for e in self.seats.tick()]
        return self.booked
