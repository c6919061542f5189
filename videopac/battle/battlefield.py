"""The battlefield as the computer opponent sees it: the terrain read from the picture, the
masks each weapon steers by, the route planner's grid of 4 x 4 steps, and directions and
distances across the wrapping world.

Positions are kept in *steps* (docs/conquest.md, The computer opponent): X in units, Y in
lines / 2, so that the eight directions move (±1, ±1) like the cartridge's step table.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator

import numpy as np

DX = (1, 1, 0, -1, -1, -1, 0, 1)          # steps per direction 0 right ... 7 down-right
DY = (0, -1, -1, -1, 0, 1, 1, 1)
CARDINAL = (0, 2, 4, 6)

WORLD_W, WORLD_H = 256, 128               # positions wrap at 256 units and 256 lines

# terrain classes, read from the picture's palette indices (docs/conquest.md, The maps)
WATER, LAND, TREE, OBSTACLE, OUT = range(5)
PALETTE_TERRAIN = {4: WATER, 12: WATER, 3: LAND, 10: TREE}   # any other colour is an obstacle
NODE = 4                                  # the route planner's grid: 4 x 4 steps
COLS, ROWS = WORLD_W // NODE, WORLD_H // NODE


# ---- the terrain -----------------------------------------------------------------------------
def terrain(frame: np.ndarray, field: tuple[int, int, int, int]) -> np.ndarray:
    """The terrain class of every step of the world (WORLD_H x WORLD_W), read from the picture
    at each step's point; outside the ``field`` (``field_steps``) is OUT."""
    from o2em_core.vdc_regs import screen_x      # lazy: o2em_core (and numba) once a machine runs

    x, y, w, h = field
    grid = np.full((WORLD_H, WORLD_W), OUT, np.int8)
    lines = np.arange(y, y + h) * 2
    pixels = screen_x(np.arange(x, x + w))
    colours = np.asarray(frame)[lines][:, pixels]
    lookup = np.full(256, OBSTACLE, np.int8)
    for colour, kind in PALETTE_TERRAIN.items():
        lookup[colour] = kind
    grid[y:y + h, x:x + w] = lookup[colours]
    return grid


def dilate(mask: np.ndarray, rx: int, ry: int) -> np.ndarray:
    """``mask`` grown by rx steps across and ry steps up and down (wrapping at the edges)."""
    out = mask.copy()
    for dx in range(1, rx + 1):
        out |= np.roll(mask, dx, 1) | np.roll(mask, -dx, 1)
    grown = out.copy()
    for dy in range(1, ry + 1):
        grown |= np.roll(out, dy, 0) | np.roll(out, -dy, 0)
    return grown


class World:
    """The terrain as the units meet it, with the masks each weapon steers by."""

    def __init__(self, frame: np.ndarray, sprites: list[tuple[float, float]],
                 field: tuple[int, int, int, int]) -> None:
        grid = terrain(frame, field)
        for sx, sy in sprites:          # under a unit: the cell's ground, not the unit's colour
            x0, y0 = int(sx) - 4, int(sy) - 4
            cell = grid[max(y0 - 8, 0):y0 + 16, max(x0 - 8, 0):x0 + 16]
            ground = WATER if (cell == WATER).sum() > (cell == LAND).sum() else LAND
            grid[max(y0, 0):y0 + 8, max(x0, 0):x0 + 8] = ground
        self.grid = grid
        self.out, self.tree, self.water = grid == OUT, grid == TREE, grid == WATER
        solid = grid == OBSTACLE
        # the cartridge tests a unit's centre against each glyph's box (8 units x 14 lines);
        # the margins fill the gaps between a glyph's lit pixels and keep a step or two away
        self.deadly = dilate(solid, 3, 2)                       # mountains, mines: tank, shell
        self.crash = dilate(solid | (grid == TREE), 4, 3)        # plane
        self.tank_ok = ((grid == LAND) | (grid == TREE)) & ~self.deadly
        self.tank_ok &= ~dilate(~((grid == LAND) | (grid == TREE)), 1, 1)
        self.sub_ok = (grid == WATER) & ~dilate(grid != WATER, 2, 2)
        self.missile_stop = dilate(solid | (grid == TREE), 3, 2)

    def at(self, mask: np.ndarray, sx: float, sy: float) -> bool:
        return bool(mask[int(sy) % WORLD_H, int(sx) % WORLD_W])


# ---- the route planner's grid ---------------------------------------------------------------
def node_of(sx: float, sy: float) -> tuple[int, int]:
    return int(sx % WORLD_W) // NODE, int(sy % WORLD_H) // NODE


def node_centre(c: int, r: int) -> tuple[float, float]:
    return NODE * c + NODE / 2, NODE * r + NODE / 2


NODE_X = NODE * np.arange(COLS) + NODE // 2     # the centres of the planner's nodes
NODE_Y = NODE * np.arange(ROWS) + NODE // 2


def node_offsets(x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
    """|dx| and |dy| in steps from (x, y) to every planner node's centre (1 x COLS, ROWS x 1)."""
    return np.abs(x - NODE_X[None, :]), np.abs(y - NODE_Y[:, None])


def node_far(x: float, y: float) -> np.ndarray:
    """Steps from (x, y) to every planner node's centre along the longer axis (ROWS x COLS)."""
    ax, ay = node_offsets(x, y)
    far: np.ndarray = np.maximum(ax, ay)
    return far


def node_mask(mask: np.ndarray) -> np.ndarray:
    """Which planner nodes have their centre on ``mask`` (ROWS x COLS)."""
    return mask[NODE_Y][:, NODE_X]


def distances(passable: np.ndarray, goals: np.ndarray, moves: Iterable[int] = range(8),
              wraps: bool = False, toll: np.ndarray | None = None) -> np.ndarray:
    """Moves (no corner cutting) from every passable node to the nearest goal; with ``toll``,
    a node costs 1 + its toll to pass (the cheapest route, not the shortest)."""
    far = 1 << 20
    moves = tuple(moves)
    dist = np.full(passable.shape, far, np.int32)
    heap: list[tuple[int, int, int]] = []
    for r, c in zip(*np.nonzero(goals & passable)):
        dist[r, c] = 0
        heap.append((0, int(r), int(c)))
    while heap:                       # Dijkstra; without tolls every cost is 1, as a BFS
        d0, r, c = heapq.heappop(heap)
        if d0 > dist[r, c]:
            continue
        d = d0 + 1 + (0 if toll is None else int(toll[r, c]))
        for _k, r2, c2 in neighbours(passable, r, c, moves, wraps):
            if dist[r2, c2] > d:
                dist[r2, c2] = d
                heapq.heappush(heap, (d, r2, c2))
    return dist


def neighbours(passable: np.ndarray, r: int, c: int, moves: Iterable[int],
               wraps: bool) -> Iterator[tuple[int, int, int]]:
    """(move, row, column) of each passable node one move from (r, c): across the edges when
    ``wraps``, and a diagonal only when both nodes beside it are passable (no corner cutting)."""
    rows, cols = passable.shape
    for k in moves:
        c2, r2 = c + DX[k], r + DY[k]
        if wraps:
            c2, r2 = c2 % cols, r2 % rows
        elif not (0 <= r2 < rows and 0 <= c2 < cols):
            continue
        if not passable[r2, c2]:
            continue
        if DX[k] and DY[k] and not (passable[r, c2] and passable[r2, c]):
            continue
        yield k, r2, c2


# ---- directions and distances across the wrapping world ---------------------------------------
def aim_direction(dx: float, dy: float) -> int:
    """The one of the 8 directions nearest to the step vector (dx, dy)."""
    best, score = 0, -1e9
    for k in range(8):
        norm = 1.4142 if DX[k] and DY[k] else 1.0
        s = (dx * DX[k] + dy * DY[k]) / norm
        if s > score:
            best, score = k, s
    return best


def wrap(d: float, size: int) -> float:
    """The shortest signed distance on a circle of ``size``."""
    return (d + size / 2) % size - size / 2


def apart(dx: float, dy: float) -> float:
    """How far apart two points (``dx``, ``dy`` steps) are across the wrapping world, in steps
    along the longer axis."""
    return max(abs(wrap(dx, WORLD_W)), abs(wrap(dy, WORLD_H)))


def within(dx: float, dy: float, bx: float, by: float) -> bool:
    """Whether a point ``dx``, ``dy`` steps away (across the wrapping world) is inside the box
    |dx| < bx, |dy| < by (a hit box, a blast)."""
    return abs(wrap(dx, WORLD_W)) < bx and abs(wrap(dy, WORLD_H)) < by
