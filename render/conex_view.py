"""CONEX table geometry for the images: the :class:`View` (table mm -> plot px), which window of the table a
picture shows (:func:`fit_bounds`, :func:`table_view`), and what of each table card is still visible (G5, G6).

Table units are mm (G1: origin at the board centre, x to the right, y down, rotations clockwise). Pure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from engine.conex.deck import card_by_id
from engine.conex.geometry import BOARD_MM, centre_for_corner, posed_card

PLOT_LONG_PX = 900  # the table's long side in the full view
ZOOM_W_MM, ZOOM_H_MM = 400.0, 300.0  # the region shown by a zoomed view
FIT_MARGIN_MM = 60.0  # margin around the region in play in the default view
FIT_MIN_W_MM = 430.0  # the default view is never narrower (about 43 x 30 cm on the 100 x 70 cm table)

Pose = tuple[float, float, float]
"""A card's centre and rotation on the table: ``(x_mm, y_mm, degrees clockwise)``, as ``TableCard.pose``."""


@dataclass(frozen=True)
class View:
    """A window on the table: ``(x0, y0)`` mm at the plot's top-left, ``scale`` px per mm, size in px."""

    x0: float
    y0: float
    scale: float
    width: int
    height: int

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Table mm -> plot px."""
        return (x_mm - self.x0) * self.scale, (y_mm - self.y0) * self.scale

    def poly(self, geom: BaseGeometry) -> list[tuple[float, float]]:
        """Exterior ring of a shapely Polygon as plot px points."""
        return [self.px(x, y) for x, y in list(geom.exterior.coords)[:-1]]


def incentre(pts: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The incentre of the triangle made by the first three points."""
    (ax, ay), (bx, by), (cx, cy) = pts[:3]
    a = math.dist((bx, by), (cx, cy))
    b = math.dist((ax, ay), (cx, cy))
    c = math.dist((ax, ay), (bx, by))
    s = a + b + c
    return (a * ax + b * bx + c * cx) / s, (a * ay + b * by + c * cy) / s


def table_cards(game: Any) -> list[Any]:
    """The table cards in play order (G6)."""
    return list(game.table)


def table_size(game: Any) -> tuple[float, float]:
    """The table's width and height in mm (G2)."""
    w, h = game.table_size_mm
    return float(w), float(h)


def visible_parts(game: Any) -> dict[int, tuple[BaseGeometry, list[BaseGeometry]]]:
    """Per table card id: (visible main area, visible corners in printed order) in table mm (G5, G6).

    Computed from the public ``TableCard.rect`` / ``.corner_shapes``: each minus the union of the rectangles of
    the cards played after it.
    """
    cards = table_cards(game)
    rects = [tc.rect for tc in cards]
    tree = shapely.STRtree(rects) if rects else None
    out: dict[int, tuple[BaseGeometry, list[BaseGeometry]]] = {}
    for i, tc in enumerate(cards):
        main = tc.rect.difference(shapely.union_all(list(tc.corner_shapes)))
        later: list[Polygon] = []
        if tree is not None:
            later = [rects[j] for j in sorted(int(k) for k in tree.query(tc.rect)) if j > i]
            later = [r for r in later if r.intersection(tc.rect).area > 0.01]
        if later:
            cover = shapely.union_all(later)
            out[tc.card.id] = (main.difference(cover), [c.difference(cover) for c in tc.corner_shapes])
        else:
            out[tc.card.id] = (main, list(tc.corner_shapes))
    return out


def label_point(area: BaseGeometry, min_area: float = 20.0) -> tuple[float, float, float] | None:
    """A point well inside ``area`` (pole of inaccessibility of its largest piece) and its clearance in mm;
    ``None`` when ``area`` is smaller than ``min_area`` mm²."""
    if area.is_empty or area.area < min_area:
        return None
    parts = [g for g in (area.geoms if hasattr(area, "geoms") else [area]) if isinstance(g, Polygon)]
    if not parts:
        return None
    # snapped to a 0.05 mm grid first, so float noise in the engine's geometry cannot move a label
    biggest = shapely.set_precision(max(parts, key=lambda g: g.area), 0.05)
    if hasattr(biggest, "geoms"):
        pieces = [g for g in biggest.geoms if isinstance(g, Polygon)]
        biggest = max(pieces, key=lambda g: g.area) if pieces else Polygon()
    if not isinstance(biggest, Polygon) or biggest.is_empty:
        return None
    p = polylabel(biggest, tolerance=1.0)
    return p.x, p.y, float(biggest.exterior.distance(p))


def ghost_pose(game: Any, place: Any) -> tuple[Any, Pose]:
    """The card and centre pose (x_mm, y_mm, rotation) of a ``Place`` (rotation None is drawn as 0).

    Raises ``ValueError`` for a card id that is not 1..52 or a corner the card does not have.
    """
    try:
        card = card_by_id(place.card)
        corner = card.corner(place.corner)
    except KeyError:
        raise ValueError(f"ghost {place}: no card {place.card!r} with a corner {place.corner!r}") from None
    rot = float(place.rotation) if place.rotation is not None else 0.0
    cx, cy = centre_for_corner(corner, float(place.x) * 10.0, float(place.y) * 10.0, rot)
    return card, (cx, cy, rot)


def removed_rect(removed: tuple[int, Pose] | None) -> Polygon | None:
    """The rectangle (table mm) of a card removed by a lightning, given as ``(card id, pose)``; ``None`` for
    ``None``. Raises ``ValueError`` for a card id that is not 1..52."""
    if removed is None:
        return None
    card_id, (x, y, rot) = removed
    try:
        card = card_by_id(int(card_id))
    except KeyError:
        raise ValueError(f"removed card {card_id!r} does not exist (1..52)") from None
    return posed_card(card, float(x), float(y), float(rot)).rect


def _zoom_centre(game: Any, zoom: Any) -> tuple[float, float]:
    cards = table_cards(game)
    if zoom == "last":
        if not cards:
            return 0.0, 0.0
        x, y, _ = cards[-1].pose
        return x, y
    for tc in cards:
        if tc.card.id == zoom:
            return tc.pose[0], tc.pose[1]
    if zoom == "board":
        return 0.0, 0.0
    raise ValueError(f"zoom must be None, 'table', 'last', 'board' or the id of a card on the table, not {zoom!r}")


def _extra_boxes(game: Any, ghosts: Sequence[Any], extra: Sequence[Polygon]) -> list[tuple[float, ...]]:
    boxes: list[tuple[float, ...]] = []
    for place in ghosts:
        card, (gx, gy, rot) = ghost_pose(game, place)
        boxes.append(posed_card(card, gx, gy, rot).rect.bounds)
    boxes += [p.bounds for p in extra]
    return boxes


def fit_bounds(
    game: Any, ghosts: Sequence[Any] = (), extra: Sequence[Polygon] = ()
) -> tuple[float, float, float, float]:
    """The default view's window ``(x0, y0, x1, y1)`` in table mm: the region in play.

    The bounding box of the scoring board (G3), every table card, every ghost's card and the ``extra`` shapes
    (a removed card), plus :data:`FIT_MARGIN_MM` on each side, grown to the table's aspect ratio and to at least
    :data:`FIT_MIN_W_MM` wide, then slid (and at most grown to the whole table, 8 mm beyond its edge) to stay over
    the table (G2). Raises ``ValueError`` for a ghost naming a card or corner that does not exist.
    """
    tw, thh = table_size(game)
    h = BOARD_MM / 2
    x0, y0, x1, y1 = -h, -h, h, h
    boxes = [tc.rect.bounds for tc in table_cards(game)] + _extra_boxes(game, ghosts, extra)
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
    x0, y0, x1, y1 = x0 - FIT_MARGIN_MM, y0 - FIT_MARGIN_MM, x1 + FIT_MARGIN_MM, y1 + FIT_MARGIN_MM
    full_w, full_h = tw + 16, thh + 16
    aspect = full_w / full_h
    w = min(full_w, max(x1 - x0, (y1 - y0) * aspect, FIT_MIN_W_MM))
    hh = w / aspect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    nx0 = min(max(cx - w / 2, -full_w / 2), full_w / 2 - w)
    ny0 = min(max(cy - hh / 2, -full_h / 2), full_h / 2 - hh)
    return nx0, ny0, nx0 + w, ny0 + hh


def table_view(
    game: Any,
    zoom: int | str | None = None,
    ghosts: Sequence[Any] = (),
    extra: Sequence[Polygon] = (),
    long_px: int = PLOT_LONG_PX,
) -> View:
    """The :class:`View` (mm -> plot px) of a table picture whose long side is ``long_px`` px.

    ``zoom=None`` (default): the region in play, see :func:`fit_bounds`. ``zoom="table"``: the whole table (G2).
    Otherwise a 4:3 window at least 40 x 30 cm centred on the zoom target, widened to hold every ghost's card
    and the ``extra`` shapes (plus 3 cm), then slid to stay over the table (up to 3 cm beyond its edge).
    Raises ``ValueError`` for a ``zoom`` that is not ``None``, ``"table"``, ``"last"``, ``"board"`` or a table
    card id.
    """
    tw, thh = table_size(game)
    fit = fit_bounds(game, ghosts, extra) if zoom is None else None
    if zoom == "table" or (fit is not None and fit[2] - fit[0] >= tw + 16 - 1e-6):  # the region in play is it all
        scale = long_px / max(tw + 16, thh + 16)
        return View(-tw / 2 - 8, -thh / 2 - 8, scale, round((tw + 16) * scale), round((thh + 16) * scale))
    if fit is not None:
        x0, y0, x1, y1 = fit
        scale = long_px / max(x1 - x0, y1 - y0)
        return View(x0, y0, scale, round((x1 - x0) * scale), round((y1 - y0) * scale))
    cx, cy = _zoom_centre(game, zoom)
    x0, y0, x1, y1 = cx - ZOOM_W_MM / 2, cy - ZOOM_H_MM / 2, cx + ZOOM_W_MM / 2, cy + ZOOM_H_MM / 2
    boxes = _extra_boxes(game, ghosts, extra)
    if boxes:
        for bx0, by0, bx1, by1 in boxes:
            x0, y0, x1, y1 = min(x0, bx0 - 30), min(y0, by0 - 30), max(x1, bx1 + 30), max(y1, by1 + 30)
        w = max(x1 - x0, (y1 - y0) * ZOOM_W_MM / ZOOM_H_MM)
        h = w * ZOOM_H_MM / ZOOM_W_MM
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x0, y0 = cx - w / 2, cy - h / 2
    else:
        w, h = ZOOM_W_MM, ZOOM_H_MM
    # keep the window over the table (3 cm of margin shows the edge) rather than over empty floor
    m = 30.0
    if w <= tw + 2 * m:
        x0 = min(max(x0, -tw / 2 - m), tw / 2 + m - w)
    if h <= thh + 2 * m:
        y0 = min(max(y0, -thh / 2 - m), thh / 2 + m - h)
    scale = long_px / w
    return View(x0, y0, scale, round(w * scale), round(h * scale))


def window_view(x0: float, y0: float, w_mm: float, h_mm: float, width_px: int) -> View:
    """A :class:`View` of the ``w_mm`` x ``h_mm`` window whose top-left is ``(x0, y0)`` mm, ``width_px`` wide."""
    scale = width_px / w_mm
    return View(x0, y0, scale, width_px, round(h_mm * scale))
