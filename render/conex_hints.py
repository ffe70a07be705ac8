"""CONEX hint previews: one small zoomed tile per hint, in a grid (:func:`render_hints`), and the text twin.

Each tile shows the table around one suggested placement with only that placement's ghost on it, under a
caption with the hint's number (the number on its button), the card (hand letter when the bot passes labels)
and its target, so no two hints can be confused (issue 14: ghosts piled on one target were unreadable).
Tiles are two per row: at 400 px on a phone each is about 190 px wide and its caption keeps 9 px capitals.
Pure; re-exported by :mod:`render.conex`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image
from shapely.geometry import Point

from engine.conex.geometry import BOARD_MM, posed_card
from render.common import draw_text, min_font_px, new_canvas, note_paste, theme_of, wrap_text
from render.conex_scene import GHOST_OUTLINES, draw_scene
from render.conex_view import View, ghost_pose, table_cards, window_view

WIDTH = 800
PAD, GAP = 16, 14
COLS = 2
FS = min_font_px(WIDTH)
TILE_W = (WIDTH - 2 * PAD - (COLS - 1) * GAP) // COLS
PLOT_H = round(TILE_W * 0.78)
CAPTION_H = round(FS * 1.35 * 2 + 10)
TILE_H = CAPTION_H + PLOT_H
MIN_WINDOW_MM = 170.0


def _place(hint: Any) -> Any:
    return getattr(hint, "place", hint)


def hint_target(game: Any, place: Any) -> str:
    """What the hint's corner lands on, as players type it: ``"#17"`` (the topmost table card under the corner's
    centroid) or ``"board"``. Raises ``ValueError`` for a ghost naming a card or corner that does not exist."""
    ghost_pose(game, place)
    p = Point(float(place.x) * 10.0, float(place.y) * 10.0)
    for tc in reversed(table_cards(game)):
        if tc.rect.contains(p):
            return f"#{tc.card.id}"
    h = BOARD_MM / 2
    return "board" if abs(p.x) <= h and abs(p.y) <= h else "the table"


def default_label(game: Any, hint: Any) -> str:
    """``"#13 corner 2 → #42 · +5"`` (card, corner, target, points when the hint carries them)."""
    place = _place(hint)
    text = f"#{place.card} corner {place.corner} → {hint_target(game, place)}"
    points = getattr(hint, "points", None)
    return text + (f" · +{points}" if points is not None else "")


def tile_view(game: Any, place: Any) -> View:
    """The window of one hint tile: the ghost card plus 2 cm around it (at least 17 cm wide), centred between
    the ghost's centre and its placed corner, so the target shows too."""
    card, (cx, cy, rot) = ghost_pose(game, place)
    x0, y0, x1, y1 = posed_card(card, cx, cy, rot).rect.bounds
    aspect = TILE_W / PLOT_H
    w = max(x1 - x0 + 40.0, (y1 - y0 + 40.0) * aspect, MIN_WINDOW_MM)
    h = w / aspect
    px, py = float(place.x) * 10.0, float(place.y) * 10.0
    mx, my = (cx + px) / 2, (cy + py) / 2
    return window_view(mx - w / 2, my - h / 2, w, h, TILE_W)


def hint_plot(game: Any, place: Any | None, view: View, theme: str = "dark") -> Image.Image:
    """One tile's picture: the table in ``view`` with the single ghost ``place`` (``None``: no ghost)."""
    th = theme_of(theme)
    plot = Image.new("RGB", (view.width, view.height), th.bg)
    draw_scene(plot, view, game, th, fs=FS, ghosts=[place] if place is not None else [], badges=False)
    return plot


@dataclass(frozen=True)
class HintTile:
    """Where hint ``number`` (1-based) is in a :func:`render_hints` image: the tile's box and its plot's box
    ``(x0, y0, x1, y1)`` px, and the plot's :class:`View`."""

    number: int
    box: tuple[int, int, int, int]
    plot_box: tuple[int, int, int, int]
    view: View


def hint_tiles(game: Any, hints: Sequence[Any]) -> list[HintTile]:
    """The tiles of :func:`render_hints` for ``hints``, in order."""
    out = []
    for i, hint in enumerate(hints):
        r, c = divmod(i, COLS)
        x, y = PAD + c * (TILE_W + GAP), PAD + r * (TILE_H + GAP)
        view = tile_view(game, _place(hint))
        out.append(
            HintTile(
                i + 1, (x, y, x + TILE_W, y + TILE_H), (x, y + CAPTION_H, x + TILE_W, y + CAPTION_H + view.height), view
            )
        )
    return out


def render_hints(
    game: Any,
    hints: Sequence[Any],
    *,
    labels: Sequence[str] | None = None,
    theme: str = "dark",
) -> Image.Image:
    """The hint previews: one tile per hint (``Place`` actions, or objects with ``.place`` and ``.points`` such as
    the bot's hints), two per row, each showing only its own ghost at its pose, captioned with its number
    (1-based, as on the hint buttons) and ``labels[i]`` (default :func:`default_label`: card, corner, target,
    points). 800 px wide; an empty ``hints`` gives a small "no hints" banner.

    Raises ``ValueError`` for an unknown theme, ``labels`` of another length than ``hints``, or a hint naming a
    card or corner that does not exist.
    """
    th = theme_of(theme)
    if labels is not None and len(labels) != len(hints):
        raise ValueError(f"{len(labels)} labels for {len(hints)} hints")
    tiles = hint_tiles(game, hints)
    rows = max(1, math.ceil(len(hints) / COLS))
    height = PAD * 2 + rows * TILE_H + (rows - 1) * GAP if hints else PAD * 2 + round(FS * 1.5)
    img, draw = new_canvas(WIDTH, height, th)
    if not hints:
        draw_text(draw, (PAD, PAD), "No legal placement to suggest.", size=FS, fill=th.text)
        return img
    for tile, hint in zip(tiles, hints, strict=True):
        colour = GHOST_OUTLINES[(tile.number - 1) % len(GHOST_OUTLINES)]
        x0, y0, x1, y1 = tile.box
        draw.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=th.panel)
        plot = hint_plot(game, _place(hint), tile.view, theme)
        img.paste(plot, tile.plot_box[:2])
        note_paste(plot, img, tile.plot_box[:2])
        draw.rectangle(tile.plot_box, outline=colour, width=3)
        r = FS * 0.85
        bx, by = x0 + 8 + r, y0 + 6 + r
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill="#FFFFFF", outline=colour, width=4)
        draw_text(draw, (bx, by), str(tile.number), size=FS + 2, fill="#000000", bold=True, anchor="mm")
        text = labels[tile.number - 1] if labels is not None else default_label(game, hint)
        lines = wrap_text(text, TILE_W - 2 * r - 26, FS, bold=True, max_lines=2)
        for k, ln in enumerate(lines):
            draw_text(draw, (bx + r + 10, y0 + 6 + k * FS * 1.3), ln, size=FS, fill=th.text, bold=True)
    return img


def hints_text(game: Any, hints: Sequence[Any], *, labels: Sequence[str] | None = None) -> str:
    """Text twin of :func:`render_hints`: ``"1. #13 corner 2 → #42 · +5 — at (3.5, -10.0) cm r90"`` per hint."""
    if not hints:
        return "No legal placement to suggest."
    lines = []
    for i, hint in enumerate(hints):
        place = _place(hint)
        text = labels[i] if labels is not None else default_label(game, hint)
        rot = f" r{place.rotation:.0f}" if place.rotation is not None else ""
        lines.append(f"{i + 1}. {text} — at ({place.x:.1f}, {place.y:.1f}) cm{rot}")
    return "\n".join(lines)


__all__ = [
    "HintTile",
    "default_label",
    "hint_plot",
    "hint_target",
    "hint_tiles",
    "hints_text",
    "render_hints",
    "tile_view",
]
