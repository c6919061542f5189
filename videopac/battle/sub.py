"""The computer opponent's submarine (docs/conquest.md, The computer opponent): it hides, launches
its missile from off the enemy's lines and steers it onto the enemy.
"""
from __future__ import annotations

import itertools

import numpy as np

from videopac.battle.battlefield import (
    DX, DY, NODE_Y, WORLD_H, WORLD_W, aim_direction, apart, node_centre, node_far, node_mask,
    node_of, node_offsets, wrap, within)
from videopac.battle.pilot import PLANE, SPEED, SUB, TANK, Pilot

CIRCLE_SPAN = 40                          # frames of 50 Hz: a plane turning within them circles


class SubTactics(Pilot):
    """How the computer commands a submarine: hiding, launching and steering the missile."""

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
