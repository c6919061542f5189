"""A computer opponent for the battle program: it plays one side through the controller only.

Each frame it looks at what a player could see — the published symbols (phase, weapons,
result), the video chip's four sprite registers (the units and their shots) and the picture (the
terrain) — and answers with stick directions and the fire button. It never writes the machine's
memory. docs/conquest.md, *The computer opponent*, lists what it relies on and how it plays.

It is built of rooms of one idea each: ``battlefield.py`` (the terrain, the route planner's grid,
directions), ``pilot.py`` (what it has seen, its level, aim and routes), and the weapons'
tactics ``tank.py``, ``plane.py`` and ``sub.py``; this module puts them together and reads the
machine.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING

from i18n import _
from videopac import UsageError
from videopac.battle.battlefield import World, aim_direction
from videopac.battle.pilot import CONSTANTS, LEVELS, PLANE, SUB, TANK, read_sprite
from videopac.battle.plane import PlaneTactics
from videopac.battle.published import symbol_value
from videopac.battle.sub import SubTactics
from videopac.battle.tank import TankTactics

if TYPE_CHECKING:
    from o2em_core.machine import Machine

SIDES = ("red", "blue")
STICK = ("right", "up+right", "up", "up+left", "left", "down+left", "down", "down+right")

READS = ("phase", "battle_result", "weapon_red", "weapon_blue")   # published symbols it reads


class ComputerSpecError(UsageError, ValueError):
    """A ``--computer`` value that names no side or level; the message is one sentence."""


def parse_spec(text: str) -> tuple[int, str]:
    """``red``, ``blue:easy`` ... -> (joystick 0 or 1, level name)."""
    side, _colon, level = text.strip().lower().partition(":")
    if side not in SIDES:
        raise ComputerSpecError(_("--computer '{value}': the side must be red or blue, "
                                  "optionally with :easy, :standard or :hard").format(value=text))
    level = level or "standard"
    if level not in LEVELS:
        raise ComputerSpecError(_("--computer '{value}': unknown level '{level}'; use easy, "
                                  "standard or hard").format(value=text, level=level))
    return SIDES.index(side), level


def parse_specs(texts: Iterable[str] | None) -> list[tuple[int, str]]:
    """All ``--computer`` values; each side at most once."""
    specs = [parse_spec(t) for t in texts or ()]
    sides = [s for s, _ in specs]
    if len(set(sides)) != len(sides):
        raise ComputerSpecError(_("--computer names the same side twice; give red once and "
                                  "blue once at most"))
    return specs


def add_computer_arguments(parser: argparse.ArgumentParser) -> None:
    """``--computer SIDE[:LEVEL]`` (up to twice) and ``--seed``, shared by run and play."""
    parser.add_argument("--computer", action="append", metavar="SIDE[:LEVEL]",
                        help=_("let the computer play red or blue (level easy, standard or "
                               "hard; give it twice for computer against computer)"))
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help=_("seed of the computer's choices (the same seed plays the same)"))


def directions(stick: int | None, fire: bool) -> dict[str, bool]:
    """The keyword arguments of Machine.set_joystick for a direction (None: centred)."""
    held = dict(up=False, down=False, left=False, right=False, fire=fire)
    if stick is not None:
        for name in STICK[stick].split("+"):
            held[name] = True
    return held


# ---- the player -------------------------------------------------------------------------------
class Computer(TankTactics, PlaneTactics, SubTactics):
    """Plays side ``side`` (0 red, 1 blue) at ``level``; ``step(machine)`` once a frame, before
    the frame is run, sets that side's joystick."""

    def step(self, machine: Machine) -> None:
        """Look at the machine and set this side's joystick for the next frame."""
        stick, fire = self.decide(machine)
        machine.set_joystick(self.side, **directions(stick, fire))

    def decide(self, machine: Machine) -> tuple[int | None, bool]:
        """(direction or None, fire) for the next frame."""
        iram = machine.iram
        try:
            phase = self._byte(iram, "phase")
            result = self._byte(iram, "battle_result")
            weapon = self.weapons.get(self._byte(iram, "weapon_blue" if self.side else "weapon_red"))
            enemy_weapon = self.weapons.get(self._byte(iram, "weapon_red" if self.side else "weapon_blue"))
        except (KeyError, IndexError):
            return None, False
        if phase not in self.playing or result != self.running or weapon is None:
            if self.t:
                self._reset()
            return None, False
        self.fps = 60 if machine.region == "ntsc" else 50
        self.delay, self.wake = self._frames(self.delay50), self._frames(self.wake50)
        self.weapon, self.enemy_weapon = weapon, enemy_weapon
        vdc = machine.vdc_regs
        mine = read_sprite(vdc, self.side, centre=True)
        other = read_sprite(vdc, 1 - self.side, centre=True)
        self.shot = read_sprite(vdc, 2 + self.side, centre=False)
        self.enemy_shot = read_sprite(vdc, 3 - self.side, centre=False)
        self.t += 1
        if not self.enemy_shot.shown:
            self.missile_since = self.t          # (or shell): when it was last not there
            self.shot_trail.clear()
        else:
            if not self.shot_trail and weapon == SUB:       # a new shell or shot: noticed in time?
                self.dives = self.enemy_weapon == PLANE or self.random.random() < self.level.dive
            self.shot_trail.append((self.t, self.enemy_shot.sx, self.enemy_shot.sy))
            t0, x0, y0 = self.shot_trail[0]
            if self.t - t0 >= 2:
                self.fire_line = (aim_direction(self.enemy_shot.sx - x0, self.enemy_shot.sy - y0),
                                  self.t)
                if self.t - t0 == 2 and len(self.shot_trail) == 3:    # a new shell: its line
                    self.shells.append((self.t, self.fire_line[0], x0, y0))
        if self.t == 3 or self.t == 30:
            self.world = World(machine.frame, [(s.sx, s.sy) for s in (mine, other) if s.shown], self.field)
        if other.shown:
            self.seen.append((self.t, other.sx, other.sy))
            if other.colour != self.white:
                self.white_since = None
            elif self.white_since is None:
                self.white_since = self.t
        if mine.shown:
            self.me = (mine.sx, mine.sy)
            self.me_t = self.t
            self.me_white = mine.colour == self.white
        if self.world is None or self.me is None or self.t < self.wake:
            return self._hold(None if weapon != PLANE else self.heading, False)
        if self.t % self.level.think and weapon != SUB:
            return self._hold(*self.out)
        behaviour = {PLANE: self._plane, SUB: self._sub, TANK: self._tank}[weapon]
        return self._hold(*behaviour())

    def _hold(self, stick: int | None, fire: bool) -> tuple[int | None, bool]:
        self.out = (stick, fire)
        self.fire_was = fire
        return stick, fire


def players(specs: Iterable[str] | None, symbols: dict[str, int] | None,
            seed: int = 0) -> list[Computer]:
    """The computers that ``--computer`` values ask for, on a cartridge with ``symbols``."""
    chosen = parse_specs(specs)
    if chosen and not (symbols and all(name in symbols for name in READS)
                       and all(symbol_value(symbols, name) is not None for name in CONSTANTS)):
        raise ComputerSpecError(_("--computer plays the battle program only; this cartridge "
                                  "publishes no battle symbols (docs/conquest.md)"))
    return [Computer(side, level, symbols, seed) for side, level in chosen]
