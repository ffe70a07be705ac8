"""Drawing the CONEX table scene (the plot of :func:`render.conex.render_table` and of the hint tiles): grid,
table edge, scoring board, cards in play order with their corners, labels where they stay readable, the
highlighted and removed cards, ghosts with their number badges, and the centimetre axes.

Every label is at least ``fs`` px (the image's minimum legible size, :func:`render.text.min_font_px`): a label
that cannot be that big where it belongs is left out (corner values on a crowded overview; the header says to
zoom) rather than drawn unreadably small. Labels are drawn after every card, so a later card never cuts one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from engine.conex.geometry import BOARD_MM, BOARD_SQUARES
from render.common import Theme, ink_on, note_paste, stamp_text, text_width
from render.conex_ghosts import draw_ghosts
from render.conex_ink import (
    BOARD_FILL,
    CARD_EDGE,
    COLOUR_FILL,
    OFF_TABLE,
    REMOVED_INK,
    corner_labels_fit,
    dashed,
    draw_card_shapes,
    draw_label,
    outline,
)
from render.conex_view import View, incentre, label_point, table_cards, table_size, visible_parts
from render.conex_words import EN
from render.words import Words, resolve

CORNER_MIN_MM2 = 30.0
"""A corner with less visible area than this (a sliver under a later card) gets no value."""


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


def _draw_board(img: Image.Image, view: View, th: Theme, fs: int, centre_word: str | None) -> None:
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
            draw_label(img, (cx, cy), centre_word, max(fs, int(view.scale * 14)), "#FFFFFF")


def action_mark(card: Any, words: Words | None = None) -> str:
    """``"+2"`` or the word for a die (``"die"`` in English) for an action card (V2, X1), else ``""``."""
    if card.action == "die":
        return resolve(words, EN)("cn.die")
    return "+2" if card.action == "plus2" else ""


@dataclass(frozen=True)
class CardLabel:
    """A table card's number label in plot px: centre, text, size, ink, and its action mark (``""``: none)."""

    x: float
    y: float
    text: str
    size: int
    ink: str
    mark: str

    def boxes(self, fs: int) -> list[tuple[float, float, float, float]]:
        """The label's (and its mark's) approximate boxes, px."""
        hw, hh = text_width(self.text, self.size, True) / 2 + 3, self.size * 0.62 + 3
        out = [(self.x - hw, self.y - hh, self.x + hw, self.y + hh)]
        if self.mark:
            mw = text_width(self.mark, fs, True) / 2 + 3
            my = self.y + self.size * 1.05
            out.append((self.x - mw, my - fs * 0.62 - 3, self.x + mw, my + fs * 0.62 + 3))
        return out


def card_labels(view: View, game: Any, vis: dict[int, Any], fs: int, words: Words | None = None) -> list[CardLabel]:
    """Where each table card's number goes (on its visible main area; the colour letter too when it fits)."""
    size = max(fs, min(int(view.scale * 13), fs + 10))
    out = []
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
        mark = action_mark(tc.card, words)
        if mark:
            y -= size * 0.5
        out.append(CardLabel(x, y, label, size, ink_on(COLOUR_FILL[tc.card.color]), mark))
    return out


@dataclass(frozen=True)
class CornerCoin:
    """A table corner's value in plot px: centre, radius (0 when drawn as a plain ``R4`` label inside a corner big
    enough), the text (``"4"`` on a coin, ``"R4"`` inside), and the corner's colour letter."""

    x: float
    y: float
    r: float
    text: str
    colour: str


Box = tuple[float, float, float, float]


class _Boxes:
    """Label boxes (px) in a grid of 64 px buckets, so "does this box overlap one placed" looks at neighbours only."""

    CELL = 64.0

    def __init__(self, boxes: Sequence[Box] = ()) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for b in boxes:
            self.add(b)

    def _keys(self, b: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [
            (i, j) for i in range(int(b[0] // c), int(b[2] // c) + 1) for j in range(int(b[1] // c), int(b[3] // c) + 1)
        ]

    def add(self, b: Box) -> None:
        for k in self._keys(b):
            self.cells.setdefault(k, []).append(b)

    def hits(self, b: Box) -> bool:
        x0, y0, x1, y1 = b
        return any(
            x0 < o[2] and o[0] < x1 and y0 < o[3] and o[1] < y1 for k in self._keys(b) for o in self.cells.get(k, ())
        )


def corner_coins(
    view: View,
    game: Any,
    vis: dict[int, Any],
    fs: int,
    words: Words | None = None,
    labels: Sequence[CardLabel] | None = None,
) -> tuple[list[CornerCoin], int]:
    """Every visible table corner's value, placed so no two labels overlap: ``(coins, skipped)``.

    A corner big enough in ``view`` (:func:`corner_labels_fit`) gets its colour and value (``R4``) inside it;
    otherwise a coin of the corner's colour, just big enough for the digit at ``fs`` px, on the corner (its
    incentre, or the middle of its visible part when a later card covers half of it). Cards are served top one
    first (what lies on top is what players look at), after the card numbers; a label that would overlap one
    already placed is skipped and counted in ``skipped`` (the header then says to zoom in). Slivers (under
    :data:`CORNER_MIN_MM2`) and corners outside the view are neither drawn nor counted. ``labels``: the card
    labels already computed (:func:`card_labels`), else computed here.
    """
    inside = corner_labels_fit(view, fs)
    if labels is None:
        labels = card_labels(view, game, vis, fs, words)
    taken = _Boxes([b for lab in labels for b in lab.boxes(fs)])
    coins: list[CornerCoin] = []
    skipped = 0
    r = 0.0 if inside else COIN_R * fs
    for tc in reversed(table_cards(game)):
        for corner, full, seen in zip(tc.card.corners, tc.corner_shapes, vis[tc.card.id][1], strict=True):
            if seen.is_empty or seen.area < CORNER_MIN_MM2:
                continue
            text = f"{corner.color}{corner.value}" if inside else str(corner.value)
            hw = text_width(text, fs, True) / 2 + 2 if inside else r + 1
            hh = fs * 0.62 + 2 if inside else r + 1
            spots = _coin_spots(view, full, seen, r)
            if not any(0 <= x <= view.width and 0 <= y <= view.height for x, y in spots[:1]):
                continue
            for x, y in spots:
                x = min(max(x, hw + 1), view.width - hw - 1)
                y = min(max(y, hh + 1), view.height - hh - 1)
                box = (x - hw, y - hh, x + hw, y + hh)
                if not taken.hits(box):
                    taken.add(box)
                    coins.append(CornerCoin(x, y, r, text, corner.color))
                    break
            else:
                skipped += 1
    return coins, skipped


COIN_R = 0.56
"""A value coin's radius, in label sizes (the digit's capitals fill most of it)."""


def _coin_spots(view: View, full: Polygon, seen: Any, r: float) -> list[tuple[float, float]]:
    """Where a corner's value may go, best first (plot px): on the corner (its incentre, or the middle of its
    visible part when a later card covers half of it), then on its tip, then just off the tip (the coin touching it),
    then nudged one radius around its middle."""
    pts = view.poly(full)
    spots = []
    if seen.area < 0.5 * full.area:
        lp = label_point(seen, min_area=CORNER_MIN_MM2)
        if lp is not None:
            spots.append(view.px(lp[0], lp[1]))
    ix, iy = incentre(pts)
    if not spots:
        spots.append((ix, iy))
    # the right angle's vertex is opposite the longest side (the hypotenuse)
    sides = [math.dist(pts[(k + 1) % 3], pts[(k + 2) % 3]) for k in range(3)]
    vx, vy = pts[sides.index(max(sides))]
    d = math.dist((vx, vy), (ix, iy)) or 1.0
    ux, uy = (ix - vx) / d, (iy - vy) / d
    for k in (0.35, -0.45):
        spots.append((vx + ux * r * k * 2, vy + uy * r * k * 2) if r else (ix, iy))
    # last, nudged around the corner's middle (still overlapping the corner), nearest the tip first
    ring = [(ix + r * math.cos(a), iy + r * math.sin(a)) for a in (k * math.pi / 4 for k in range(8))]
    spots += sorted(ring, key=lambda q: math.dist(q, (vx, vy)))
    return spots


@dataclass(frozen=True)
class SceneLabels:
    """What a table scene writes, computed once per picture (the header needs ``skipped`` before drawing): the
    visible parts (:func:`render.conex_view.visible_parts`), card labels, corner coins and the corners skipped."""

    vis: dict[int, Any]
    cards: list[CardLabel]
    coins: list[CornerCoin]
    skipped: int


def scene_labels(game: Any, view: View, fs: int, words: Words | None = None) -> SceneLabels:
    """The :class:`SceneLabels` of ``game`` drawn in ``view`` with labels ``fs`` px."""
    vis = visible_parts(game)
    cards = card_labels(view, game, vis, fs, words)
    coins, skipped = corner_coins(view, game, vis, fs, words, cards)
    return SceneLabels(vis, cards, coins, skipped)


def corner_values_all_shown(game: Any, view: View, fs: int) -> bool:
    """True when every visible corner in ``view`` gets its value (:func:`corner_coins` skips none)."""
    return scene_labels(game, view, fs).skipped == 0


def _corner_labels(img: Image.Image, coins: Sequence[CornerCoin], fs: int) -> None:
    draw = ImageDraw.Draw(img)
    for c in coins:
        ink = ink_on(COLOUR_FILL[c.colour])
        if c.r:
            draw.ellipse((c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r), fill=COLOUR_FILL[c.colour], outline=ink, width=2)
            stamp_text(img, (c.x, c.y), c.text, size=fs, fill=ink, bold=True)
        else:
            draw_label(img, (c.x, c.y), c.text, fs, ink, stroke_width=max(1, fs // 14))


def _card_labels(img: Image.Image, labels: Sequence[CardLabel], fs: int) -> None:
    for lab in labels:
        draw_label(img, (lab.x, lab.y), lab.text, lab.size, lab.ink)
        if lab.mark:
            draw_label(img, (lab.x, lab.y + lab.size * 1.05), lab.mark, fs, lab.ink)


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
    words: Words | None = None,
    ghost_marks: Sequence[str] | None = None,
    labels: SceneLabels | None = None,
) -> bool:
    """Draw the table scene on ``img`` (the plot, ``view.width`` x ``view.height`` px); returns whether every
    visible corner got its value (``False``: some were too crowded, see :func:`corner_coins`).

    Grid, table edge, board, every card (play order), the ``highlight`` card outlined white, the ``focus`` card
    outlined in the theme's highlight colour, the ``removed`` card (id, rectangle) dashed in red, corner values
    and card numbers where still visible, then the ``ghosts`` (with number badges unless ``badges`` is false;
    ``ghost_marks[i]`` is written big on ghost ``i``, e.g. its hand letter). ``words``: the viewer's language;
    ``labels``: the :func:`scene_labels` of this picture when the caller computed them already.
    """
    w = resolve(words, EN)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, view.width, view.height), fill=OFF_TABLE[th.name])
    tw, thh = table_size(game)
    draw.rectangle((*view.px(-tw / 2, -thh / 2), *view.px(tw / 2, thh / 2)), fill=th.table)
    _draw_grid(draw, view, th, 50.0 if view.scale < 2.5 else 10.0)
    draw.rectangle((*view.px(-tw / 2, -thh / 2), *view.px(tw / 2, thh / 2)), outline=th.table_edge, width=3)
    _draw_board(img, view, th, fs, w("cn.board_word") if board_word and not ghosts else None)
    draw = ImageDraw.Draw(img)
    cards = table_cards(game)
    for tc in cards:
        draw_card_shapes(draw, view, tc.card, tc.rect, tc.corner_shapes, patterns=th.card_patterns)
    for tc in cards:
        if tc.card.id == highlight:
            outline(draw, view.poly(tc.rect), "#FFFFFF", 4, under="#000000")
        elif tc.card.id == focus:
            outline(draw, view.poly(tc.rect), th.highlight, 4)
    sl = labels if labels is not None else scene_labels(game, view, fs, w)
    _corner_labels(img, sl.coins, fs)
    _card_labels(img, sl.cards, fs)
    if removed is not None:
        draw_removed(img, view, removed[0], removed[1], fs)
    if ghosts:
        draw_ghosts(img, view, game, ghosts, fs, badges=badges, marks=ghost_marks, words=w, patterns=th.card_patterns)
    return sl.skipped == 0


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
