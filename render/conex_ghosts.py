"""Ghost cards on the CONEX table scene (a hint's or a preview's poses): hatched, outlined in one of
:data:`GHOST_OUTLINES`, with number badges placed where they stay readable. Split from :mod:`render.conex_scene` by
job."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import shapely
from PIL import Image, ImageChops, ImageDraw
from shapely.geometry import Polygon

from engine.conex.geometry import posed_card
from render.common import hex_rgb, ink_on, stamp_text
from render.conex_ink import COLOUR_FILL, dashed, draw_card_shapes, draw_label
from render.conex_view import View, ghost_pose, label_point, table_cards
from render.words import Words

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


def _shade(colour: str, k: float) -> tuple[int, int, int]:
    """``colour`` moved ``k`` of the way to black (``k`` < 0: to white)."""
    rgb = hex_rgb(colour)
    if k >= 0:
        return (round(rgb[0] * (1 - k)), round(rgb[1] * (1 - k)), round(rgb[2] * (1 - k)))
    return tuple(round(c + (255 - c) * -k) for c in rgb)  # type: ignore[return-value]


GHOST_STRIPE_PX = 9
"""Spacing of a ghost card's diagonal hatching, px."""


def hatch_polygon(img: Image.Image, pts: Sequence[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    """Diagonal stripes of ``colour`` (2 px wide, every :data:`GHOST_STRIPE_PX` px) clipped to the polygon."""
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
    x1, y1 = min(img.width, math.ceil(max(xs)) + 1), min(img.height, math.ceil(max(ys)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    md = ImageDraw.Draw(mask)
    h = y1 - y0
    for x in range(-h, x1 - x0, GHOST_STRIPE_PX):
        md.line([(x, h), (x + h, 0)], fill=255, width=2)
    clip = Image.new("L", mask.size, 0)
    ImageDraw.Draw(clip).polygon([(px - x0, py - y0) for px, py in pts], fill=255)
    img.paste(colour, (x0, y0, x1, y1), ImageChops.multiply(mask, clip))


def draw_ghosts(
    img: Image.Image,
    view: View,
    game: Any,
    ghosts: Sequence[Any],
    fs: int,
    badges: bool = True,
    marks: Sequence[str] | None = None,
    words: Words | None = None,
    patterns: bool = False,
) -> None:
    """Ghost cards in their real colours (solid: a translucent purple reads grey on the dark table), hatched in a
    darker shade of each colour and outlined in dashes of the ghost's own colour, so "not placed yet" never costs
    the colour; the corner used outlined; on each ghost its ``marks[i]`` (hand letter) big and its number with
    colour letter; then the number badges on top (numbers at least ``fs`` px). ``patterns``: the corners' patterns
    (colour-blind palette)."""
    draw = ImageDraw.Draw(img)
    tris = []
    for i, place in enumerate(ghosts, start=1):
        card, (cx, cy, rot) = ghost_pose(game, place)
        posed = posed_card(card, cx, cy, rot)
        draw_card_shapes(draw, view, card, posed.rect, posed.corners, outline="#000000", width=2, patterns=patterns)
        main = posed.rect.difference(shapely.union_all(list(posed.corners)))
        parts = main.geoms if hasattr(main, "geoms") else [main]
        for part in parts:
            if isinstance(part, Polygon) and not part.is_empty:
                hatch_polygon(img, view.poly(part), _shade(COLOUR_FILL[card.color], 0.22))
        for corner, shape in zip(card.corners, posed.corners, strict=True):
            if not patterns:  # the colour-blind corner patterns stay unhatched, to be read
                hatch_polygon(img, view.poly(shape), _shade(COLOUR_FILL[corner.color], 0.22))
        tris.append((i, card, posed, posed.corners[card.corners.index(card.corner(place.corner))], rot))
    draw = ImageDraw.Draw(img)
    for i, card, posed, tri, _rot in tris:
        colour = GHOST_OUTLINES[(i - 1) % len(GHOST_OUTLINES)]
        pts = view.poly(posed.rect)
        dashed(draw, [*pts, pts[0]], "#000000", 6, 12)
        dashed(draw, [*pts, pts[0]], colour, 3, 12)
        draw.polygon(view.poly(tri), outline="#000000", width=5)
        draw.polygon(view.poly(tri), outline="#FFFFFF", width=2)
        ink = ink_on(COLOUR_FILL[card.color])
        gx, gy = view.px(posed.rect.centroid.x, posed.rect.centroid.y)
        if badges:  # the number badge may sit at the centre: the card's own labels go below it
            gy += fs * 1.7
        mark = marks[i - 1] if marks is not None and i - 1 < len(marks) else ""
        number = f"{card.id}{card.color}"
        if mark and view.scale * 40 >= 2.2 * fs:
            draw_label(img, (gx, gy - fs * 0.55), mark, round(fs * 1.5), ink)
            draw_label(img, (gx, gy + fs * 0.85), number, fs, ink)
        else:
            draw_label(img, (gx, gy), f"{mark} {number}".strip() if view.scale * 55 >= 4 * fs else number, fs, ink)
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
