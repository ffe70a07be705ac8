"""The CONEX table's inks and drawing primitives shared by the scene, its ghosts and the hand: the colours of the
four card colours, the board and the table's edge, label drawing with a halo kept inside the image, a card's shapes,
outlines and dashed lines (px). Split from :mod:`render.conex_scene` by job."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from render.common import stamp_text, text_width
from render.conex_patterns import draw_corner_pattern
from render.conex_view import View

COLOUR_FILL: dict[str, str] = {"Y": "#F0E442", "R": "#D93A3A", "T": "#2BC3B5", "P": "#9A66D4"}
CARD_EDGE = "#111111"
BOARD_FILL = {"dark": "#60646C", "light": "#A9AEB6"}  # dark: #60646C keeps the cards' black keyline 3:1 on it
OFF_TABLE = {"dark": "#0E0F11", "light": "#C4C7CC"}
REMOVED_INK = "#FF4040"
CORNER_LABEL_LEG_MM = 22.0
"""Corner labels carry the colour letter too (``R4``) when a typical corner (legs of this many mm) is at least 1.5
labels wide; smaller, a corner's value is a coin of the corner's colour with the digit (:func:`corner_coins`)."""


def halo_for(ink: str) -> str:
    """The outline colour that makes ``ink`` readable on anything."""
    return "#000000" if ink == "#FFFFFF" else "#FFFFFF"


def corner_labels_fit(view: View, fs: int) -> bool:
    """True when corner labels with their colour letter at ``fs`` px fit their corners in ``view`` (see
    :data:`CORNER_LABEL_LEG_MM`)."""
    return view.scale * CORNER_LABEL_LEG_MM >= 1.5 * fs


def clamp_label(
    img: Image.Image, x: float, y: float, text: str, size: int, bold: bool = True, margin: float = 3.0
) -> tuple[float, float]:
    """``(x, y)`` moved so a centred (``"mm"``) label of ``text`` stays whole inside ``img``."""
    hw = text_width(text, size, bold) / 2 + margin
    hh = size * 0.62 + margin
    return min(max(x, hw), img.width - hw), min(max(y, hh), img.height - hh)


def draw_label(
    img: Image.Image, xy: tuple[float, float], text: str, size: int, ink: str, *, stroke_width: int = 2
) -> tuple[float, float, float, float]:
    """A bold centred label with a contrasting halo, kept whole inside ``img``; returns its ink box."""
    x, y = clamp_label(img, xy[0], xy[1], text, size)
    return stamp_text(
        img, (x, y), text, size=size, fill=ink, bold=True, stroke=halo_for(ink), stroke_width=stroke_width
    )


def draw_card_shapes(
    draw: ImageDraw.ImageDraw,
    view: View,
    card: Any,
    rect: Polygon,
    corners: Sequence[Polygon],
    fill: str | None = None,
    outline: str = CARD_EDGE,
    width: int = 2,
    patterns: bool = False,
) -> None:
    """One card's rectangle (its colour) and its corner triangles (their colours, with each colour's pattern when
    ``patterns``: the colour-blind palette, :mod:`render.conex_patterns`), no labels."""
    pts = view.poly(rect)
    draw.polygon(pts, fill=fill or COLOUR_FILL[card.color])
    # the edge as a closed line: Pillow's polygon outline wider than 1 px masks the whole image (slow)
    draw.line([*pts, pts[0], pts[1]], fill=outline, width=width, joint="curve")
    for corner, shape in zip(card.corners, corners, strict=True):
        draw.polygon(view.poly(shape), fill=COLOUR_FILL[corner.color], outline=CARD_EDGE, width=max(1, width - 1))
        if patterns:
            draw_corner_pattern(draw, view, shape, corner.color, COLOUR_FILL[corner.color])


def outline(
    draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], colour: str, width: int, under: str | None = None
) -> None:
    """A closed outline through ``pts`` (px), ``width`` px, over a wider ``under`` line when given."""
    ring = [*pts, pts[0], pts[1]]
    if under:
        draw.line(ring, fill=under, width=width + 5, joint="curve")
    draw.line(ring, fill=colour, width=width, joint="curve")


def dashed(draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], fill: Any, width: int, dash: float) -> None:
    """A dashed polyline through ``pts`` (px), dashes ``dash`` px long."""
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        length = math.dist((ax, ay), (bx, by))
        n = max(1, int(length // dash))
        for k in range(0, n, 2):
            t0, t1 = k / n, min(1.0, (k + 1) / n)
            draw.line(
                [(ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)],
                fill=fill,
                width=width,
            )
