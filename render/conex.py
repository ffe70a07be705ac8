"""CONEX images: the table (:func:`render_table`, also zoomed and with ghost placements) and a player's hand
(:func:`render_hand`), with text twins.

Conventions (rules/conex.md): table units are mm internally, the pictures speak **cm** (G1): origin at the
board centre, x to the right, y down, rotations clockwise. Cards are drawn in play order, later ones over
earlier ones (G6), each with its background colour, its CONEX corners (colour and value), and its number (the
id players type as ``target``). Colours are the Okabe–Ito yellow, vermillion, bluish green and reddish purple,
and always carry their letter (Y, R, T, P) too: on each card's label and on each corner (``R4`` = a red corner
worth 4).

Pure functions; the only I/O is the cached font files.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from PIL import Image, ImageDraw
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from engine.conex import Game, Place
from engine.conex.deck import card_by_id
from engine.conex.geometry import BOARD_MM, BOARD_SQUARES, centre_for_corner, posed_card
from render.common import (
    Theme,
    draw_fit,
    draw_text,
    ink_on,
    new_canvas,
    seat_names,
    stamp_text,
    text_size,
    theme_of,
)
from render.results import conex_winners

COLOUR_FILL: dict[str, str] = {"Y": "#F0E442", "R": "#D55E00", "T": "#009E73", "P": "#CC79A7"}
CARD_EDGE = "#111111"
BOARD_FILL = {"dark": "#5C6068", "light": "#A9AEB6"}
OFF_TABLE = {"dark": "#0E0F11", "light": "#C4C7CC"}

PLOT_LONG_PX = 1200  # the table's long side in the full view
ZOOM_W_MM, ZOOM_H_MM = 400.0, 300.0  # the region shown by a zoomed view
AXIS_L, AXIS_T, PAD = 70, 40, 24
HEADER_H = 132
FIT_MARGIN_MM = 60.0  # margin around the region in play in the default view
FIT_MIN_W_MM = 430.0  # the default view is never narrower (about 43 x 30 cm on the 100 x 70 cm table)


# ----------------------------------------------------------------------------------------------
# geometry helpers
# ----------------------------------------------------------------------------------------------
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


def _incentre(pts: Sequence[tuple[float, float]]) -> tuple[float, float]:
    (ax, ay), (bx, by), (cx, cy) = pts[:3]
    a = math.dist((bx, by), (cx, cy))
    b = math.dist((ax, ay), (cx, cy))
    c = math.dist((ax, ay), (bx, by))
    s = a + b + c
    return (a * ax + b * bx + c * cx) / s, (a * ay + b * by + c * cy) / s


def _table_cards(game: Any) -> list[Any]:
    return list(game.table)


def visible_parts(game: Any) -> dict[int, tuple[BaseGeometry, list[BaseGeometry]]]:
    """Per table card id: (visible main area, visible corners in printed order) in table mm (G5, G6).

    Computed from the public ``TableCard.rect`` / ``.corner_shapes``: each minus the union of the rectangles of
    the cards played after it.
    """
    cards = _table_cards(game)
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


def _label_point(area: BaseGeometry) -> tuple[float, float, float] | None:
    """A point well inside ``area`` (pole of inaccessibility of its largest piece) and its clearance in mm."""
    if area.is_empty or area.area < 20.0:
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


def _ghost_pose(game: Any, place: Any) -> tuple[Any, tuple[float, float, float]]:
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


# ----------------------------------------------------------------------------------------------
# the scene
# ----------------------------------------------------------------------------------------------
def _draw_grid(draw: ImageDraw.ImageDraw, view: View, th: Theme, step_mm: float) -> None:
    x_mm = math.ceil(view.x0 / 10.0) * 10.0
    x_end = view.x0 + view.width / view.scale
    y_end = view.y0 + view.height / view.scale
    while x_mm <= x_end:
        strong = abs(x_mm % step_mm) < 1e-6 or abs(x_mm % step_mm - step_mm) < 1e-6
        x, _ = view.px(x_mm, 0)
        draw.line([(x, 0), (x, view.height)], fill=th.grid_strong if strong else th.grid, width=1)
        x_mm += 10.0
    y_mm = math.ceil(view.y0 / 10.0) * 10.0
    while y_mm <= y_end:
        strong = abs(y_mm % step_mm) < 1e-6 or abs(y_mm % step_mm - step_mm) < 1e-6
        _, y = view.px(0, y_mm)
        draw.line([(0, y), (view.width, y)], fill=th.grid_strong if strong else th.grid, width=1)
        y_mm += 10.0
    ox, oy = view.px(0, 0)
    draw.line([(ox, 0), (ox, view.height)], fill=th.muted, width=1)
    draw.line([(0, oy), (view.width, oy)], fill=th.muted, width=1)


def _draw_board(draw: ImageDraw.ImageDraw, view: View, th: Theme, detail: bool, ghosts: bool = False) -> None:
    h = BOARD_MM / 2
    draw.rectangle((*view.px(-h, -h), *view.px(h, h)), fill=BOARD_FILL[th.name], outline=CARD_EDGE, width=2)
    fs = max(16, int(view.scale * 22))
    for colour, sq in BOARD_SQUARES.items():
        x0, y0, x1, y1 = sq.bounds
        draw.rectangle((*view.px(x0, y0), *view.px(x1, y1)), fill=COLOUR_FILL[colour], outline=CARD_EDGE, width=2)
        cx, cy = view.px((x0 + x1) / 2, (y0 + y1) / 2)
        draw_text(draw, (cx, cy), colour, size=fs, fill=ink_on(COLOUR_FILL[colour]), bold=True, anchor="mm")
    cx, cy = view.px(0, 0)
    if detail and not ghosts:  # the ghosts' badges own the middle of a preview
        draw_text(draw, (cx, cy), "board", size=max(16, int(view.scale * 14)), fill="#FFFFFF", bold=True,
                  anchor="mm", stroke="#000000", stroke_width=2)


def _draw_card_shapes(
    img: Image.Image | None, draw: ImageDraw.ImageDraw, view: View, card: Any, rect: Polygon,
    corners: Sequence[Polygon], detail: bool,
    fill: str | None = None, outline: str = CARD_EDGE, width: int = 2, labels: bool = True,
) -> None:
    draw.polygon(view.poly(rect), fill=fill or COLOUR_FILL[card.color], outline=outline, width=width)
    fs = max(16, min(int(view.scale * 9), 30))
    for corner, shape in zip(card.corners, corners, strict=True):
        pts = view.poly(shape)
        draw.polygon(pts, fill=COLOUR_FILL[corner.color], outline=CARD_EDGE, width=max(1, width - 1))
        if not labels or img is None:
            continue
        ix, iy = _incentre(pts)
        label = f"{corner.color}{corner.value}"
        ink = ink_on(COLOUR_FILL[corner.color])
        halo = "#000000" if ink == "#FFFFFF" else "#FFFFFF"
        stamp_text(img, (ix, iy), label, size=fs, fill=ink, bold=True, stroke=halo, stroke_width=1)


def _action_mark(card: Any) -> str:
    return {"plus2": "+2", "die": "die"}.get(card.action or "", "")


def _draw_scene(
    img: Image.Image, view: View, game: Any, th: Theme, *, detail: bool, ghosts: Sequence[Any] = (),
    focus: int | None = None,
) -> None:
    """Grid, table edge, board, every card (play order), labels, highlight of the last card and ghosts."""
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, view.width, view.height), fill=OFF_TABLE[th.name])
    tw, th_mm = _table_size(game)
    draw.rectangle((*view.px(-tw / 2, -th_mm / 2), *view.px(tw / 2, th_mm / 2)), fill=th.table)
    _draw_grid(draw, view, th, 50.0 if view.scale < 2.5 else 10.0)
    draw.rectangle((*view.px(-tw / 2, -th_mm / 2), *view.px(tw / 2, th_mm / 2)), outline=th.table_edge, width=3)
    _draw_board(draw, view, th, detail, bool(ghosts))
    cards = _table_cards(game)
    for tc in cards:
        _draw_card_shapes(img, draw, view, tc.card, tc.rect, tc.corner_shapes, detail)
    # labels where the card is still visible
    vis = visible_parts(game)
    fs = max(22, min(int(view.scale * 13), 40))
    for tc in cards:
        lp = _label_point(vis[tc.card.id][0])
        if lp is None:
            continue
        x, y = view.px(lp[0], lp[1])
        mark = _action_mark(tc.card)
        label = f"{tc.card.id}{tc.card.color}" + (f" {mark}" if mark and detail else "")
        size = fs if lp[2] * view.scale * 2 > text_size(label, fs, True)[0] * 0.6 else max(16, fs - 4)
        ink = ink_on(COLOUR_FILL[tc.card.color])
        halo = "#000000" if ink == "#FFFFFF" else "#FFFFFF"
        draw_text(draw, (x, y), label, size=size, fill=ink, bold=True, anchor="mm", stroke=halo, stroke_width=2)
        if mark and not detail:
            draw_text(draw, (x, y + size * 0.95), mark, size=max(16, size - 4), fill=ink, bold=True, anchor="mm",
                      stroke=halo, stroke_width=2)
    if cards:
        last = cards[-1]
        pts = view.poly(last.rect)
        draw.line([*pts, pts[0], pts[1]], fill="#000000", width=9, joint="curve")
        draw.line([*pts, pts[0], pts[1]], fill="#FFFFFF", width=4, joint="curve")
    if focus is not None:
        for tc in cards:
            if tc.card.id == focus and tc is not cards[-1]:
                pts = view.poly(tc.rect)
                draw.line([*pts, pts[0], pts[1]], fill=th.highlight, width=4, joint="curve")
    if ghosts:
        _draw_ghosts(img, view, game, ghosts)


GHOST_OUTLINES = ("#FFFFFF", "#56B4E9", "#FF66CC", "#B6FF3B", "#FFB000", "#00E5E5", "#FF5555", "#C9A6FF", "#FFF27A")
"""Outline (and badge ring) colour of ghost 1, 2, ... (cycled): neighbouring ghosts stay tellable apart."""


@dataclass(frozen=True)
class Badge:
    """Where a ghost's number badge is drawn, in plot px: centre, radius, and the point of the ghost a leader line
    runs to (``None`` when the badge sits on a part of its ghost that no other ghost covers)."""

    number: int
    x: float
    y: float
    r: float
    leader_to: tuple[float, float] | None = None


def ghost_badges(game: Any, view: View, ghosts: Sequence[Any]) -> list[Badge]:
    """Non-overlapping number badges for ``ghosts`` (1-based, in order) in the plot px of ``view``.

    Each badge goes, in order of preference: at its ghost's centre, or at the pole of inaccessibility of the part of
    its ghost that no other ghost and no earlier badge covers, when a whole badge fits there; otherwise just outside
    its ghost (the free spot nearest to it, away from other ghosts and badges, inside the view) with a leader line
    to its ghost's own part. Badge discs never overlap (centres at least ``2 r + 4`` px apart).
    Raises ``ValueError`` for a ghost naming a card or corner that does not exist.
    """
    r = max(16.0, view.scale * 7)
    r_mm = r / view.scale
    gap_mm = 4 / view.scale
    rects = []
    for place in ghosts:
        card, (cx, cy, rot) = _ghost_pose(game, place)
        rects.append((posed_card(card, cx, cy, rot).rect, (cx, cy)))
    placed: list[tuple[float, float]] = []  # badge centres in mm
    out: list[Badge] = []
    x_lo, y_lo = view.x0 + r_mm + gap_mm, view.y0 + r_mm + gap_mm
    x_hi, y_hi = view.x0 + view.width / view.scale - r_mm - gap_mm, view.y0 + view.height / view.scale - r_mm - gap_mm

    def free(x: float, y: float) -> bool:
        return x_lo <= x <= x_hi and y_lo <= y <= y_hi and all(
            math.dist((x, y), q) >= 2 * r_mm + gap_mm for q in placed)

    for i, (rect, centre) in enumerate(rects, start=1):
        others = [o for k, (o, _) in enumerate(rects, start=1) if k != i]
        own = rect.difference(shapely.union_all(others)) if others else rect
        blocked = shapely.union_all([shapely.Point(q).buffer(2 * r_mm + gap_mm) for q in placed]) if placed else None
        room = own.difference(blocked) if blocked is not None else own
        spot: tuple[float, float] | None = None
        if room.contains(shapely.Point(centre).buffer(r_mm)) and free(*centre):
            spot = centre
        else:
            lp = _label_point(room)
            if lp is not None and lp[2] >= r_mm and free(lp[0], lp[1]):
                spot = (lp[0], lp[1])
        if spot is not None:
            placed.append(spot)
            out.append(Badge(i, *view.px(*spot), r))
            continue
        target = _label_point(own) if not own.is_empty else None
        tx, ty = (target[0], target[1]) if target is not None else centre
        crowd = shapely.union_all([*others, *[tc.rect for tc in _table_cards(game)]])
        best: tuple[float, tuple[float, float]] | None = None
        base = math.dist(rect.centroid.coords[0], rect.exterior.coords[0])
        for ring in range(6):
            dist = base + r_mm + gap_mm + ring * 2 * r_mm
            for k in range(24):
                a = 2 * math.pi * k / 24
                x, y = centre[0] + dist * math.cos(a), centre[1] + dist * math.sin(a)
                if not free(x, y):
                    continue
                disc = shapely.Point(x, y).buffer(r_mm)
                if disc.intersects(rect):
                    continue
                cost = math.dist((x, y), (tx, ty)) + (200.0 if disc.intersects(crowd) else 0.0)
                if best is None or cost < best[0]:
                    best = (cost, (x, y))
            if best is not None and best[0] < 200.0:
                break
        if best is None:  # nowhere free in the view: stack down the left edge, still apart
            y = y_lo + (len(out)) * (2 * r_mm + gap_mm)
            best = (0.0, (x_lo, min(y, y_hi)))
        placed.append(best[1])
        out.append(Badge(i, *view.px(*best[1]), r, view.px(tx, ty)))
    return out


def _draw_ghosts(img: Image.Image, view: View, game: Any, ghosts: Sequence[Any]) -> None:
    """Ghost cards semi-transparent with a dashed outline of their own colour, then the number badges on top."""
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    tris = []
    for i, place in enumerate(ghosts, start=1):
        card, (cx, cy, rot) = _ghost_pose(game, place)
        posed = posed_card(card, cx, cy, rot)
        r, g, b = (int(COLOUR_FILL[card.color][k : k + 2], 16) for k in (1, 3, 5))
        od.polygon(view.poly(posed.rect), fill=(r, g, b, 90))
        for corner, shape in zip(card.corners, posed.corners, strict=True):
            cr, cg, cb = (int(COLOUR_FILL[corner.color][k : k + 2], 16) for k in (1, 3, 5))
            od.polygon(view.poly(shape), fill=(cr, cg, cb, 120))
        tris.append((i, posed.corners[card.corners.index(card.corner(place.corner))], posed.rect))
    img.paste(Image.alpha_composite(img.convert("RGBA"), overlay).convert("RGB"))
    draw = ImageDraw.Draw(img)
    for i, tri, rect in tris:
        colour = GHOST_OUTLINES[(i - 1) % len(GHOST_OUTLINES)]
        pts = view.poly(rect)
        _dashed(draw, [*pts, pts[0]], "#000000", 6, 12)
        _dashed(draw, [*pts, pts[0]], colour, 3, 12)
        draw.polygon(view.poly(tri), outline=colour, width=3)
    badges = ghost_badges(game, view, ghosts)
    for bd in badges:  # leader lines first, so no line crosses a badge drawn later
        if bd.leader_to is not None:
            colour = GHOST_OUTLINES[(bd.number - 1) % len(GHOST_OUTLINES)]
            draw.line([(bd.x, bd.y), bd.leader_to], fill="#000000", width=6)
            draw.line([(bd.x, bd.y), bd.leader_to], fill=colour, width=3)
            lx, ly = bd.leader_to
            draw.ellipse((lx - 5, ly - 5, lx + 5, ly + 5), fill=colour, outline="#000000", width=2)
    for bd in badges:
        colour = GHOST_OUTLINES[(bd.number - 1) % len(GHOST_OUTLINES)]
        ux, uy, ur = bd.x, bd.y, bd.r
        draw.ellipse((ux - ur - 3, uy - ur - 3, ux + ur + 3, uy + ur + 3), fill=colour)
        draw.ellipse((ux - ur, uy - ur, ux + ur, uy + ur), fill="#FFFFFF", outline="#000000", width=3)
        draw_text(draw, (ux, uy), str(bd.number), size=int(ur * 1.2), fill="#000000", bold=True, anchor="mm")


def _dashed(draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], fill: Any, width: int, dash: float) -> None:
    for (ax, ay), (bx, by) in itertools.pairwise(pts):
        length = math.dist((ax, ay), (bx, by))
        n = max(1, int(length // dash))
        for k in range(0, n, 2):
            t0, t1 = k / n, min(1.0, (k + 1) / n)
            draw.line([(ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)],
                      fill=fill, width=width)


def _table_size(game: Any) -> tuple[float, float]:
    w, h = game.table_size_mm
    return float(w), float(h)


def _axes(draw: ImageDraw.ImageDraw, view: View, ox: int, oy: int, th: Theme) -> None:
    """Centimetre labels along the top (x) and left (y) edges of the plot placed at (ox, oy)."""
    span_cm = view.width / view.scale / 10
    step = 10 if span_cm > 60 else 5 if span_cm > 25 else 2
    fs = 21
    x_cm = math.ceil(view.x0 / 10 / step) * step
    while x_cm * 10 <= view.x0 + view.width / view.scale:
        x, _ = view.px(x_cm * 10, 0)
        draw.line([(ox + x, oy - 6), (ox + x, oy)], fill=th.muted, width=2)
        draw_text(draw, (ox + x, oy - 8), f"{x_cm:g}", size=fs, fill=th.text, anchor="mb")
        x_cm += step
    y_cm = math.ceil(view.y0 / 10 / step) * step
    while y_cm * 10 <= view.y0 + view.height / view.scale:
        _, y = view.px(0, y_cm * 10)
        draw.line([(ox - 6, oy + y), (ox, oy + y)], fill=th.muted, width=2)
        draw_text(draw, (ox - 9, oy + y), f"{y_cm:g}", size=fs, fill=th.text, anchor="rm")
        y_cm += step
    draw_text(draw, (6, oy - 8), "cm", size=fs, fill=th.muted, anchor="lb")


# ----------------------------------------------------------------------------------------------
# header (scores, goal, stars, pile, turn, last placement)
# ----------------------------------------------------------------------------------------------
def _star_holders(game: Any) -> dict[str, int | None]:
    return dict(game.stars)


def _header_lines(game: Game, names: Sequence[str]) -> tuple[str, str, str]:
    goal = game.goal
    pile = len(game.draw_pile)
    if game.current_player is None:
        winners = conex_winners(game)
        verb = " wins" if len(winners) == 1 else " win"
        turn = "game over" + (" — " + " & ".join(names[w] for w in winners) + verb if winners else "")
    else:
        turn = f"▶ {names[game.current_player]} to play"
    head = f"CONEX · goal {goal} · draw pile {pile} · {turn}"
    stars = _star_holders(game)
    parts = []
    for p in range(game.players):
        s = f"{names[p]} {game.scores[p]}"
        held = [("(2x star)" if k == "2x" else "(lightning star)") for k, v in stars.items() if v == p]
        if held:
            s += " " + " ".join(held)
        parts.append(s)
    scores = "Scores: " + "   ".join(parts)
    supply = [("2x" if k == "2x" else "lightning") for k, v in stars.items() if v is None]
    if supply:
        scores += "   · in supply: " + ", ".join(supply)
    pending = sorted(game.pending_discards)
    if pending:
        scores += "   · must discard: " + ", ".join(names[p] for p in pending)
    cards = _table_cards(game)
    if cards:
        last = cards[-1]
        tgt = "the board" if last.target == "board" else f"#{last.target}"
        x, y, r = last.pose
        lastline = (f"Last: #{last.card.id} by {names[last.placed_by]}, corner {last.corner} on {tgt} "
                    f"(+{last.points}) · centre ({x / 10:.1f}, {y / 10:.1f}) cm r{r:.0f}")
    elif game.is_over:
        lastline = "No card was placed."
    else:
        lastline = "No cards on the table yet: start on the board square of your corner's colour."
    return head, scores, lastline


def _zoom_view(game: Any, zoom: Any) -> tuple[float, float]:
    cards = _table_cards(game)
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


def fit_bounds(game: Any, ghosts: Sequence[Any] = ()) -> tuple[float, float, float, float]:
    """The default view's window ``(x0, y0, x1, y1)`` in table mm: the region in play.

    The bounding box of the scoring board (G3), every table card and every ghost's card, plus
    :data:`FIT_MARGIN_MM` on each side, grown to the table's aspect ratio and to at least
    :data:`FIT_MIN_W_MM` wide, then slid (and at most grown to the whole table, 8 mm beyond its edge) to stay over
    the table (G2). Raises ``ValueError`` for a ghost naming a card or corner that does not exist.
    """
    tw, thh = _table_size(game)
    h = BOARD_MM / 2
    x0, y0, x1, y1 = -h, -h, h, h
    boxes = [tc.rect.bounds for tc in _table_cards(game)]
    for place in ghosts:
        card, (gx, gy, rot) = _ghost_pose(game, place)
        boxes.append(posed_card(card, gx, gy, rot).rect.bounds)
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


PLOT_ORIGIN = (AXIS_L, HEADER_H + AXIS_T)
"""Pixel offset of the plot (the table picture) inside a :func:`render_table` image."""


def table_view(game: Any, zoom: int | str | None = None, ghosts: Sequence[Any] = ()) -> View:
    """The :class:`View` (mm -> plot px) that :func:`render_table` uses; add :data:`PLOT_ORIGIN` for image px.

    ``zoom=None`` (default): the region in play, see :func:`fit_bounds`. ``zoom="table"``: the whole table (G2).
    Otherwise a 4:3 window at least 40 x 30 cm centred on the zoom target, widened to hold every ghost's card
    (plus 3 cm), then slid to stay over the table (up to 3 cm beyond its edge).
    Raises ``ValueError`` for a ``zoom`` that is not ``None``, ``"table"``, ``"last"``, ``"board"`` or a table
    card id.
    """
    tw, thh = _table_size(game)
    fit = fit_bounds(game, ghosts) if zoom is None else None
    if zoom == "table" or (fit is not None and fit[2] - fit[0] >= tw + 16 - 1e-6):  # the region in play is it all
        scale = PLOT_LONG_PX / max(tw, thh)
        return View(-tw / 2 - 8, -thh / 2 - 8, scale, int((tw + 16) * scale), int((thh + 16) * scale))
    if fit is not None:
        x0, y0, x1, y1 = fit
        scale = PLOT_LONG_PX / max(x1 - x0, y1 - y0)
        return View(x0, y0, scale, round((x1 - x0) * scale), round((y1 - y0) * scale))
    cx, cy = _zoom_view(game, zoom)
    x0, y0, x1, y1 = cx - ZOOM_W_MM / 2, cy - ZOOM_H_MM / 2, cx + ZOOM_W_MM / 2, cy + ZOOM_H_MM / 2
    if ghosts:
        for place in ghosts:
            card, (gx, gy, rot) = _ghost_pose(game, place)
            bx0, by0, bx1, by1 = posed_card(card, gx, gy, rot).rect.bounds
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
    scale = PLOT_LONG_PX / w
    return View(x0, y0, scale, round(w * scale), round(h * scale))


def render_table(
    game: Game,
    *,
    names: Sequence[str],
    zoom: int | str | None = None,
    ghosts: Sequence[Place] = (),
    theme: str = "dark",
) -> Image.Image:
    """The CONEX table as an RGB image (long side about 1300 px), by default fitted to the region in play.

    Draws the table edge (G2), a centimetre grid with labelled axes (G1: origin at the board centre, y down),
    the scoring board with its four colour squares (G3), every table card at its pose in play order (G6) with
    background colour, corners (colour, value) and number+colour letter, the last placement outlined in white,
    and a header with scores, goal, stars' holders, draw pile size and whose turn it is.

    Args:
        game: an ``engine.conex.Game`` (public attributes only).
        names: display names by seat.
        zoom: ``None`` = the region in play (board, cards and ghosts plus 6 cm, at least about 43 x 30 cm, see
            :func:`fit_bounds`); ``"table"`` = the whole table; ``"last"`` = a 40 x 30 cm window around the last
            placed card; a table card id = around that card (outlined); ``"board"`` = around the scoring board.
            Every view but ``"table"`` widens to hold all ``ghosts``.
        ghosts: ``Place`` actions drawn as numbered translucent ghosts (the placement preview; rotation ``None``
            is drawn at 0 degrees). Legality is not checked here: pass what the finder or the player proposed.
        theme: ``"dark"`` or ``"light"``.

    Raises:
        ValueError: unknown theme, ``zoom`` that is no table card id, or a ghost naming a card or corner that
            does not exist.
    """
    th = theme_of(theme)
    names = seat_names(names, game.players)
    view = table_view(game, zoom, ghosts)
    detail = zoom not in (None, "table")
    focus = zoom if isinstance(zoom, int) else None
    plot = Image.new("RGB", (view.width, view.height), th.bg)
    _draw_scene(plot, view, game, th, detail=detail, ghosts=ghosts, focus=focus)
    width = AXIS_L + view.width + PAD
    height = HEADER_H + AXIS_T + view.height + PAD
    img, draw = new_canvas(width, height, th)
    head, scores, lastline = _header_lines(game, names)
    if zoom is not None:
        head += f" · zoom: {zoom}"
    max_w = width - 2 * PAD
    draw_fit(draw, (PAD, 14), head, max_w=max_w, size=28, fill=th.text, bold=True)
    draw_fit(draw, (PAD, 56), scores, max_w=max_w, size=24, fill=th.text)
    draw_fit(draw, (PAD, 94), lastline, max_w=max_w, size=22, fill=th.muted)
    img.paste(plot, (AXIS_L, HEADER_H + AXIS_T))
    _axes(draw, view, AXIS_L, HEADER_H + AXIS_T, th)
    return img


# ----------------------------------------------------------------------------------------------
# text twins
# ----------------------------------------------------------------------------------------------
def _corners_text(card: Any, visible: Iterable[BaseGeometry] | None = None) -> str:
    vis = list(visible) if visible is not None else [None] * len(card.corners)
    out = []
    for corner, v in zip(card.corners, vis, strict=True):
        if v is not None and v.area < 1.0:
            continue
        out.append(f"{corner.index}:{corner.color}{corner.value}")
    return ",".join(out) if out else "none visible"


def table_text(game: Game, *, names: Sequence[str], ghosts: Sequence[Place] = (), limit: int = 1900) -> str:
    """Text twin of :func:`render_table`: header facts then one entry per table card in play order.

    Full entries read ``#12R +2 at (3.5,-10.0) r90 corners 1:Y4,3:P2`` (colour letter, action, centre in cm,
    rotation clockwise, visible corners ``index:colour value``); free cards are marked ``free``. When that is
    longer than ``limit`` characters a medium form (``#12R+2 3.5,-10.0 r90 Y4 P2 free``: visible corners as
    colour and value) is tried, then a compact one (``#12R(4,-10)``) truncated with a count if still too long,
    so the text always fits a Discord message (2000 characters). ``ghosts`` (the preview's ``Place`` list) are
    listed after the last placement as ``Ghost 1: place 12 c2 at 3.5,-10.0 r90``.
    """
    names = seat_names(names, game.players)
    head, scores, lastline = _header_lines(game, names)
    head = head.replace("▶ ", "")
    cards = _table_cards(game)
    vis = visible_parts(game)
    rects = [tc.rect for tc in cards]
    full, medium, compact = [], [], []
    for i, tc in enumerate(cards):
        c = tc.card
        x, y, r = tc.pose
        act = {"plus2": " +2", "die": " die"}.get(c.action or "", "")
        free = all(o.intersection(tc.rect).area <= 0.01 for o in rects[i + 1 :])
        corners = _corners_text(c, vis[c.id][1])
        full.append(f"#{c.id}{c.color}{act} at ({x / 10:.1f},{y / 10:.1f}) r{r:.0f} corners {corners}"
                    + (" free" if free else ""))
        short = " ".join(k.split(":")[1] for k in corners.split(",")) if ":" in corners else "-"
        medium.append(f"#{c.id}{c.color}{act.replace(' ', '')} {x / 10:.1f},{y / 10:.1f} r{r:.0f} {short}"
                      + (" free" if free else ""))
        compact.append(f"#{c.id}{c.color}{act.strip()}({x / 10:.0f},{y / 10:.0f})")
    if ghosts:
        lastline += "\n" + "\n".join(f"Ghost {i}: {place}" for i, place in enumerate(ghosts, start=1))
    intro = [head, scores, lastline, "Colours: Y yellow, R red, T turquoise, P purple. Board squares: Y top-left, "
             "R top-right, T bottom-right, P bottom-left; coordinates in cm, origin = board centre, y down."]
    if not cards:
        return "\n".join(intro)
    text = "\n".join([*intro, f"Table ({len(cards)} cards, bottom to top):", *full])
    if len(text) <= limit:
        return text
    base = "\n".join([*intro[:3], f"Table ({len(cards)} cards, bottom to top; centre cm, rotation, visible corners):"])
    text = base + "\n" + "; ".join(medium)
    if len(text) <= limit:
        return text
    out = "\n".join([*intro[:3], f"Table ({len(cards)} cards, bottom to top, centre cm):"]) + "\n"
    for k, entry in enumerate(compact):
        if len(out) + len(entry) + 20 > limit:
            out += f" … (+{len(compact) - k} more)"
            break
        out += ("" if k == 0 else " ") + entry
    return out


def __getattr__(name: str) -> Any:
    """Lazy re-export of the hand image (:mod:`render.conex_hand`), avoiding an import cycle."""
    if name in ("render_hand", "hand_text", "hand_slots", "HAND_SCALE"):
        from render import conex_hand

        return getattr(conex_hand, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
