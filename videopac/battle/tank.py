"""The computer opponent's tank (docs/conquest.md, The computer opponent): it drives to a spot from
which a shell reaches the enemy along one of the 8 lines, fires where the enemy cannot get out of
the shell's way, and steps out of the enemy's shells.
"""
from __future__ import annotations

import math

import numpy as np

from videopac.battle.battlefield import (
    DX, DY, WORLD_H, WORLD_W, World, aim_direction, apart, node_far, node_mask, node_of, wrap,
    within)
from videopac.battle.pilot import PLANE, SPEED, STRAIGHT, SUB, TANK, TURN_AT, Path, Pilot

TANK_TURN_AT = 4                          # frames of 50 Hz until a tank steps out of a shell's line
LOOP_CHECK, LOOP_SHORTEST = 16, 30       # frames of 50 Hz: a track that repeats (_loop) ...
LOOP_MISS = 1.5                           # ... shifted by its last turn's drift within steps
EXPOSED = 4                               # a node in the enemy tank's line of fire: 1 + 4 to pass


class TankTactics(Pilot):
    """How the computer drives a tank: firing spots, shells aimed where the enemy cannot get out of
    their way, stepping out of the enemy's shells."""

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
