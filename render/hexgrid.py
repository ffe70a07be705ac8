"""Pointy-top hexagon geometry for Constructo layouts (rule C3 of docs/rules/constructo.md).

Axial cells ``(q, r)`` map to pixel centres ``x = R*sqrt(3)*(q + r/2)``, ``y = 1.5*R*r`` (y down), where ``R``
is the hexagon's circumradius in px. :func:`fit` chooses ``R`` and an offset so a whole layout fits a box.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)

Cell = tuple[int, int]
Point = tuple[float, float]


def unit_centre(cell: Cell) -> Point:
    """Centre of ``cell`` for a unit circumradius (R = 1), before offset."""
    q, r = cell
    return SQRT3 * (q + r / 2.0), 1.5 * r


def hex_corners(centre: Point, radius: float) -> list[Point]:
    """The six corners (px) of a pointy-top hexagon, clockwise from the upper-right one."""
    cx, cy = centre
    return [
        (cx + radius * math.cos(math.radians(60 * i - 30)), cy + radius * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


@dataclass(frozen=True)
class HexFit:
    """A layout placed in a box: ``radius`` (px) and ``centres[n-1]`` = pixel centre of tile ``n``."""

    radius: float
    centres: tuple[Point, ...]
    width: float
    height: float

    def corners(self, tile: int, shrink: float = 0.0) -> list[Point]:
        """Corners of tile ``tile`` (1-based), its radius reduced by ``shrink`` px (for gaps between tiles)."""
        return hex_corners(self.centres[tile - 1], self.radius - shrink)


def fit(cells: Sequence[Cell], box: tuple[float, float, float, float], max_radius: float) -> HexFit:
    """Fit the hexagons of ``cells`` (tile order) centred inside ``box`` = (x0, y0, x1, y1) px.

    The radius is the largest that fits, capped at ``max_radius``. Raises ``ValueError`` for no cells.
    """
    if not cells:
        raise ValueError("a layout needs at least one cell")
    units = [unit_centre(c) for c in cells]
    min_x = min(u[0] for u in units) - SQRT3 / 2
    max_x = max(u[0] for u in units) + SQRT3 / 2
    min_y = min(u[1] for u in units) - 1.0
    max_y = max(u[1] for u in units) + 1.0
    x0, y0, x1, y1 = box
    radius = min((x1 - x0) / (max_x - min_x), (y1 - y0) / (max_y - min_y), max_radius)
    w, h = (max_x - min_x) * radius, (max_y - min_y) * radius
    ox = x0 + ((x1 - x0) - w) / 2 - min_x * radius
    oy = y0 + ((y1 - y0) - h) / 2 - min_y * radius
    centres = tuple((ox + ux * radius, oy + uy * radius) for ux, uy in units)
    return HexFit(radius=radius, centres=centres, width=w, height=h)


def unit_extent(cells: Sequence[Cell]) -> tuple[float, float]:
    """Width and height of the layout's bounding box for R = 1."""
    units = [unit_centre(c) for c in cells]
    w = max(u[0] for u in units) - min(u[0] for u in units) + SQRT3
    h = max(u[1] for u in units) - min(u[1] for u in units) + 2.0
    return w, h


# ----------------------------------------------------------------------------------------------
# honest redrawings: other placements of the same tiles with exactly the same neighbours
# ----------------------------------------------------------------------------------------------
_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def adjacency(cells: Sequence[Cell]) -> frozenset[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j`` (0-based tile indexes), of cells that share an edge (rule C3)."""
    where = {c: i for i, c in enumerate(cells)}
    out = set()
    for i, (q, r) in enumerate(cells):
        for dq, dr in _STEPS:
            j = where.get((q + dq, r + dr))
            if j is not None and i < j:
                out.add((i, j))
    return frozenset(out)


def rotated(cells: Sequence[Cell], sixths: int) -> tuple[Cell, ...]:
    """``cells`` turned ``sixths`` x 60 degrees clockwise about (0, 0); tile order and neighbours are kept."""
    out = [tuple(c) for c in cells]
    for _ in range(sixths % 6):
        out = [(-r, q + r) for q, r in out]
    return tuple((q, r) for q, r in out)


def _path_order(cells: Sequence[Cell]) -> list[int] | None:
    """Tile indexes along the layout when it is a simple path (every tile has at most two neighbours), else None."""
    nb: dict[int, list[int]] = {i: [] for i in range(len(cells))}
    for i, j in adjacency(cells):
        nb[i].append(j)
        nb[j].append(i)
    ends = [i for i, js in nb.items() if len(js) == 1]
    if len(cells) < 3 or any(len(js) > 2 for js in nb.values()) or len(ends) != 2:
        return None
    order, prev = [min(ends)], -1
    while len(order) < len(cells):
        nxt = [j for j in nb[order[-1]] if j != prev]
        if not nxt:
            return None
        prev = order[-1]
        order.append(nxt[0])
    return order


def folds(cells: Sequence[Cell]) -> list[tuple[Cell, ...]]:
    """For a layout that is a simple path: the path folded into rows (a snake: a row, one linking tile, the next
    row back), one per row length. A fold turns by 60 degrees twice at each end, so no two tiles touch that did
    not touch before; only folds that keep exactly the layout's neighbours are returned. Else ``[]``."""
    order = _path_order(cells)
    if order is None:
        return []
    n = len(cells)
    out = []
    for row in range(2, n - 1):
        pos: list[Cell] = [(0, 0)]
        going_east, run = True, 1
        while len(pos) < n:
            q, r = pos[-1]
            if run < row:
                pos.append((q + 1, r) if going_east else (q - 1, r))
                run += 1
                continue
            # turn: one tile in the middle row, then the next row starts going back
            pos.append((q, r + 1) if going_east else (q - 1, r + 1))
            if len(pos) < n:
                q, r = pos[-1]
                pos.append((q - 1, r + 1) if going_east else (q, r + 1))
            going_east, run = not going_east, 1
        placed = [(0, 0)] * n
        for k, tile in enumerate(order):
            placed[tile] = pos[k]
        cand = tuple(placed)
        if len(set(cand)) == n and adjacency(cand) == adjacency(cells):
            out.append(cand)
    return out


def _inversions(cells: Sequence[Cell]) -> int:
    """How far the tile numbers are from reading order (top to bottom, left to right): pairs drawn out of order."""
    keys = [(round(unit_centre(c)[1], 3), round(unit_centre(c)[0], 3)) for c in cells]
    return sum(1 for i in range(len(keys)) for j in range(i + 1, len(keys)) if keys[i] > keys[j])


def legible_cells(
    cells: Sequence[Cell], width: float, max_height: float, taller: float, need: float, max_radius: float
) -> tuple[tuple[Cell, ...], float]:
    """Where to draw a layout's tiles so that each hexagon is big enough to read on a phone.

    Returns ``(cells to draw, height cap px)``: ``cells`` themselves with ``max_height`` when they reach a
    radius of ``need`` px in a box ``width`` x ``max_height`` px; else the best of the layout turned by 60-degree
    steps and, for a path, folded into rows (:func:`folds`), in a box ``width`` x ``taller`` px: of those reaching
    ``need``, the least tall picture, else the largest radius (up to ``max_radius``); ties go to the tile numbers
    closest to reading order, then the fewest turns. Every candidate keeps exactly the tiles' neighbours (C3), so
    the picture never shows two tiles touching that are not adjacent in play.
    """
    cells = tuple((int(q), int(r)) for q, r in cells)

    def radius(cs: Sequence[Cell], cap: float) -> float:
        uw, uh = unit_extent(cs)
        return min(width / uw, cap / uh, max_radius)

    if radius(cells, max_height) >= need - 1e-9:
        return cells, max_height
    cands = [rotated(cells, k) for k in range(6)] + folds(cells)

    def rank(kc: tuple[int, tuple[Cell, ...]]) -> tuple[bool, float, int, int]:
        k, cs = kc
        rad = radius(cs, taller)
        ok = rad >= need - 1e-9
        return ok, round(-unit_extent(cs)[1] * rad if ok else rad, 3), -_inversions(cs), -k

    return max(enumerate(cands), key=rank)[1], taller
