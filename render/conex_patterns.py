"""CONEX corner patterns of the colour-blind palette: each card colour keeps its fill (the game names the colours,
rule G3) and its corner triangles also carry a pattern of their own, so matching a corner to a colour never rests
on hue alone: red ``/`` stripes, turquoise dots, purple a cross-hatch, yellow plain.

Drawn in table coordinates (mm, clipped by shapely to the corner's polygon), in black or white, whichever reads on
the fill (:func:`render.common.ink_on`); the pattern's pitch is fixed in pixels (:data:`PITCH_PX`), so it stays
visible on a zoomed-out table and on the enlarged hand cards alike.
"""

from __future__ import annotations

import math

from PIL import ImageDraw
from shapely.geometry import LineString, Point, Polygon

from render.common import ink_on
from render.conex_view import View

__all__ = ["CORNER_PATTERN", "PITCH_PX", "draw_corner_pattern"]

CORNER_PATTERN: dict[str, str] = {"R": "stripes", "T": "dots", "P": "cross", "Y": "plain"}
"""The pattern of each card colour letter's corners (``"plain"``: none)."""

PITCH_PX = 7.0
"""Distance between two stripes or dots, px."""


def _lines(shape: Polygon, pitch: float, slope: int) -> list[LineString]:
    """Parallel 45-degree lines (``slope`` +1 rising to the right on screen, -1 falling) ``pitch`` mm apart, cut
    to ``shape``."""
    x0, y0, x1, y1 = shape.bounds
    h = y1 - y0
    out: list[LineString] = []
    x = x0 - h
    while x <= x1 + pitch:
        line = LineString([(x, y1), (x + h, y0)]) if slope > 0 else LineString([(x, y0), (x + h, y1)])
        cut = line.intersection(shape)
        out.extend(g for g in getattr(cut, "geoms", [cut]) if isinstance(g, LineString) and not g.is_empty)
        x += pitch
    return out


def draw_corner_pattern(draw: ImageDraw.ImageDraw, view: View, shape: Polygon, colour: str, fill: str) -> None:
    """Draw the pattern of card colour ``colour`` (``"R"``, ``"T"``, ``"P"``, ``"Y"``) over the corner triangle
    ``shape`` (a polygon in table mm) whose fill is ``fill`` (``"#RRGGBB"``). Raises ``KeyError`` for another
    colour letter."""
    kind = CORNER_PATTERN[colour]
    if kind == "plain" or shape.is_empty or view.scale <= 0:
        return
    ink = ink_on(fill)
    pitch = PITCH_PX / view.scale  # mm
    width = 2 if view.scale * 1.0 >= 2.0 else 1
    if kind in ("stripes", "cross"):
        for slope in (1, -1) if kind == "cross" else (1,):
            for line in _lines(shape, pitch * (1.3 if kind == "cross" else 1.0), slope):
                draw.line([view.px(x, y) for x, y in line.coords], fill=ink, width=width)
        return
    r_px = max(1.2, PITCH_PX * 0.2)
    inner = shape.buffer(-r_px / view.scale)
    x0, y0, x1, y1 = shape.bounds
    row = 0
    y = y0 + pitch / 2
    while y <= y1:
        x = x0 + pitch / 2 + (pitch / 2 if row % 2 else 0.0)
        while x <= x1:
            if inner.contains(Point(x, y)):
                px, py = view.px(x, y)
                draw.ellipse((px - r_px, py - r_px, px + r_px, py + r_px), fill=ink)
            x += pitch
        y += pitch * math.sqrt(3) / 2
        row += 1
