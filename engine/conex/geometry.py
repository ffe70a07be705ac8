"""CONEX table geometry with shapely 2 (rulings G1-G7 of docs/rules/conex.md).

Units: millimetres (floats) on the table; origin at the centre of the scoring board, x to the right, y down;
rotations in degrees **clockwise as drawn** (with y down, shapely's positive angle is clockwise on screen).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import shapely
from shapely import affinity
from shapely.errors import GEOSException
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from engine.conex.deck import CARD_H_MM, CARD_W_MM, Card, Corner

TOUCH_MM: float = 1.0  # G7: shapes closer than this touch
LIES_ON_MM: float = 0.5  # G7: a shape lies on an area when inside the area grown by this much
BOARD_MM: float = 200.0  # G3: the scoring board, 20 x 20 cm, centred on the origin
SQUARE_MM: float = 60.0  # G3: the start squares, 6 x 6 cm, in the board's corners
TABLE_SIZES_MM: dict[str, tuple[float, float]] = {  # G2
    "small": (700.0, 500.0),
    "medium": (1000.0, 700.0),
    "large": (1400.0, 900.0),
}

_H = BOARD_MM / 2
BOARD: Polygon = box(-_H, -_H, _H, _H)
BOARD_SQUARES: dict[str, Polygon] = {  # G3: yellow top-left, red top-right, turquoise bottom-right, purple bottom-left
    "Y": box(-_H, -_H, -_H + SQUARE_MM, -_H + SQUARE_MM),
    "R": box(_H - SQUARE_MM, -_H, _H, -_H + SQUARE_MM),
    "T": box(_H - SQUARE_MM, _H - SQUARE_MM, _H, _H),
    "P": box(-_H, _H - SQUARE_MM, -_H + SQUARE_MM, _H),
}
GRID_MM: float = 0.001
"""The grid of the fallback overlay (:func:`difference`, :func:`union_all`): 1 micrometre."""
CARD_RECT: Polygon = box(-CARD_W_MM / 2, -CARD_H_MM / 2, CARD_W_MM / 2, CARD_H_MM / 2)


class PosedCard(NamedTuple):
    """A card laid on the table: ``rect`` and ``corners`` (in the card's printed corner order), table mm."""

    rect: Polygon
    corners: tuple[Polygon, ...]


def difference(a: BaseGeometry, b: BaseGeometry) -> BaseGeometry:
    """``a`` minus ``b``. When GEOS's floating-point overlay fails (a ``GEOSException``, "TopologyException: ..."
    on nearly coincident edges), the same difference on a :data:`GRID_MM` grid: OverlayNG's snap-rounding, which
    does not fail; the vertices move at most 0.0007 mm (half the grid's diagonal), far below G7's 1 mm, and
    zero-width spikes the floating overlay can leave are dropped. So a legal card always lands on the table,
    and a stored game always loads."""
    try:
        return shapely.difference(a, b)
    except GEOSException:
        return shapely.difference(a, b, grid_size=GRID_MM)


def union_all(geoms: Sequence[BaseGeometry]) -> BaseGeometry:
    """The union of ``geoms``, with :func:`difference`'s fallback."""
    try:
        return shapely.union_all(geoms)
    except GEOSException:
        return shapely.union_all(geoms, grid_size=GRID_MM)


def polygonal(geom: BaseGeometry) -> BaseGeometry:
    """Only the areal part of ``geom`` (a Polygon or MultiPolygon, maybe empty): set operations can leave slivers
    of lines and points in a GeometryCollection; visible areas never keep them."""
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom
    parts = shapely.get_parts(geom)
    polys = [p for p in parts if p.geom_type in ("Polygon", "MultiPolygon") and not p.is_empty]
    if not polys:
        return Polygon()
    return union_all(polys)


def table_rect(size: str) -> Polygon:
    """The table for a size name (G2) as an axis-aligned rectangle centred on the origin, mm."""
    w, h = TABLE_SIZES_MM[size]
    return box(-w / 2, -h / 2, w / 2, h / 2)


def normalize_angle(rotation_deg: float) -> float:
    """Rotation in [0, 360) degrees, with -0.0 turned into 0.0 (G1: any angle is allowed).

    >>> normalize_angle(-90), normalize_angle(-0.0), normalize_angle(725)
    (270.0, 0.0, 5.0)
    """
    r = math.fmod(float(rotation_deg), 360.0)
    if r < 0:
        r += 360.0
    if r >= 360.0 or r == 0.0:
        r = 0.0
    return r


def rotate_point(x: float, y: float, rotation_deg: float) -> tuple[float, float]:
    """Rotate a card-local point clockwise as drawn (y down) about the origin."""
    a = math.radians(rotation_deg)
    c, s = math.cos(a), math.sin(a)
    return x * c - y * s, x * s + y * c


def centre_for_corner(corner: Corner, x_mm: float, y_mm: float, rotation_deg: float) -> tuple[float, float]:
    """The card-centre position (mm) that puts ``corner``'s centroid at ``(x_mm, y_mm)`` at this rotation."""
    cx, cy = rotate_point(*corner.centroid, rotation_deg)
    return x_mm - cx, y_mm - cy


def corner_point(corner: Corner, centre_x_mm: float, centre_y_mm: float, rotation_deg: float) -> tuple[float, float]:
    """Inverse of ``centre_for_corner``: where ``corner``'s centroid lies for a card-centre pose (mm)."""
    cx, cy = rotate_point(*corner.centroid, rotation_deg)
    return centre_x_mm + cx, centre_y_mm + cy


def posed_card(card: Card, x_mm: float, y_mm: float, rotation_deg: float) -> PosedCard:
    """The card's rectangle and corner triangles with its **centre** at ``(x_mm, y_mm)`` rotated clockwise.

    Built with ``shapely.affinity.affine_transform``: one matrix that rotates about the card centre (clockwise as
    drawn, the same matrix as ``affinity.rotate``) and then translates. Shapes: shapely Polygons in table mm.
    """
    a = math.radians(rotation_deg)
    c, s = math.cos(a), math.sin(a)
    matrix = [c, -s, s, c, x_mm, y_mm]
    return PosedCard(
        affinity.affine_transform(CARD_RECT, matrix),
        tuple(affinity.affine_transform(k.shape, matrix) for k in card.corners),
    )


# --- vectorised helpers for the placement finder -------------------------------------------------------------


def _rotated(points: np.ndarray, angles_deg: np.ndarray) -> np.ndarray:
    """``points`` (k, 2) card-local, ``angles`` (n,) -> (n, k, 2) rotated clockwise as drawn."""
    a = np.radians(angles_deg)[:, None]
    c, s = np.cos(a), np.sin(a)
    x, y = points[None, :, 0], points[None, :, 1]
    return np.stack([x * c - y * s, x * s + y * c], axis=-1)


def posed_batch(corner: Corner, xs: np.ndarray, ys: np.ndarray, angles_deg: np.ndarray) -> tuple[np.ndarray, ...]:
    """Many poses of one card at once, each given by where ``corner``'s centroid lands (mm) and a rotation.

    Returns ``(rect_coords (n, 4, 2), triangle_coords (n, 3, 2), centres (n, 2))`` in table mm: the same
    shapes ``posed_card`` builds (a test checks it), computed with numpy so thousands of candidates cost
    milliseconds.
    """
    w, h = CARD_W_MM / 2, CARD_H_MM / 2
    rect = np.array([(-w, -h), (w, -h), (w, h), (-w, h)])
    tri = np.array(corner.vertices)
    cent = np.array([corner.centroid])
    rot_rect = _rotated(rect, angles_deg)
    rot_tri = _rotated(tri, angles_deg)
    rot_c = _rotated(cent, angles_deg)[:, 0, :]
    centres = np.stack([xs, ys], axis=-1) - rot_c
    return rot_rect + centres[:, None, :], rot_tri + centres[:, None, :], centres


def polygons(coords: np.ndarray) -> np.ndarray:
    """Shapely polygons from an ``(n, k, 2)`` coordinate array (rings closed by shapely)."""
    out: np.ndarray = shapely.polygons(coords)
    return out


def at_cm(x_mm: float, y_mm: float) -> tuple[float, float]:
    """A point in cm rounded to 1 mm, never ``-0.0`` (for messages and error details)."""
    return (round(x_mm / 10, 1) + 0.0, round(y_mm / 10, 1) + 0.0)


def cm_text(x: float, y: float) -> str:
    """A point given in mm, written in cm for messages: ``"(3.5, -10.0) cm"``."""
    cx, cy = at_cm(x, y)
    return f"({cx:.1f}, {cy:.1f}) cm"


def area_parts(geom: BaseGeometry) -> list[BaseGeometry]:
    """The non-empty polygonal parts of ``geom`` with an area above 1e-9 mm² (a single part as a list of one)."""
    if geom.is_empty:
        return []
    if hasattr(geom, "geoms"):
        return [g for g in geom.geoms if not g.is_empty and g.area > 1e-9]
    return [geom] if geom.area > 1e-9 else []


def near_point(rect: Polygon, other: BaseGeometry) -> tuple[float, float]:
    """A point of ``other`` where ``rect`` touches it: inside the overlap, or the nearest point."""
    inter = rect.intersection(other)
    if not inter.is_empty and inter.area > 0.01:
        p = inter.representative_point()
        return p.x, p.y
    line = shapely.shortest_line(rect, other)
    x, y = np.asarray(line.coords)[1]
    return float(x), float(y)
