"""A computer opponent for the battle program: it plays one side through the controller only.

Each frame it looks at what a player could see — the published symbols (phase, weapons,
result), the video chip's four sprite registers (the units and their shots) and the picture (the
terrain) — and answers with stick directions and the fire button. It never writes the machine's
memory. docs/conquest.md, *The computer opponent*, lists what it relies on and how it plays.

Positions are kept in *steps* (docs/conquest.md): X in units, Y in lines / 2, so that the eight
directions move (±1, ±1) like the cartridge's step table; the terrain, the route planner's grid
and the directions are the battlefield's (``battlefield.py``).
"""
from __future__ import annotations

import argparse
import collections
import itertools
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cartridge.images import builtin_symbols
from i18n import _
from videopac import UsageError
from videopac.battle.battlefield import (
    CARDINAL, COLS, DX, DY, NODE_X, NODE_Y, ROWS, WORLD_H, WORLD_W, World, aim_direction, apart,
    distances, neighbours, node_centre, node_far, node_mask, node_of, node_offsets, wrap, within)
from videopac.battle.published import symbol_value

if TYPE_CHECKING:
    from o2em_core.machine import Machine

SIDES = ("red", "blue")
STICK = ("right", "up+right", "up", "up+left", "left", "down+left", "down", "down+right")

HIDDEN_Y = 0xF8                           # where the cartridge parks a hidden sprite

READS = ("phase", "battle_result", "weapon_red", "weapon_blue")   # published symbols it reads
PLANE, SUB, TANK = "plane", "sub", "tank"
# the program's constants it plays by, read from its symbol file (cartridge/conquest/vars.inc,
# battle.a48), never restated here: the weapon codes, the phases it plays in, the ranges in
# steps, how near a tree a shell passes it, how long a blast acts, the code of a running
# battle, the playfield (X, Y, width, height; Y and height in lines) and the hit boxes around a
# unit's centre (|dx| < X units, |dy| < Y lines) of a direct hit and of a missile's blast
WEAPON_CODES = {PLANE: "W_PLANE", SUB: "W_SUB", TANK: "W_TANK"}
PLAYING = ("PH_BATTLE", "PH_PRACTICE")
RANGE_SYMBOLS = {TANK: "TANK_RANGE", PLANE: "PLANE_RANGE", SUB: "MISSILE_RANGE"}
# the steps a shell or shot flies before a hit counts (nearer, it flies through its target)
ARM_SYMBOLS = {TANK: "ARM_SHELL", PLANE: "ARM_SHOT"}
FIELD = ("FIELD_X", "FIELD_Y", "FIELD_W", "FIELD_H")
HIT_BOX, BLAST_BOX = ("HIT_DX", "HIT_DY"), ("BLAST_DX", "BLAST_DY")
# and the shelter after a hit: how long (50 Hz frames) and the colour a sheltered unit is drawn in
CONSTANTS = (*WEAPON_CODES.values(), *PLAYING, *RANGE_SYMBOLS.values(), *ARM_SYMBOLS.values(), "NEAR_TREE", "BLAST_FRAMES",
             "RES_RUNNING", *FIELD, *HIT_BOX, *BLAST_BOX, "SHELTER_PAL", "S_WHITE")
# speeds in steps per second (docs/conquest.md, The weapons)
SPEED = {"tank": 24, "plane": 48, "sub": 16, "missile": 32, "shell": 80}

TURN_AT = 2                               # frames until a plane turns from a shell it sees
TANK_TURN_AT = 4                          # frames of 50 Hz until a tank steps out of a shell's line
STRAIGHT = 60                             # frames of 50 Hz a plane flew straight: it will fly on
SIGHTINGS = 128                           # frames of the enemy's positions kept (> STRAIGHT on NTSC, a turn of `circle` and LOOP_CHECK)
KEEP_OFF = 25                             # frames of a tank's shelter left: a plane keeps off
RUNNER_FAR, RUNNER_AFTER = 70, 300        # a plane this far (steps) this long (frames of 50 Hz)
LOOP_CHECK, LOOP_SHORTEST = 16, 30       # frames of 50 Hz: a track that repeats (_loop) ...
LOOP_MISS = 1.5                           # ... shifted by its last turn's drift within steps
CIRCLE_SPAN = 40                          # frames of 50 Hz: a plane turning within them circles
EXPOSED = 4                               # a node in the enemy tank's line of fire: 1 + 4 to pass
Blocked = Callable[[float, float, int], bool]    # (sx, sy, steps out): a shot stops there
Path = Callable[[float], "tuple[float, float] | None"]   # frames ahead -> where the enemy is


@dataclass(frozen=True)
class Level:
    """How well the computer plays: reaction time, how often it thinks, aim."""
    delay: int           # frames between seeing the enemy and acting on it
    think: int           # frames between decisions (the stick is held in between)
    slack: int           # units/steps taken off the hit box before it fires
    noise: float         # random error of its aim, in steps
    dodge: bool          # whether it steps out of the line of an incoming shot
    launch: int          # submarine: farthest launch distance, in steps
    wake: int            # frames it may take to start playing
    spread: float        # share of the good spots it forgets each time it plans a route
    dive: float          # submarine: share of a tank's shells it dives from (a plane's shots: all)
    lines: bool          # submarine: launches at a tank from water off the tank's lines of fire
    cruise: bool = True  # plane: cruises on the autopilot between passes at a plane (else only
                         # at one that has kept away for RUNNER_AFTER)
    across: bool = False # tank: steps steadily across a missile's line (else a quarter turn
                         # from where it faces, each decision; docs/conquest.md)


LEVELS: dict[str, Level] = {
    "easy": Level(delay=12, think=6, slack=0, noise=3.0, dodge=False, launch=50, wake=60,
                  spread=0.5, dive=0.0, lines=False),
    "standard": Level(delay=4, think=2, slack=1, noise=1.0, dodge=True, launch=62, wake=40,
                      spread=0.4, dive=0.0, lines=True),
    "hard": Level(delay=1, think=1, slack=0, noise=0.0, dodge=True, launch=62, wake=10,
                  spread=0.2, dive=0.9, lines=True, cruise=False, across=True),
}


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


# ---- what the computer sees ------------------------------------------------------------------
@dataclass
class Sprite:
    sx: float            # centre of a unit / point of a shot, in steps
    sy: float
    shown: bool
    colour: int = 0      # the attribute's colour bits (a unit sheltered after a hit is white)


def read_sprite(vdc: np.ndarray, index: int, centre: bool) -> Sprite:
    """Sprite ``index`` from the video chip's registers; a unit's centre is 4 units right and
    8 lines below the sprite's corner, a shot's point is the corner itself (docs/conquest.md)."""
    # o2em_core (and numba with it) is imported once a machine runs, not when `videopac run`
    # or `play` only read their arguments
    from o2em_core.vdc_regs import OBJ_X, OBJ_Y, SPRITE_ATTR, SPRITE_BASE, SPRITE_COLOUR, SPRITE_SIZE

    base = SPRITE_BASE + SPRITE_SIZE * index         # its registers (docs/hardware.md §7.3)
    y, x, attr = int(vdc[base + OBJ_Y]), int(vdc[base + OBJ_X]), int(vdc[base + SPRITE_ATTR])
    shown = not (y == HIDDEN_Y and attr & SPRITE_COLOUR == 0)
    if centre:
        return Sprite((x + 4) % WORLD_W, ((y + 8) % 256) / 2, shown, attr & SPRITE_COLOUR)
    return Sprite(x, y / 2, shown, attr & SPRITE_COLOUR)


def constant(symbols: dict[str, int], name: str) -> int:
    """One of the program's ``CONSTANTS`` from its symbol file (``players`` has checked that
    the file has them all)."""
    value = symbol_value(symbols, name)
    if value is None:
        raise KeyError(f"the symbol file lacks {name}")  # i18n: untranslated (players checks first)
    return value


def box_steps(symbols: dict[str, int], names: Sequence[str]) -> tuple[int, ...]:
    """The program's X and Y constants ``names`` (units, lines) in steps: Y lines are halved."""
    return tuple(constant(symbols, name) // (2 if name.endswith(("_Y", "_H", "_DY")) else 1)
                 for name in names)


def field_steps(symbols: dict[str, int]) -> tuple[int, int, int, int]:
    """The playfield (X, Y, width, height) in steps, from the program's ``FIELD``."""
    x, y, w, h = box_steps(symbols, FIELD)
    return x, y, w, h


# ---- the player -------------------------------------------------------------------------------
class Computer:
    """Plays side ``side`` (0 red, 1 blue) at ``level``; ``step(machine)`` once a frame, before
    the frame is run, sets that side's joystick."""

    def __init__(self, side: int, level: str = "standard", symbols: dict[str, int] | None = None,
                 seed: int = 0) -> None:
        self.side = side
        self.level_name = level
        self.level = LEVELS[level]
        self.symbols = symbols if symbols is not None else builtin_symbols("conquest")
        self.random = random.Random(seed * 2 + side)
        self.blast_frames = constant(self.symbols, "BLAST_FRAMES")
        self.range = {weapon: constant(self.symbols, name) for weapon, name in RANGE_SYMBOLS.items()}
        self.arm = {weapon: constant(self.symbols, name) for weapon, name in ARM_SYMBOLS.items()}
        self.near_tree = constant(self.symbols, "NEAR_TREE")
        self.shelter, self.white = constant(self.symbols, "SHELTER_PAL"), constant(self.symbols, "S_WHITE")
        self.weapons = {constant(self.symbols, name): weapon for weapon, name in WEAPON_CODES.items()}
        self.playing = {constant(self.symbols, name) for name in PLAYING}
        self.running = constant(self.symbols, "RES_RUNNING")
        self.field = field_steps(self.symbols)
        self.hit_box, self.blast_box = box_steps(self.symbols, HIT_BOX), box_steps(self.symbols, BLAST_BOX)
        self._reset()

    def _reset(self) -> None:
        self.t = 0
        self.world: World | None = None
        self.seen: collections.deque[tuple[int, float, float]] = collections.deque(maxlen=SIGHTINGS)  # (t, sx, sy)
        self.out: tuple[int | None, bool] = (None, False)
        self.fire_was = False
        self.me: tuple[float, float] | None = None
        self.heading: int | None = None
        self.route: np.ndarray | None = None
        self.route_t = -99
        self.goal_key: tuple[tuple[int, int], ...] | None = None
        self.launched = -1
        self.missile_since = 0
        self.dives = False
        self.parted = 0.0
        self.jitter = 0
        self.shot_trail: collections.deque[tuple[int, float, float]] = collections.deque(maxlen=4)
        self.fire_line: tuple[int, int] | None = None     # (direction, t) of the enemy's shells
        self.shells: collections.deque[tuple[int, int, float, float]] = collections.deque(maxlen=4)
        self.wander: tuple[float, float] | None = None
        self.white_since: int | None = None   # when the enemy turned white (sheltered after a hit)
        self.near_t = 0                   # plane: when the enemy plane was last near or lined up
        self.trail: collections.deque[tuple[int, float, float]] = collections.deque(maxlen=8)  # plane
        self.me_white = False                    # this unit drawn white: no hit counts now
        # each battle its own temper: how quick, when it starts, which routes it prefers; drawn
        # in 50 Hz frames and turned into the region's frames by decide() (``_frames``)
        self.delay50 = self.level.delay + self.random.randrange(self.level.delay + 1)
        self.wake50 = 3 + self.random.randrange(self.level.wake)
        self.fps = 50
        self.delay, self.wake = self.delay50, self.wake50

    def _frames(self, n50: int) -> int:
        """``n50`` frames of 50 Hz as frames of this region: the computer's timings are times,
        the same in seconds on PAL and NTSC (docs/conquest.md, The computer opponent)."""
        return round(n50 * self.fps / 50)

    # -- reading the machine
    def _byte(self, iram: np.ndarray, name: str) -> int:
        return int(iram[self.symbols[name]])

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

    # -- what decide() has made sure of before a behaviour runs
    def _map(self) -> World:
        """The terrain, read from the screen before any behaviour runs."""
        assert self.world is not None
        return self.world

    def _here(self) -> tuple[float, float]:
        """Where this side's unit is; decide() waits until it has been seen."""
        assert self.me is not None
        return self.me

    def _enemy_known(self) -> tuple[float, float, float, float]:
        """``enemy()`` where the caller has already seen that it is known."""
        e = self.enemy()
        assert e is not None
        return e

    # -- the enemy as seen `delay` frames ago, moved on by its speed
    def enemy(self, ahead: float = 0.0) -> tuple[float, float, float, float] | None:
        """(x, y, vx, vy) predicted ``ahead`` frames from now, from sightings at least
        ``delay`` frames old; None if never seen."""
        known = [s for s in self.seen if s[0] <= self.t - self.delay] or list(self.seen)[:1]
        if not known:
            return None
        t, x, y = known[-1]
        vx = vy = 0.0
        older = [s for s in known if 2 <= t - s[0] <= 6]
        if older and t - known[-1][0] < 8:
            t0, x0, y0 = older[-1]
            vx, vy = wrap(x - x0, WORLD_W) / (t - t0), wrap(y - y0, WORLD_H) / (t - t0)
        if self.enemy_weapon == SUB and t < self.t - 2:
            vx = vy = 0.0                       # a submarine out of sight: where it dived
        lag = self.t - t + ahead
        return x + vx * lag, y + vy * lag, vx, vy

    def _coins(self, shape: tuple[int, ...]) -> np.ndarray:
        """Uniform numbers in [0, 1) from this computer's own random stream."""
        return np.random.default_rng(self.random.getrandbits(32)).random(shape)

    def _noise(self) -> float:
        return self.random.uniform(-self.level.noise, self.level.noise)

    # -- straight shots (tank shell, plane shot)
    def _shelter_left(self) -> int:
        """Frames the enemy stays sheltered (drawn white after a hit; no hit counts then)."""
        if self.white_since is None:
            return 0
        return max(0, self.white_since + self._frames(self.shelter) - self.t)

    def _hit_after(self, d: int, speed: float, reach: int, arm: int,
                   blocked: Blocked | None, after: float = 0.0,
                   swerve: tuple[float, float] | None = None, path: Path | None = None,
                   turn: int = TURN_AT) -> bool:
        """Whether a shot fired now in direction ``d`` meets the enemy's predicted path after
        more than ``arm`` steps (nearer it flies through) and no sooner than ``after`` frames
        from now; with ``swerve`` (steps a frame), the path of an enemy that sees the shot and
        goes that way from ``turn`` frames on; with ``path``, that path (``_loop``)."""
        x0, y0 = self._here()
        per_frame = speed / self.fps
        bx, by = self.hit_box[0] - self.level.slack, self.hit_box[1] - self.level.slack
        ex, ey, vx, vy = self._enemy_known()
        nx, ny = self._noise(), self._noise()
        ex, ey = ex + nx, ey + ny
        tx, ty = swerve if swerve is not None else (vx, vy)
        for k in range(2, reach + 1):
            sx, sy = x0 + DX[d] * k, y0 + DY[d] * k
            if blocked is not None and blocked(sx, sy, k):
                return False
            ahead = 1 + k / per_frame
            bend = max(0.0, ahead - turn)
            px, py = ex + vx * (ahead - bend) + tx * bend, ey + vy * (ahead - bend) + ty * bend
            if path is not None:
                there = path(ahead)
                if there is None:
                    return False
                px, py = there[0] + nx, there[1] + ny
            if k > arm and ahead >= after and within(px - sx, py - sy, bx, by):
                return True
        return False

    def _shown_for(self, frames: int) -> bool:
        """Whether the enemy has been in sight for the last ``frames`` frames without a break."""
        run = 0
        for t, _x, _y in reversed(self.seen):
            if t != self.t - run:
                break
            run += 1
        return run > frames

    def enemy_shown_recently(self) -> bool:
        return bool(self.seen) and self.seen[-1][0] >= self.t - self.delay - 1

    def _incoming(self) -> bool:
        """An enemy shot or missile is near and coming this way."""
        s = self.enemy_shot
        if not s.shown or not self.level.dodge:
            return False
        x, y = self._here()
        dx, dy = wrap(x - s.sx, WORLD_W), wrap(y - s.sy, WORLD_H)
        return abs(dx) < 30 and abs(dy) < 20

    # -- routes
    def _route_step(self, passable: np.ndarray, find_goals: Callable[[], np.ndarray],
                    key: tuple[tuple[int, int], ...], moves: Sequence[int] = range(8),
                    wraps: bool = False,
                    tolls: Callable[[np.ndarray], np.ndarray | None] | None = None) -> int | None:
        """The direction to the next node on a shortest route to any of the nodes ``find_goals()``
        gives (None: at a goal or no route), or the cheapest with ``tolls(goals)`` (what each
        node costs to pass); the route is planned again when ``key`` changes and every 12 frames."""
        if self.route is None or self.t - self.route_t > self._frames(12) or key != self.goal_key:
            goals = find_goals()
            keep = goals & (self._coins(goals.shape) >= self.level.spread)
            goals = keep if keep.any() else goals
            self.route = distances(passable, goals, moves, wraps,
                                   None if tolls is None else tolls(goals))
            self.route_t, self.goal_key = self.t, key
        x, y = self._here()
        c, r = node_of(x, y)
        dist = self.route
        here = dist[r, c]
        options = [(int(dist[r2, c2]), k) for k, r2, c2 in neighbours(passable, r, c, moves, wraps)
                   if dist[r2, c2] < here]
        if not options:
            return None
        nearest = min(d for d, _k in options)
        ties = [k for d, k in options if d == nearest]
        # of equally short routes: the one it is on, else any (no side prefers a direction)
        heading = self.heading
        move = heading if heading is not None and heading in ties else \
            ties[self.random.randrange(len(ties))]
        if len(moves) == 4:               # a plane flies along rows and columns only
            return move
        tx, ty = node_centre(c + DX[move], r + DY[move])
        return aim_direction(tx - x, ty - y)

    def _goals_aligned(self, ok: np.ndarray, reach: int, near: int, blocked: Blocked,
                       diagonal: bool = True) -> np.ndarray:
        """Nodes on ``ok`` from which a shot along one of the 8 lines reaches the enemy within
        ``reach`` steps with nothing in its way."""
        e = self._enemy_known()
        ys, xs = NODE_Y, NODE_X
        dx = np.broadcast_to(e[0] - xs[None, :], (ROWS, COLS))
        dy = np.broadcast_to(e[1] - ys[:, None], (ROWS, COLS))
        ax, ay = np.abs(dx), np.abs(dy)
        lined = ((ay <= 1) & (ax <= reach)) | ((ax <= 1) & (ay <= reach))
        if diagonal:
            lined |= (np.abs(ax - ay) <= 1) & (ax <= reach)
        lined &= (np.maximum(ax, ay) >= near) & node_mask(ok)
        for r, c in zip(*np.nonzero(lined)):
            x0, y0 = xs[c], ys[r]
            d = aim_direction(dx[r, c], dy[r, c])
            steps = int(max(ax[r, c], ay[r, c]))
            if any(blocked(x0 + DX[d] * k, y0 + DY[d] * k, k) for k in range(2, steps, 2)):
                lined[r, c] = False
        return lined

    # -- tank
    def _tank(self) -> tuple[int | None, bool]:
        d: int | None                          # a direction, None for none
        w = self._map()
        e = self.enemy()
        if e is None:
            return None, False

        def blocked(sx: float, sy: float, k: int) -> bool:
            if w.at(w.out, sx, sy):
                return True
            return w.at(w.deadly, sx, sy) or (k > self.near_tree and w.at(w.tree, sx, sy))

        fire_ready = not self.shot.shown and not self.fire_was
        if fire_ready and self.enemy_shown_recently():
            order = sorted(range(8), key=lambda d: d != self.heading)
            ways, turn = self._swerves(), TURN_AT
            loop = self._loop()
            # a tank that has kept its course (or stood) for 1.2 s is not dodging: aim at it
            dodger = self.enemy_weapon == TANK and not self._flew_straight(self._frames(STRAIGHT))
            for d in order:
                if dodger:
                    ways, turn = self._sidesteps(d), self._frames(TANK_TURN_AT)
                if self._hit_after(d, SPEED["shell"], self.range[TANK], self.arm[TANK], blocked,
                                   self._shelter_left(), path=loop) if loop is not None else \
                        sum(self._hit_after(d, SPEED["shell"], self.range[TANK], self.arm[TANK], blocked,
                                            self._shelter_left(), way, turn=turn) for way in ways) * 2 > len(ways):
                    self.heading = d
                    return d, True
        if self.enemy_weapon == TANK:          # out of the line of the other tank's shell
            aside = self._sidestep(w)
            if aside is not None:
                self.heading = aside
                return aside, False
        elif self.enemy_weapon == SUB and self.level.across and self._incoming():
            if self.fire_line is not None and self.t - self.fire_line[1] <= 2:   # the missile's line
                aside = self._across(w, self.fire_line[0])
                if aside is not None:
                    self.heading = aside
                    return aside, False
        elif self._incoming() and self.heading is not None:    # a plane's shot, a missile
            for d in ((self.heading + 2) % 8, (self.heading + 6) % 8):
                nx, ny = self._here()[0] + 3 * DX[d], self._here()[1] + 3 * DY[d]
                if w.at(w.tank_ok, nx, ny):
                    self.heading = d
                    return d, False
        ok = node_mask(w.tank_ok)
        key = (node_of(e[0], e[1]), (-1 if self.fire_line is None else self.fire_line[0], 0))

        def goals() -> np.ndarray:
            spots = self._goals_aligned(w.tank_ok, self.range[TANK] - 3, max(8, self.arm[TANK] + 4), blocked)
            spots &= ~self._in_fire_line(e)
            if not spots.any() and ok.any():          # out of reach: as near as the land goes
                far = node_far(e[0], e[1])
                land = ok
                # a submarine that has launched in the last 3 s: no nearer than the shell's range,
                # out of its missile's short way (docs/conquest.md); one that does not launch:
                # on the nearest shore, to be there when it surfaces
                beyond = ok & (far >= self.range[TANK])
                launched = self.fire_line is not None and self.t - self.fire_line[1] <= self._frames(150)
                if self.enemy_weapon == SUB and launched and beyond.any():
                    land = beyond
                spots = land & (far <= far[land].min() + 2)
            return spots
        def exposed(spots: np.ndarray) -> np.ndarray | None:
            """Against a tank: a node in its line of fire costs EXPOSED more to pass, so the
            route comes to a firing spot from the side, not along the enemy's gun line
            (docs/conquest.md, The computer opponent)."""
            if self.enemy_weapon != TANK:
                return None
            lined = self._goals_aligned(w.tank_ok, self.range[TANK], 0, blocked) & ~spots
            return np.where(lined, EXPOSED, 0)
        # against a tank: around the line it keeps firing along, not through it (a shell
        # every second along one line is a wall), unless there is no other way
        c, r = node_of(*self._here())
        lane = self._in_fire_line(e, self.hit_box[1] + 2) if self._walled() else np.zeros_like(ok)
        lane[r, c] = False
        d = self._route_step(ok & ~lane, goals, key, tolls=exposed)
        assert self.route is not None
        if d is None and lane.any() and self.route[r, c] > 0:      # no way around: through it
            d = self._route_step(ok, goals, (*key, (1, 1)), tolls=exposed)
        if d is None:                          # on a firing spot: face the enemy
            d = aim_direction(e[0] - self._here()[0], e[1] - self._here()[1])
            if d == self.heading:
                return None, False
        self.heading = d
        return d, False

    def _sidesteps(self, d: int) -> list[tuple[float, float] | None]:
        """The ways an enemy tank may go once it sees a shell fired in direction ``d``: on as it
        goes, or across the shell's line either way at full speed; the tank fires where most of
        them are hit, so it does not waste shells (5 units each) that a tank steps out of."""
        v = SPEED["tank"] / self.fps / (math.sqrt(2) if DX[d] and DY[d] else 1)
        return [None, *((DX[k] * v, DY[k] * v) for k in ((d + 2) % 8, (d + 6) % 8))]

    def _swerves(self) -> list[tuple[float, float] | None]:
        """The ways the enemy may go once it sees a shell (None: on as it goes); the tank fires
        where most of them are hit. A plane turns a quarter left or right (docs/conquest.md)."""
        if self.enemy_weapon != PLANE or self._flew_straight(self._frames(STRAIGHT)):
            return [None]
        _x, _y, vx, vy = self._enemy_known()
        return [None, (-vy, vx), (vy, -vx)]

    def _flew_straight(self, frames: int) -> bool:
        """Whether the enemy was in sight for the last ``frames`` frames on one straight course
        at one speed: a plane that has not turned for that long (a player who lets it fly, or
        does not see the shell) is aimed at where it flies, not where it might turn."""
        if not self._shown_for(frames):
            return False
        t1, x1, y1 = self.seen[-1]
        t0, x0, y0 = next(s for s in self.seen if s[0] >= t1 - frames)
        vx, vy = wrap(x1 - x0, WORLD_W) / max(1, t1 - t0), wrap(y1 - y0, WORLD_H) / max(1, t1 - t0)
        return all(apart(x1 - vx * (t1 - t) - x, y1 - vy * (t1 - t) - y) < 2
                   for t, x, y in self.seen if t >= t0)

    def _loop(self) -> Path | None:
        """A plane that flies round and round: where it will be (frames ahead), as where it was
        one turn earlier, moved on by that turn's drift; None when its track of the last
        LOOP_CHECK frames, as seen after the reaction time, repeats no earlier stretch of it
        within LOOP_MISS steps (so moved on), or when the turn's sightings run out. A circling
        plane's straight path or its quarter turns say nothing of where it will be."""
        if self.enemy_weapon != PLANE:
            return None
        now = self.t - self.delay
        track: dict[int, tuple[float, float]] = {}
        seen = [s for s in self.seen if s[0] <= now]
        for (t0, x0, y0), (t1, x1, y1) in zip(seen, seen[1:]):     # its autopilot blinks it
            if t1 - t0 <= self._frames(8):
                dx, dy = wrap(x1 - x0, WORLD_W) / (t1 - t0), wrap(y1 - y0, WORLD_H) / (t1 - t0)
                track.update({t0 + i: (x0 + dx * i, y0 + dy * i) for i in range(t1 - t0)})
        if seen:
            track[seen[-1][0]] = seen[-1][1:]
        check = self._frames(LOOP_CHECK)
        if not all(now - i in track for i in range(check)):
            return None

        def drift(i: int, period: int) -> tuple[float, float]:
            (x1, y1), (x0, y0) = track[now - i], track[now - i - period]
            return wrap(x1 - x0, WORLD_W), wrap(y1 - y0, WORLD_H)

        best, turn = LOOP_MISS, 0
        for period in range(self._frames(LOOP_SHORTEST), now - min(track) - check + 1):
            if all(now - i - period in track for i in range(check)):
                dx, dy = drift(0, period)
                miss = max(apart(ax - dx, ay - dy) for ax, ay in (drift(i, period) for i in range(1, check, 2)))
                if miss < best and apart(dx, dy) < 8:
                    best, turn = miss, period
        if not turn:
            return None
        dx, dy = drift(0, turn)

        def where(ahead: float) -> tuple[float, float] | None:
            then = track.get(round(self.t + ahead - turn))
            return None if then is None else (then[0] + dx, then[1] + dy)
        return where

    def _walled(self) -> bool:
        """Whether the enemy tank has fired its last 3 shells, in the last 3 s, along one line
        from one place (as a tank standing still and firing does): that line is a wall."""
        if self.enemy_weapon != TANK or len(self.shells) < 3:
            return False
        last = list(self.shells)[-3:]
        _t, d, x, y = last[-1]
        return last[0][0] >= self.t - self._frames(150) and \
            all(k == d and abs(x - x0) < 4 and abs(y - y0) < 4 for _t0, k, x0, y0 in last)

    def _shell_line(self) -> int | None:
        """The direction of the enemy's shell if its path runs through this tank's hit box."""
        s = self.enemy_shot
        if not s.shown or not self.level.dodge or self.me_white:
            return None                        # sheltered (drawn white): no hit counts now
        if self.t - self.missile_since < self.delay:
            return None                        # a shell is seen after the reaction time
        if len(self.shot_trail) >= 2:
            _t0, x0, y0 = self.shot_trail[0]
        else:                                  # just fired: it flies away from the enemy
            known = self.enemy()
            if known is None:
                return None
            x0, y0 = known[0], known[1]
        dx, dy = wrap(s.sx - x0, WORLD_W), wrap(s.sy - y0, WORLD_H)
        if max(abs(dx), abs(dy)) < 1:
            return None
        d = aim_direction(dx, dy)
        x, y = self._here()
        bx, by = self.hit_box[0] + 1, self.hit_box[1] + 1
        for k in range(0, self.range[TANK] + 1, 2):
            if within(s.sx + DX[d] * k - x, s.sy + DY[d] * k - y, bx, by):
                return d
        return None

    def _sidestep(self, w: World) -> int | None:
        """Out of the path of the enemy's shell: across it, to the side the tank is already on
        (the shorter way out of the hit box), else the other side; None when no shell comes."""
        d = self._shell_line()
        if d is None:
            return None
        return self._across(w, d)

    def _across(self, w: World, d: int) -> int | None:
        """Across the line ``d`` of the enemy's shell or missile, to the side the tank is on
        (the shorter way out), else the other side, where the land allows."""
        x, y = self._here()
        s = self.enemy_shot
        across = DX[(d + 2) % 8] * wrap(x - s.sx, WORLD_W) + DY[(d + 2) % 8] * wrap(y - s.sy, WORLD_H)
        sides = [(d + 2) % 8, (d + 6) % 8]
        room = {k: self._room(w, k) for k in sides}
        if abs(across) >= 1:                   # off its line: out on the side it is on
            flip = across < 0
        elif room[sides[0]] != room[sides[1]]:    # on its line: the side with more room
            flip = room[sides[1]] > room[sides[0]]
        else:                                  # as much room both ways: either
            flip = self.random.random() < 0.5
        if flip:
            sides.reverse()
        for k in sides:
            if room[k] >= 4:
                return k
        return None

    def _room(self, w: World, k: int, most: int = 16) -> int:
        """Free steps (to ``most``, in twos) the tank has in direction ``k`` before water, a
        mountain, a mine or the edge."""
        x, y = self._here()
        n = 0
        while n < most and w.at(w.tank_ok, x + DX[k] * (n + 2), y + DY[k] * (n + 2)):
            n += 2
        return n

    def _in_fire_line(self, e: tuple[float, float, float, float], width: float = 10) -> np.ndarray:
        """Nodes in the line the enemy tank or plane has fired along in the last 3 s, less than
        ``width`` steps across from it (one that keeps firing one way covers that line: the
        spots beside it are safe, docs/conquest.md)."""
        lined = np.zeros((ROWS, COLS), dtype=bool)
        if self.enemy_weapon == SUB or self.fire_line is None or \
                self.t - self.fire_line[1] > self._frames(150):
            return lined
        d = self.fire_line[0]
        ux, uy = DX[d] / math.hypot(DX[d], DY[d]), DY[d] / math.hypot(DX[d], DY[d])
        rx, ry = NODE_X[None, :] - e[0], NODE_Y[:, None] - e[1]
        along, across = rx * ux + ry * uy, np.abs(rx * uy - ry * ux)
        reach = self.range[TANK if self.enemy_weapon == TANK else PLANE] + 16
        line: np.ndarray = (along > 0) & (along < reach) & (across < width)
        return line

    # -- plane
    def _plane(self) -> tuple[int | None, bool]:
        d: int | None
        w = self._map()
        if self.heading is None:
            self.heading = 0 if self.side == 0 else 4
        x, y = self._here()
        clear = {}
        for d in CARDINAL:
            n = 0
            while n < 40 and not w.at(w.crash, x + DX[d] * (n + 2), y + DY[d] * (n + 2)):
                n += 1
            clear[d] = n
        safe = [d for d in CARDINAL if clear[d] >= 12] or [max(CARDINAL, key=clear.__getitem__)]
        e = self.enemy()
        if e is None:
            return self.heading, False
        def outside(sx: float, sy: float, k: int) -> bool:
            return w.at(w.out, sx, sy)

        fire_ready = not self.shot.shown and not self.fire_was and not self._sheltered(e, x, y)
        if fire_ready and self.enemy_shown_recently():
            for d in sorted(safe, key=lambda d: d != self.heading):
                if self._hit_after(d, SPEED["shell"], self.range[PLANE], self.arm[PLANE], outside):
                    self.heading = d
                    return d, True
        if fire_ready and self.enemy_weapon == PLANE and self.seen and \
                self.seen[-1][0] >= self.t - self._frames(10):
            # a plane that weaves (its autopilot blinks it) has no steady path to predict: a
            # shot is cheap, fire whenever it is in the corridor ahead
            ahead = self._corridor(e, x, y)
            if ahead is not None and ahead in safe:
                self.heading = ahead
                return ahead, True
        # fly (never slower: it turns back and forth where it must wait) to a node from which a
        # shot along a row or column reaches the enemy inside the field
        free = node_mask(~w.crash)
        d = self._head_on(e, x, y, safe)
        if self.enemy_weapon == TANK and not self.me_white and self._shelter_left() > self._frames(KEEP_OFF):
            # a sheltered tank cannot be hurt, but it can hit: keep out of its reach meanwhile
            line = aim_direction(wrap(x - e[0], WORLD_W), wrap(y - e[1], WORLD_H))
            d = max(safe, key=lambda k: (k not in (line, (line + 4) % 8),
                                         apart(e[0] - x - 8 * DX[k], e[1] - y - 8 * DY[k]),
                                         k == self.heading))
        if d is None:
            d = self._route_step(free, lambda: self._goals_aligned(~w.out, self.range[PLANE] - 10, max(10, self.arm[PLANE] + 4),
                                                                   outside, diagonal=False)
                                 & ~self._in_fire_line(e),
                                 (node_of(e[0], e[1]),), CARDINAL, wraps=True)
        if d is None or clear[d] < 3:
            d = self.heading if self.heading in safe else max(safe, key=clear.__getitem__)
        d = self._cruise(e, x, y, d)
        missile = self.enemy_shot
        if self.level.dodge and self.enemy_weapon == SUB and missile.shown:
            # a plane outruns a missile (48 steps/s against 32): fly away from it
            def gap(k: int) -> float:
                return apart(x + DX[k] * 8 - missile.sx, y + DY[k] * 8 - missile.sy)
            flown = (self.t - self.missile_since) * SPEED["missile"] / self.fps
            left = self.range[SUB] - flown + max(self.blast_box)     # a spent missile is no threat
            if gap(self.heading or 0) < min(40, left) and self.t - self.missile_since >= 4 * self.delay:
                d = max(safe, key=lambda k: (gap(k), k == self.heading))
        elif self._incoming() and d in (self.heading, (self.heading + 4) % 8):
            d = max((k for k in safe if k not in (self.heading, (self.heading + 4) % 8)),
                    key=clear.__getitem__, default=d)
        elif self.enemy_weapon == TANK and self._incoming() and self.fire_line is not None and self.heading in safe and \
                d in (self.fire_line[0], (self.fire_line[0] + 4) % 8) and \
                self.heading not in (self.fire_line[0], (self.fire_line[0] + 4) % 8):
            d = self.heading                      # across the shot's line: on until it has passed
        self.heading = d
        return d, False

    def _sheltered(self, e: tuple[float, float, float, float], x: float, y: float) -> bool:
        """Whether a shot fired now would reach the enemy while it is still sheltered after a hit
        (drawn white for SHELTER_PAL frames of 50 Hz, 1 s, in which hits do not count): a wasted
        shot costs energy, and a person sees the white and knows the second."""
        left = self._shelter_left()
        dist = apart(e[0] - x, e[1] - y)
        return left > dist / (SPEED["shell"] / self.fps) + 1

    def _cruise(self, e: tuple[float, float, float, float], x: float, y: float, d: int) -> int:
        """Against a plane: the autopilot (a diagonal held) towards it instead of ``d``, at
        half speed for half the energy (docs/conquest.md), until the two are lined up on a row or
        column (a head-on pass) or a shot comes at it; it turns sharply to fire (the fire
        decisions come first), and near trees and mountains it flies ``d``. A plane that only
        runs away, at full speed on a field that wraps and never to be caught, runs dry first."""
        w = self._map()
        self.trail.append((self.t, x, y))
        dx, dy = wrap(e[0] - x, WORLD_W), wrap(e[1] - y, WORLD_H)
        lined_up = abs(dy) < 6 or abs(dx) < 4
        if lined_up or max(abs(dx), abs(dy)) < RUNNER_FAR:
            self.near_t = self.t
        if self.enemy_weapon != PLANE or self._incoming() or lined_up:
            return d
        if not self.level.cruise and self.t - self.near_t <= self._frames(RUNNER_AFTER):
            return d
        t0, x0, y0 = self.trail[0]
        facing = aim_direction(wrap(x - x0, WORLD_W), wrap(y - y0, WORLD_H)) if self.t > t0 else d

        def clear(k: int, n: int) -> bool:
            return not any(w.at(w.crash, x + DX[k] * i, y + DY[k] * i) for i in range(2, n))

        if not clear(facing, 10):
            return d
        order = sorted((1, 3, 5, 7), key=lambda k: (k != self.heading or DX[k] * dx + DY[k] * dy <= 0,
                                                   -(DX[k] * dx + DY[k] * dy)))
        return next((k for k in order if clear(k, 24)), d)

    def _corridor(self, e: tuple[float, float, float, float], x: float, y: float) -> int | None:
        """The row or column direction whose shot passes within reach of the enemy, if any."""
        dx, dy = wrap(e[0] - x, WORLD_W), wrap(e[1] - y, WORLD_H)
        reach, arm = self.range[PLANE], self.arm[PLANE]
        if abs(dy) < 6 and arm < abs(dx) < reach:
            return 0 if dx > 0 else 4
        if abs(dx) < 5 and arm / 2 < abs(dy) < reach / 2:
            return 6 if dy > 0 else 2
        return None

    def _head_on(self, e: tuple[float, float, float, float], x: float, y: float,
                 safe: list[int]) -> int | None:
        """Against a plane on this row or column: fly at it. Planes are equally fast, so one
        chased from behind is never caught, and a shot fired head-on closes at twice the speed
        (docs/conquest.md "Battles of manoeuvre": a hit shelters, so the next pass decides)."""
        if self.enemy_weapon != PLANE:
            return None
        ex, ey, vx, vy = e
        if abs(vx) > abs(vy) and abs(wrap(ey - y, WORLD_H)) < 6:
            want = 4 if vx > 0 else 0
        elif abs(vy) > abs(vx) and abs(wrap(ex - x, WORLD_W)) < 4:
            want = 2 if vy > 0 else 6
        elif abs(vx) > 2 * abs(vy) and abs(vx) > 0.3:    # it flies along a row: get onto it
            want = 2 if wrap(ey - y, WORLD_H) < 0 else 6
        elif abs(vy) > 2 * abs(vx) and abs(vy) > 0.3:    # ... along a column
            want = 0 if wrap(ex - x, WORLD_W) > 0 else 4
        else:
            return None
        return want if want in safe else None

    # -- submarine
    def _sub(self) -> tuple[int | None, bool]:
        d: int | None
        w = self._map()
        e = self._circling(self.enemy())
        stick, fire = self.out
        if self.fire_was and self.t - self.launched < self._frames(4):
            return None, True                     # the missile is on its way up to the screen
        if self.shot.shown and self.fire_was:
            return self._steer_missile(e)
        if self.t % self.level.think:
            if stick is not None:
                self._reckon(stick)
            return stick, False
        if e is None:
            return None, False
        x, y = self._here()
        dist = max(abs(e[0] - x), abs(e[1] - y))
        if self.enemy_shown_recently():
            self.parted = dist                    # how far apart they were when last in sight
        incoming = self.enemy_shot
        if self.level.dodge and incoming.shown and self.enemy_weapon == SUB:
            away_x, away_y = x - incoming.sx, y - incoming.sy
            if max(abs(away_x), abs(away_y)) < 45:    # run submerged from the missile
                d = max(range(8), key=lambda k: (w.at(w.sub_ok, x + DX[k] * 3, y + DY[k] * 3),
                                                 (DX[k] * away_x + DY[k] * away_y)
                                                 / (1.4142 if DX[k] and DY[k] else 1.0)))
                self._reckon(d)
                return d, False
        if self.enemy_weapon != SUB and self.dives and self._incoming():
            # a shell or shot hits only a submarine that shows its periscope: dive (keep moving),
            # across the line it comes along (docs/conquest.md)
            along = self.fire_line[0] if self.fire_line is not None else aim_direction(
                x - incoming.sx, y - incoming.sy)
            d = max(range(8), key=lambda k: (w.at(w.sub_ok, x + DX[k] * 3, y + DY[k] * 3),
                                             -abs(DX[k] * DX[along] + DY[k] * DY[along]),
                                             k == self.heading))
            self._reckon(d)
            self.heading = d
            return d, False
        # water within launch range, not too near the other submarine (touching destroys both)
        ok = node_mask(w.sub_ok)
        far = node_far(e[0], e[1])
        reach = self.level.launch
        if ok.any():
            reach = min(max(reach, int(far[ok].min()) + 12), self.range[SUB] - 12)
        near = 20                                 # touching the other submarine destroys both
        if self.enemy_weapon == SUB and self.seen:   # it may have come this far unseen
            unseen = self.t - self.seen[-1][0]
            near = min(20 + int(SPEED["sub"] / self.fps * unseen), reach - 16)
        goals = (far <= reach - 12) & (far >= near) & ok
        if self.enemy_weapon == SUB and self.seen and self.t - self.seen[-1][0] > self._frames(30):
            # out of sight: close in on where it dived, to a missile's flight of about 1 s, but
            # not nearer (two blind submarines that meet both explode); at the next ping both
            # must stop and show their periscopes (docs/conquest.md), and it launches then
            # the other closes in too: each goes only half the way from where they parted, so
            # two that both come on stay 28 apart (they had met and both exploded)
            closest = max(28.0, (self.parted + 28) / 2)
            goals = ok & (far >= closest) & (far <= closest + 14)
            if not goals.any():
                mine = node_far(x, y)
                goals = ok & (mine <= 12) & (far >= 20)
        if self.enemy_weapon == TANK and self.level.lines:
            # a shell flies along one of 8 lines: launch from water off the tank's lines
            off = goals & ~self._tank_lines(e)
            if off.any():
                goals = off
        south = goals & (NODE_Y[:, None] >= e[1] - 4)     # its missile starts upwards
        if south.any():
            goals = south
        if not goals.any():
            goals = (far <= reach) & ok
        # against a submarine: launch from below it (the missile starts upwards) or from near;
        # two see each other at the same ping, so each waits a few frames drawn after each
        # launch, not both in the same frame (the program moves red's missile first, so equal
        # blows had ended in red's favour); against a tank: from off its lines, where there are
        placed = True
        if self.enemy_weapon == SUB:
            placed = (e[1] <= y + 4 or dist < 35) and self._shown_for(self.jitter)
        elif self.enemy_weapon == TANK and self.level.lines:
            lines = self._tank_lines(e)
            c, r = node_of(x, y)
            placed = not lines[r, c] or not (goals & ~lines).any()
        if not self.shot.shown and not self.fire_was and self.enemy_shown_recently() \
                and dist <= reach and self.t > self._frames(20) and placed \
                and self._missile_meets(x, y, e, self.range[SUB]):
            self.launched = self.t
            if self.enemy_weapon == SUB:
                self.jitter = self.random.randrange(self.delay + 1)
            return None, True
        key = (node_of(e[0], e[1]),)
        d = self._route_step(ok, lambda: goals, key)
        if d is None:                             # within reach: cruise among the goal nodes
            if self.wander is None or max(abs(self.wander[0] - x), abs(self.wander[1] - y)) < 3:
                choices = np.argwhere(goals)
                if len(choices):
                    r, c = choices[self.random.randrange(len(choices))]
                    self.wander = node_centre(int(c), int(r))
            if self.wander is not None:
                d = aim_direction(self.wander[0] - x, self.wander[1] - y)
                if not w.at(w.sub_ok, x + DX[d] * 2, y + DY[d] * 2):
                    d = self.random.choice([k for k in range(8)
                                            if w.at(w.sub_ok, x + DX[k] * 2, y + DY[k] * 2)] or [d])
        if d is not None:
            self._reckon(d)
            self.heading = d
        return d, False

    def _circling(self, e: tuple[float, float, float, float] | None
                  ) -> tuple[float, float, float, float] | None:
        """A plane that keeps turning (the track of its last 0.8 s spans less than 3/5 of the way
        it flew; a circle spans 2 radii for 4.2 flown) has no straight path to meet: it stays
        about the middle of that track (a part of a circle says little of any drift). Aimed at
        the straight path, a missile of 32 steps/s never met a circling plane and was let go
        (docs/conquest.md)."""
        span = self._frames(CIRCLE_SPAN)
        now = self.t - self.delay                       # what it has seen, as enemy() does
        track = [s for s in self.seen if now - span < s[0] <= now]
        if e is None or self.enemy_weapon != PLANE or len(track) < span * 3 // 4:
            return e
        t0, x0, y0 = track[0]
        steps = [(wrap(b[1] - a[1], WORLD_W), wrap(b[2] - a[2], WORLD_H)) for a, b in zip(track, track[1:])]
        flown = sum(max(abs(dx), abs(dy)) for dx, dy in steps)
        xs = [0.0, *itertools.accumulate(dx for dx, _ in steps)]      # the track from its start
        ys = [0.0, *itertools.accumulate(dy for _, dy in steps)]
        if max(max(xs) - min(xs), max(ys) - min(ys)) * 5 > flown * 3:
            return e
        return x0 + sum(xs) / len(xs), y0 + sum(ys) / len(ys), 0.0, 0.0

    def _reckon(self, d: int) -> None:
        """Where this submarine is while it runs submerged: one frame of its course."""
        if self.me_t == self.t:
            return
        x, y = self._here()
        v = SPEED["sub"] / self.fps
        nx, ny = x + DX[d] * v, y + DY[d] * v
        if self._map().at(self._map().water, nx, ny):
            self.me = (nx, ny)

    def _tank_lines(self, e: tuple[float, float, float, float]) -> np.ndarray:
        """Nodes a shell of the tank at ``e`` can reach along its 8 lines (with the hit box)."""
        dx, dy = node_offsets(e[0], e[1])
        bx, by = self.hit_box[0] + 2, self.hit_box[1] + 2
        reach = self.range[TANK] + 4
        lined: np.ndarray = (((dy < by) | (dx < bx) | (np.abs(dx - dy) < max(bx, by)))
                             & (np.maximum(dx, dy) <= reach))
        return lined

    def _missile_meets(self, mx: float, my: float, e: tuple[float, float, float, float],
                       left: float) -> bool:
        """Whether a missile at ``mx, my`` with ``left`` steps of range can bring its blast onto
        the enemy's predicted path inside the field: a plane flying away outruns it (48 steps/s
        against 40), and one off the field is out of its reach (docs/conquest.md)."""
        w = self._map()
        per_frame = SPEED["missile"] / self.fps
        bx, by = self.blast_box
        ex, ey, vx, vy = e
        for t in range(0, int(left / per_frame) + 1, 2):
            px, py = (ex + vx * t) % WORLD_W, (ey + vy * t) % WORLD_H    # a missile never wraps
            if not w.at(w.out, px, py) and max(abs(px - mx) - bx, abs(py - my) - by) <= t * per_frame:
                return True
        return False

    def _steer_missile(self, e: tuple[float, float, float, float] | None) -> tuple[int | None, bool]:
        """Steer the missile to where its path meets the enemy's; let go of the button (it
        detonates) when the enemy is in the blast now or will run into it while it shows."""
        if e is None:
            return None, False
        w = self._map()
        m = self.shot
        per_frame = SPEED["missile"] / self.fps
        ex, ey, vx, vy = e
        slack = 2 + self.level.slack
        bx, by = self.blast_box[0] - slack, self.blast_box[1] - slack
        shows = self._frames(self.blast_frames) - 3      # 0.3 s: 15 frames PAL, 18 NTSC
        for t in range(1, shows if self.enemy_weapon == PLANE else 2):
            if within(ex + vx * t - m.sx, ey + vy * t - m.sy, bx, by):
                return None, False                # release: it detonates
        flown = (self.t - self.launched) * per_frame
        if flown > self.range[SUB] - 3:
            return None, False                    # at the end of its range it goes off anyway
        if self.enemy_weapon == PLANE and not self._missile_meets(m.sx, m.sy, e, self.range[SUB] - flown):
            return None, False                    # it cannot catch the plane: stop paying for it
        tx, ty = ex, ey                           # the first point of the enemy's path in reach
        for t in range(0, self._frames(120), 2):
            px, py = ex + vx * t, ey + vy * t
            if apart(px - m.sx, py - m.sy) <= t * per_frame + 6:
                tx, ty = px, py
                break
        best, best_s = None, 1e9
        for d in range(8):
            nx, ny = m.sx + DX[d] * 4, m.sy + DY[d] * 4
            gx, gy = abs(wrap(tx - nx, WORLD_W)), abs(wrap(ty - ny, WORLD_H))
            if w.at(w.missile_stop, nx, ny) and max(gx, gy) > 6:
                continue
            score = max(gx, gy) + 0.3 * min(gx, gy)
            if score < best_s:
                best, best_s = d, score
        return best, True


def players(specs: Iterable[str] | None, symbols: dict[str, int] | None,
            seed: int = 0) -> list[Computer]:
    """The computers that ``--computer`` values ask for, on a cartridge with ``symbols``."""
    chosen = parse_specs(specs)
    if chosen and not (symbols and all(name in symbols for name in READS)
                       and all(symbol_value(symbols, name) is not None for name in CONSTANTS)):
        raise ComputerSpecError(_("--computer plays the battle program only; this cartridge "
                                  "publishes no battle symbols (docs/conquest.md)"))
    return [Computer(side, level, symbols, seed) for side, level in chosen]
