"""The computer opponent's plane (docs/conquest.md, The computer opponent): it flies passes at the
enemy along rows and columns, fires where its shot meets the enemy's path, and keeps off a
sheltered tank.
"""
from __future__ import annotations

from videopac.battle.battlefield import (
    CARDINAL, DX, DY, WORLD_H, WORLD_W, aim_direction, apart, node_mask, node_of, wrap)
from videopac.battle.pilot import PLANE, SPEED, SUB, TANK, Pilot

KEEP_OFF = 25                             # frames of a tank's shelter left: a plane keeps off
RUNNER_FAR, RUNNER_AFTER = 70, 300        # a plane this far (steps) this long (frames of 50 Hz)


class PlaneTactics(Pilot):
    """How the computer flies a plane: passes along rows and columns, shots and dodges."""

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
