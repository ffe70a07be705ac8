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
