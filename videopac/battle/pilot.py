"""One side's unit as the computer opponent drives it: what it has seen of the battle (its own
unit, the enemy's sightings, shots and shells), the program's constants it plays by, its level,
and the aim and the route planning that every weapon uses. The weapons' own tactics are
``tank.py``, ``plane.py`` and ``sub.py``; ``computer.py`` puts them together into the player.

Positions are kept in *steps* (docs/conquest.md, The computer opponent): X in units, Y in
lines / 2, so that the eight directions move (±1, ±1) like the cartridge's step table.
"""
from __future__ import annotations

import collections
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from cartridge.images import builtin_symbols
from videopac.battle.battlefield import (
    COLS, DX, DY, NODE_X, NODE_Y, ROWS, WORLD_H, WORLD_W, World, aim_direction, distances,
    neighbours, node_centre, node_mask, node_of, wrap, within)
from videopac.battle.published import symbol_value

HIDDEN_Y = 0xF8                           # where the cartridge parks a hidden sprite

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
STRAIGHT = 60                             # frames of 50 Hz a plane flew straight: it will fly on
SIGHTINGS = 128                           # frames of the enemy's positions kept (> STRAIGHT on NTSC, a turn of `circle` and LOOP_CHECK)
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



# ---- the pilot --------------------------------------------------------------------------------
class Pilot:
    """What one side's computer knows of its battle and how it aims and plans; the weapons'
    tactics (``tank.py``, ``plane.py``, ``sub.py``) build on it."""
    # what the player (computer.py, decide) reads off the machine each frame before a tactic runs
    weapon: str
    enemy_weapon: str | None
    shot: Sprite                  # this side's shot or missile
    enemy_shot: Sprite
    me_t: int                     # the frame its own unit was last seen

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
