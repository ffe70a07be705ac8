"""Drawing the CONEX table scene (the plot of :func:`render.conex.render_table` and of the hint tiles): grid,
table edge, scoring board, cards in play order with their corners, labels where they stay readable, the
highlighted and removed cards, ghosts with their number badges, and the centimetre axes.

Every label is at least ``fs`` px (the image's minimum legible size, :func:`render.text.min_font_px`): a label
that cannot be that big where it belongs is left out (corner values on a crowded overview; the header says to
zoom) rather than drawn unreadably small. Labels are drawn after every card, so a later card never cuts one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from engine.conex.geometry import BOARD_MM, BOARD_SQUARES, posed_card
from render.common import Theme, ink_on, note_paste, stamp_text, text_width
from render.conex_view import View, ghost_pose, incentre, label_point, table_cards, table_size, visible_parts

COLOUR_FILL: dict[str, str] = {"Y": "#F0E442", "R": "#D55E00", "T": "#009E73", "P": "#CC79A7"}
CARD_EDGE = "#111111"
BOARD_FILL = {"dark": "#5C6068", "light": "#A9AEB6"}
OFF_TABLE = {"dark": "#0E0F11", "light": "#C4C7CC"}
REMOVED_INK = "#FF4040"
CORNER_LABEL_LEG_MM = 22.0
"""Corner values are drawn only when a typical corner (legs of this many mm) is at least 1.5 labels wide."""


def halo_for(ink: str) -> str:
    """The outline colour that makes ``ink`` readable on anything."""
    return "#000000" if ink == "#FFFFFF" else "#FFFFFF"


def corner_labels_fit(view: View, fs: int) -> bool:
    """True when corner values at ``fs`` px fit their corners in ``view`` (see :data:`CORNER_LABEL_LEG_MM`)."""
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


# ----------------------------------------------------------------------------------------------
# background
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


def _draw_board(img: Image.Image, view: View, th: Theme, fs: int, centre_word: bool) -> None:
    draw = ImageDraw.Draw(img)
    h = BOARD_MM / 2
    draw.rectangle((*view.px(-h, -h), *view.px(h, h)), fill=BOARD_FILL[th.name], outline=CARD_EDGE, width=2)
    letters = []
    for colour, sq in BOARD_SQUARES.items():
        x0, y0, x1, y1 = sq.bounds
        draw.rectangle((*view.px(x0, y0), *view.px(x1, y1)), fill=COLOUR_FILL[colour], outline=CARD_EDGE, width=2)
        letters.append((colour, view.px((x0 + x1) / 2, (y0 + y1) / 2)))
    letter_size = max(fs, int(view.scale * 22))
    for colour, (cx, cy) in letters:
        if 0 <= cx <= view.width and 0 <= cy <= view.height:
            draw_label(img, (cx, cy), colour, letter_size, ink_on(COLOUR_FILL[colour]), stroke_width=0)
    if centre_word:
        cx, cy = view.px(0, 0)
        if 0 <= cx <= view.width and 0 <= cy <= view.height:
            draw_label(img, (cx, cy), "board", max(fs, int(view.scale * 14)), "#FFFFFF")


# ----------------------------------------------------------------------------------------------
# cards
# ----------------------------------------------------------------------------------------------
def draw_card_shapes(
    draw: ImageDraw.ImageDraw,
    view: View,
    card: Any,
    rect: Polygon,
    corners: Sequence[Polygon],
    fill: str | None = None,
    outline: str = CARD_EDGE,
    width: int = 2,
) -> None:
    """One card's rectangle (its colour) and its corner triangles (their colours), no labels."""
    pts = view.poly(rect)
    draw.polygon(pts, fill=fill or COLOUR_FILL[card.color])
    # the edge as a closed line: Pillow's polygon outline wider than 1 px masks the whole image (slow)
    draw.line([*pts, pts[0], pts[1]], fill=outline, width=width, joint="curve")
    for corner, shape in zip(card.corners, corners, strict=True):
        draw.polygon(view.poly(shape), fill=COLOUR_FILL[corner.color], outline=CARD_EDGE, width=max(1, width - 1))


def action_mark(card: Any) -> str:
    """``"+2"`` or ``"die"`` for an action card (V2, X1), else ``""``."""
    return {"plus2": "+2", "die": "die"}.get(card.action or "", "")


def _corner_labels(img: Image.Image, view: View, game: Any, vis: dict[int, Any], fs: int) -> None:
    for tc in table_cards(game):
        for corner, full, seen in zip(tc.card.corners, tc.corner_shapes, vis[tc.card.id][1], strict=True):
            if seen.is_empty or seen.area < 0.5 * full.area:
                lp = label_point(seen, min_area=30.0)
                if lp is None:
                    continue
                x, y = view.px(lp[0], lp[1])
            else:
                x, y = incentre(view.poly(full))
            if not (0 <= x <= view.width and 0 <= y <= view.height):
                continue
            draw_label(
                img,
                (x, y),
                f"{corner.color}{corner.value}",
                fs,
                ink_on(COLOUR_FILL[corner.color]),
                stroke_width=max(1, fs // 14),
            )


def _card_labels(img: Image.Image, view: View, game: Any, vis: dict[int, Any], fs: int) -> None:
    size = max(fs, min(int(view.scale * 13), fs + 10))
    for tc in table_cards(game):
        lp = label_point(vis[tc.card.id][0])
        if lp is None:
            continue
        x, y = view.px(lp[0], lp[1])
        if not (0 <= x <= view.width and 0 <= y <= view.height):
            continue
        full = f"{tc.card.id}{tc.card.color}"
        room = max(2.4 * lp[2] * view.scale, 0.9 * 60.0 * view.scale)
        label = full if text_width(full, size, True) <= room else str(tc.card.id)
        ink = ink_on(COLOUR_FILL[tc.card.color])
        mark = action_mark(tc.card)
        if mark:
            y -= size * 0.5
        draw_label(img, (x, y), label, size, ink)
        if mark:
            draw_label(img, (x, y + size * 1.05), mark, fs, ink)


def _outline(
    draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], colour: str, width: int, under: str | None = None
) -> None:
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


def draw_removed(img: Image.Image, view: View, card_id: int, rect: Polygon, fs: int) -> None:
    """A card removed by a lightning: its old place outlined in red dashes with a "#17 removed" tag."""
    draw = ImageDraw.Draw(img)
    pts = view.poly(rect)
    dashed(draw, [*pts, pts[0]], "#000000", 8, 14)
    dashed(draw, [*pts, pts[0]], REMOVED_INK, 4, 14)
    cx, cy = view.px(rect.centroid.x, rect.centroid.y)
    draw_label(img, (cx, cy), f"✕ #{card_id}", fs, REMOVED_INK)


def draw_scene(
    img: Image.Image,
    view: View,
    game: Any,
    th: Theme,
    *,
    fs: int,
    ghosts: Sequence[Any] = (),
    highlight: int | None = None,
    focus: int | None = None,
    removed: tuple[int, Polygon] | None = None,
    board_word: bool = False,
    badges: bool = True,
) -> bool:
    """Draw the table scene on ``img`` (the plot, ``view.width`` x ``view.height`` px); returns whether corner
    values were drawn (``False``: too small for this view, see :func:`corner_labels_fit`).

    Grid, table edge, board, every card (play order), the ``highlight`` card outlined white, the ``focus`` card
    outlined in the theme's highlight colour, the ``removed`` card (id, rectangle) dashed in red, corner values
    and card numbers where still visible, then the ``ghosts`` (with number badges unless ``badges`` is false).
    """
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, view.width, view.height), fill=OFF_TABLE[th.name])
    tw, thh = table_size(game)
    draw.rectangle((*view.px(-tw / 2, -thh / 2), *view.px(tw / 2, thh / 2)), fill=th.table)
    _draw_grid(draw, view, th, 50.0 if view.scale < 2.5 else 10.0)
    draw.rectangle((*view.px(-tw / 2, -thh / 2), *view.px(tw / 2, thh / 2)), outline=th.table_edge, width=3)
    _draw_board(img, view, th, fs, board_word and not ghosts)
    draw = ImageDraw.Draw(img)
    cards = table_cards(game)
    for tc in cards:
        draw_card_shapes(draw, view, tc.card, tc.rect, tc.corner_shapes)
    for tc in cards:
        if tc.card.id == highlight:
            _outline(draw, view.poly(tc.rect), "#FFFFFF", 4, under="#000000")
        elif tc.card.id == focus:
            _outline(draw, view.poly(tc.rect), th.highlight, 4)
    vis = visible_parts(game)
    corners = corner_labels_fit(view, fs)
    if corners:
        _corner_labels(img, view, game, vis, fs)
    _card_labels(img, view, game, vis, fs)
    if removed is not None:
        draw_removed(img, view, removed[0], removed[1], fs)
    if ghosts:
        draw_ghosts(img, view, game, ghosts, fs, badges=badges)
    return corners


# ----------------------------------------------------------------------------------------------
# ghosts
# ----------------------------------------------------------------------------------------------
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


def ghost_badges(game: Any, view: View, ghosts: Sequence[Any], min_r: float = 16.0) -> list[Badge]:
    """Non-overlapping number badges for ``ghosts`` (1-based, in order) in the plot px of ``view``.

    Each badge goes, in order of preference: at its ghost's centre, or at the pole of inaccessibility of the part of
    its ghost that no other ghost and no earlier badge covers, when a whole badge fits there; otherwise just outside
    its ghost (the free spot nearest to it, away from other ghosts and badges, inside the view) with a leader line
    to its ghost's own part. Badge discs never overlap (centres at least ``2 r + 4`` px apart); ``r`` is at least
    ``min_r`` px.
    Raises ``ValueError`` for a ghost naming a card or corner that does not exist.
    """
    r = max(min_r, view.scale * 7)
    r_mm = r / view.scale
    gap_mm = 4 / view.scale
    rects = []
    for place in ghosts:
        card, (cx, cy, rot) = ghost_pose(game, place)
        rects.append((posed_card(card, cx, cy, rot).rect, (cx, cy)))
    placed: list[tuple[float, float]] = []  # badge centres in mm
    out: list[Badge] = []
    x_lo, y_lo = view.x0 + r_mm + gap_mm, view.y0 + r_mm + gap_mm
    x_hi, y_hi = view.x0 + view.width / view.scale - r_mm - gap_mm, view.y0 + view.height / view.scale - r_mm - gap_mm

    def free(x: float, y: float) -> bool:
        return (
            x_lo <= x <= x_hi and y_lo <= y <= y_hi and all(math.dist((x, y), q) >= 2 * r_mm + gap_mm for q in placed)
        )

    for i, (rect, centre) in enumerate(rects, start=1):
        others = [o for k, (o, _) in enumerate(rects, start=1) if k != i]
        own = rect.difference(shapely.union_all(others)) if others else rect
        blocked = shapely.union_all([shapely.Point(q).buffer(2 * r_mm + gap_mm) for q in placed]) if placed else None
        room = own.difference(blocked) if blocked is not None else own
        spot: tuple[float, float] | None = None
        if room.contains(shapely.Point(centre).buffer(r_mm)) and free(*centre):
            spot = centre
        else:
            lp = label_point(room)
            if lp is not None and lp[2] >= r_mm and free(lp[0], lp[1]):
                spot = (lp[0], lp[1])
        if spot is not None:
            placed.append(spot)
            out.append(Badge(i, *view.px(*spot), r))
            continue
        target = label_point(own) if not own.is_empty else None
        tx, ty = (target[0], target[1]) if target is not None else centre
        crowd = shapely.union_all([*others, *[tc.rect for tc in table_cards(game)]])
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


def draw_ghosts(img: Image.Image, view: View, game: Any, ghosts: Sequence[Any], fs: int, badges: bool = True) -> None:
    """Ghost cards semi-transparent with a dashed outline of their own colour, then the number badges on top
    (numbers at least ``fs`` px)."""
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    tris = []
    for i, place in enumerate(ghosts, start=1):
        card, (cx, cy, rot) = ghost_pose(game, place)
        posed = posed_card(card, cx, cy, rot)
        r, g, b = (int(COLOUR_FILL[card.color][k : k + 2], 16) for k in (1, 3, 5))
        od.polygon(view.poly(posed.rect), fill=(r, g, b, 90))
        for corner, shape in zip(card.corners, posed.corners, strict=True):
            cr, cg, cb = (int(COLOUR_FILL[corner.color][k : k + 2], 16) for k in (1, 3, 5))
            od.polygon(view.poly(shape), fill=(cr, cg, cb, 120))
        tris.append((i, posed.corners[card.corners.index(card.corner(place.corner))], posed.rect))
    base = img.convert("RGBA")
    base.alpha_composite(overlay)
    img.paste(base.convert("RGB"))
    draw = ImageDraw.Draw(img)
    for i, tri, rect in tris:
        colour = GHOST_OUTLINES[(i - 1) % len(GHOST_OUTLINES)]
        pts = view.poly(rect)
        dashed(draw, [*pts, pts[0]], "#000000", 6, 12)
        dashed(draw, [*pts, pts[0]], colour, 3, 12)
        draw.polygon(view.poly(tri), outline=colour, width=3)
    if not badges:
        return
    found = ghost_badges(game, view, ghosts, min_r=fs / 1.2)
    for bd in found:  # leader lines first, so no line crosses a badge drawn later
        if bd.leader_to is not None:
            colour = GHOST_OUTLINES[(bd.number - 1) % len(GHOST_OUTLINES)]
            draw.line([(bd.x, bd.y), bd.leader_to], fill="#000000", width=6)
            draw.line([(bd.x, bd.y), bd.leader_to], fill=colour, width=3)
            lx, ly = bd.leader_to
            draw.ellipse((lx - 5, ly - 5, lx + 5, ly + 5), fill=colour, outline="#000000", width=2)
    for bd in found:
        colour = GHOST_OUTLINES[(bd.number - 1) % len(GHOST_OUTLINES)]
        ux, uy, ur = bd.x, bd.y, bd.r
        draw.ellipse((ux - ur - 3, uy - ur - 3, ux + ur + 3, uy + ur + 3), fill=colour)
        draw.ellipse((ux - ur, uy - ur, ux + ur, uy + ur), fill="#FFFFFF", outline="#000000", width=3)
        stamp_text(img, (ux, uy), str(bd.number), size=max(fs, int(ur * 1.2)), fill="#000000", bold=True)


# ----------------------------------------------------------------------------------------------
# axes
# ----------------------------------------------------------------------------------------------
def axis_step_cm(view: View, fs: int) -> int:
    """Centimetres between axis labels: the smallest of 2, 5, 10, 20 that leaves room for labels ``fs`` px."""
    for step in (2, 5, 10, 20):
        if step * 10 * view.scale >= 2.3 * fs:
            return step
    return 50


def draw_axes(img: Image.Image, view: View, ox: int, oy: int, th: Theme, fs: int) -> None:
    """Centimetre labels along the top (x) and left (y) edges of the plot placed at ``(ox, oy)`` in ``img``."""
    draw = ImageDraw.Draw(img)
    step = axis_step_cm(view, fs)
    x_cm = math.ceil(view.x0 / 10 / step) * step
    while x_cm * 10 <= view.x0 + view.width / view.scale:
        x, _ = view.px(x_cm * 10, 0)
        draw.line([(ox + x, oy - 6), (ox + x, oy)], fill=th.muted, width=2)
        tx = min(max(ox + x, text_width(f"{x_cm:g}", fs) / 2 + 2), img.width - text_width(f"{x_cm:g}", fs) / 2 - 2)
        stamp_text(img, (tx, oy - 8), f"{x_cm:g}", size=fs, fill=th.text, anchor="ms")
        x_cm += step
    y_cm = math.ceil(view.y0 / 10 / step) * step
    while y_cm * 10 <= view.y0 + view.height / view.scale:
        _, y = view.px(0, y_cm * 10)
        draw.line([(ox - 6, oy + y), (ox, oy + y)], fill=th.muted, width=2)
        ty = min(max(oy + y, oy + fs * 0.4), oy + view.height - fs * 0.4)
        stamp_text(img, (ox - 9, ty), f"{y_cm:g}", size=fs, fill=th.text, anchor="rm")
        y_cm += step


def paste_plot(img: Image.Image, plot: Image.Image, at: tuple[int, int]) -> None:
    """Paste the drawn ``plot`` into ``img`` at ``at`` (and tell the label recorder)."""
    img.paste(plot, at)
    note_paste(plot, img, at)
