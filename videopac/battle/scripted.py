"""Simple scripted players: the tricks a person might try against the computer opponent, each a
joystick script for one side (docs/conquest.md, *The balance, measured*).

They see what the computer sees (the published symbols, the sprite registers, the terrain in the
picture; videopac/battle/computer.py reads them) and play one fixed idea each, with no aim and no
plan: ``idle`` never touches the controller, ``fire`` keeps firing with the stick centred,
``charge`` steers straight at the enemy while firing, ``circle`` turns the stick one eighth at a
time while firing, ``hide`` runs from the enemy and never fires (a submarine keeps moving, so it
stays submerged). `videopac balance --simple` plays each against the standard computer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from i18n import N_
from videopac.battle.battlefield import CARDINAL, DX, DY, WORLD_H, WORLD_W, World, aim_direction, wrap
from videopac.battle.computer import directions
from videopac.battle.pilot import (
    PLANE, PLAYING, SPEED, SUB, TANK, WEAPON_CODES, field_steps, read_sprite)
from videopac.battle.published import symbol_value

if TYPE_CHECKING:
    import numpy as np

    from o2em_core.machine import Machine

# the scripts, in the order the tables show them, with what each does (shown translated)
SCRIPTS = {
    "idle": N_("never touches the controller"),
    "fire": N_("fires again and again with the stick centred"),
    "charge": N_("steers straight at the enemy while firing"),
    "circle": N_("turns the stick one eighth every 0.2 s while firing"),
    "hide": N_("runs from the enemy without firing; a submarine keeps moving (submerged)"),
}
PRESS, RELEASE = 2, 2          # a tap of the fire button: frames held, frames let go
MISSILE_HOLD = 50              # a submarine holds fire 1 s (50 frames): its missile flies
TURN = 10                      # frames each direction of ``circle`` is held (0.2 s PAL)
LOOK = 6                       # steps ahead ``hide`` checks that a direction is passable
STILL = 50                     # frames held without moving (longer than a sonar ping, when a
                               # submarine must stop): the way is blocked (by the map) ...
STUCK = 25                     # ... and ``hide`` leaves that direction alone for as long


class Player(Protocol):
    """What the balance bench drives: once a frame, before it runs, set one side's joystick."""

    def step(self, machine: Machine) -> None: ...


@dataclass
class Sight:
    """One frame as a script sees it: its weapon, where it and the enemy are (in steps)."""
    weapon: str
    me: tuple[float, float]
    enemy: tuple[float, float] | None

    def towards(self, there: tuple[float, float]) -> tuple[float, float]:
        """The steps from here to ``there``: across the edges for a plane (it flies off one and
        comes back on the other), inside the field for the others."""
        dx, dy = there[0] - self.me[0], there[1] - self.me[1]
        return (wrap(dx, WORLD_W), wrap(dy, WORLD_H)) if self.weapon == PLANE else (dx, dy)

    def apart(self, here: tuple[float, float]) -> float:
        """How far ``here`` is from the enemy, in steps along the longer axis."""
        if self.enemy is None:
            return 0.0
        dx, dy = Sight(self.weapon, here, None).towards(self.enemy)
        return max(abs(dx), abs(dy))


class Script:
    """The frame loop every script shares: it plays only while a battle runs, reads the
    sprites, and asks ``choose`` for (stick direction or None, fire)."""

    name = "idle"

    def __init__(self, side: int, symbols: dict[str, int]) -> None:
        self.side = side
        self.symbols = symbols
        self.weapons = {symbol_value(symbols, code): weapon for weapon, code in WEAPON_CODES.items()}
        self.playing = {symbol_value(symbols, name) for name in PLAYING}
        self.running, self.field = symbol_value(symbols, "RES_RUNNING"), field_steps(symbols)
        self.t = 0
        self.world: World | None = None
        self.enemy: tuple[float, float] | None = None
        self.me: tuple[float, float] = (0.0, 0.0)
        self.stick: int | None = None
        self.still = 0                          # frames the stick was held and it stayed put

    def step(self, machine: Machine) -> None:
        """Look at the machine and set this side's joystick for the next frame."""
        stick, fire = self.decide(machine)
        machine.set_joystick(self.side, **directions(stick, fire))

    def decide(self, machine: Machine) -> tuple[int | None, bool]:
        """(direction or None, fire) for the next frame; centred and not firing outside a battle."""
        iram = machine.iram
        phase = int(iram[self.symbols["phase"]])
        weapon = self.weapons.get(int(iram[self.symbols["weapon_blue" if self.side else "weapon_red"]]))
        result = int(iram[self.symbols["battle_result"]])
        if phase not in self.playing or result != self.running or weapon is None:
            self.t, self.world, self.enemy, self.stick = 0, None, None, None
            return None, False
        self.t += 1
        vdc = machine.vdc_regs
        mine = read_sprite(vdc, self.side, centre=True)
        other = read_sprite(vdc, 1 - self.side, centre=True)
        if other.shown:                       # a diving submarine: where it was last seen
            self.enemy = (other.sx, other.sy)
        still = mine.shown and (mine.sx, mine.sy) == self.me and self.stick is not None
        self.still = self.still + 1 if still else 0
        if mine.shown:
            self.me = (mine.sx, mine.sy)
        elif self.stick is not None and self.world is not None:
            self.me = self.reckoned(self.world, self.stick, 60 if machine.region == "ntsc" else 50)
        if self.t == 3:
            self.world = World(machine.frame, [(s.sx, s.sy) for s in (mine, other) if s.shown], self.field)
        self.stick, fire = self.choose(Sight(weapon, self.me, self.enemy))
        return self.stick, fire

    def reckoned(self, world: World, stick: int, fps: int) -> tuple[float, float]:
        """Where this submarine is after a frame submerged on course ``stick`` (it moves in water
        only), as a player counts it."""
        v = SPEED["sub"] / fps
        x, y = self.me[0] + DX[stick] * v, self.me[1] + DY[stick] * v
        return (x, y) if world.at(world.water, x, y) else self.me

    def choose(self, sight: Sight) -> tuple[int | None, bool]:
        """The script's idea; ``idle`` has none."""
        return None, False

    def firing(self, weapon: str) -> bool:
        """The fire button of a player who keeps firing: taps for a shell or shot, a held button
        for a submarine (its missile flies while fire is held and detonates when let go)."""
        hold = MISSILE_HOLD if weapon == SUB else PRESS
        return self.t % (hold + RELEASE) < hold


class Fire(Script):
    """Fires again and again with the stick centred: the unit never moves."""
    name = "fire"

    def choose(self, sight: Sight) -> tuple[int | None, bool]:
        return None, self.firing(sight.weapon)


class Charge(Script):
    """Steers straight at where the enemy was last seen (across the edges for a plane), firing."""
    name = "charge"

    def choose(self, sight: Sight) -> tuple[int | None, bool]:
        if sight.enemy is None:
            return None, self.firing(sight.weapon)
        return aim_direction(*sight.towards(sight.enemy)), self.firing(sight.weapon)


class Circle(Script):
    """Turns the stick one eighth every TURN frames, counter-clockwise, firing."""
    name = "circle"

    def choose(self, sight: Sight) -> tuple[int | None, bool]:
        return (self.t // TURN) % 8, self.firing(sight.weapon)     # 0 right, counter-clockwise


class Hide(Script):
    """Runs to where it is farthest from the enemy, on ground its weapon may cross, and never
    fires; a direction that left it standing for STILL frames it leaves alone for STUCK."""
    name = "hide"

    def __init__(self, side: int, symbols: dict[str, int]) -> None:
        super().__init__(side, symbols)
        self.stuck: dict[int, int] = {}         # direction -> until when it is not tried

    def choose(self, sight: Sight) -> tuple[int | None, bool]:
        if sight.enemy is None or self.world is None:
            return (self.t // TURN) % 2 * 4 if sight.weapon == SUB else None, False
        w = self.world
        ok = {SUB: w.sub_ok, PLANE: ~w.crash}.get(sight.weapon, w.tank_ok)
        x, y = sight.me
        # a plane turns along rows and columns (a diagonal hands it to the autopilot)
        moves = CARDINAL if sight.weapon == PLANE else range(8)
        if self.stick is not None and self.still >= STILL and sight.weapon != PLANE:
            self.stuck[self.stick] = self.t + STUCK    # held against what the map hides
        passable = [k for k in moves if passable_along(ok, x, y, k)
                    and self.stuck.get(k, 0) <= self.t]
        if not passable:
            return None, False

        def gain(k: int) -> float:
            return sight.apart((x + DX[k] * LOOK, y + DY[k] * LOOK))

        best = max(passable, key=gain)
        if sight.weapon == TANK and gain(best) <= sight.apart(sight.me):
            return None, False                # a tank as far as it gets: it stays
        return best, False


def passable_along(ok: np.ndarray, x: float, y: float, k: int) -> bool:
    """Whether the steps 1 .. LOOK from (x, y) in direction ``k`` are all on ``ok``."""
    return all(ok[int(y + DY[k] * n) % WORLD_H, int(x + DX[k] * n) % WORLD_W]
               for n in range(1, LOOK + 1))


KINDS: dict[str, type[Script]] = {cls.name: cls for cls in (Script, Fire, Charge, Circle, Hide)}
assert tuple(KINDS) == tuple(SCRIPTS)     # one row per script in both tables


def script(name: str, side: int, symbols: dict[str, int]) -> Script:
    """The scripted player ``name`` (one of SCRIPTS) for side 0 (red) or 1 (blue)."""
    return KINDS[name](side, symbols)
