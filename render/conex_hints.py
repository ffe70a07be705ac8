"""CONEX hint previews: one small zoomed tile per hint, in a grid (:func:`render_hints`), and the text twin.

Each tile shows the table around one suggested placement with only that placement's ghost on it (in the card's
real colours, hatched, with its hand letter and number), under a caption with the hint's number (the number on
its button), the card and its target, so no two hints can be confused. The sheet fits one phone screen: one
tile alone, two per row up to four hints, three per row beyond (nine hints: 3 x 3, about 1:1.1).
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
from render.conex_ghosts import GHOST_OUTLINES
from render.conex_scene import draw_scene
from render.conex_view import View, ghost_pose, table_cards, window_view
from render.conex_words import EN
from render.palette import Palette, contrast_ratio
from render.words import Words, resolve

WIDTH = 800
PAD, GAP = 16, 14
FS = min_font_px(WIDTH)
CAPTION_LINES = 2
CAPTION_H = round(FS * 1.3 * CAPTION_LINES + 12)
MIN_WINDOW_MM = 170.0
PLOT_ASPECT = 0.78
"""A tile's plot height / width."""


def columns(n: int) -> int:
    """Tiles per row for ``n`` hints: 1 alone, 2 up to four, 3 beyond (the sheet stays within ~1:1.4)."""
    return 1 if n <= 1 else 2 if n <= 4 else 3


def tile_size(n: int) -> tuple[int, int, int]:
    """``(tile width, plot height, tile height)`` px of a sheet of ``n`` hints: two tiles side by side are taller
    and three a row a little taller than :data:`PLOT_ASPECT`, so any sheet of 1-9 hints is between 1.35:1 and
    1:1.8 (one phone screen)."""
    cols = columns(n)
    tile_w = (WIDTH - 2 * PAD - (cols - 1) * GAP) // cols
    aspect = 1.3 if n == 2 else PLOT_ASPECT if cols < 3 else 0.9
    plot_h = round(tile_w * aspect)
    return tile_w, plot_h, CAPTION_H + plot_h


def caption_width(n: int) -> float:
    """Px a caption line of a sheet of ``n`` hints may take (the tile less the number badge and margins); a caption
    longer than :data:`CAPTION_LINES` such lines is cut with an ellipsis, so labels put the points first."""
    return tile_size(n)[0] - 2 * FS * 0.85 - 20


# kept for callers that read the two-per-row geometry
COLS = 2
TILE_W, PLOT_H, TILE_H = tile_size(2)


BADGE_LIGHT, BADGE_DARK = "#FFFFFF", "#1E1F22"


def badge_colours(panel: str) -> tuple[str, str]:
    """``(fill, number colour)`` of a hint's number badge on a tile of colour ``panel``: the one of white and
    near-black that stands out more from the panel (WCAG contrast, :func:`render.palette.contrast_ratio`), the
    number in the other, so the badge shows in both themes (a white badge vanished on the light theme's white
    tiles)."""
    if contrast_ratio(BADGE_LIGHT, panel) >= contrast_ratio(BADGE_DARK, panel):
        return BADGE_LIGHT, BADGE_DARK
    return BADGE_DARK, BADGE_LIGHT


def _place(hint: Any) -> Any:
    return getattr(hint, "place", hint)


def hint_target(game: Any, place: Any) -> str:
    """What the hint's corner lands on, as players type it (a command value, the same in every language):
    ``"#17"`` (the topmost table card under the corner's centroid), ``"board"`` or ``"the table"``. Raises
    ``ValueError`` for a ghost naming a card or corner that does not exist."""
    ghost_pose(game, place)
    p = Point(float(place.x) * 10.0, float(place.y) * 10.0)
    for tc in reversed(table_cards(game)):
        if tc.rect.contains(p):
            return f"#{tc.card.id}"
    h = BOARD_MM / 2
    return "board" if abs(p.x) <= h and abs(p.y) <= h else "the table"


def default_label(game: Any, hint: Any, words: Words | None = None) -> str:
    """``"+5: #13 corner 2 → #42"`` (points first when the hint carries them, so a narrow caption never cuts
    them; card, corner, target)."""
    w = resolve(words, EN)
    place = _place(hint)
    target = hint_target(game, place)
    if target == "board":
        target = w("cn.hint_board")
    text = w("cn.hint_label", card=place.card, corner=place.corner, target=target)
    points = getattr(hint, "points", None)
    return w("cn.hint_points", label=text, points=points) if points is not None else text


def tile_view(game: Any, place: Any, n: int = 2) -> View:
    """The window of one hint tile of a sheet of ``n`` hints: the ghost card plus 2 cm around it (at least 17 cm
    wide), centred between the ghost's centre and its placed corner, so the target shows too."""
    tile_w, plot_h, _ = tile_size(n)
    card, (cx, cy, rot) = ghost_pose(game, place)
    x0, y0, x1, y1 = posed_card(card, cx, cy, rot).rect.bounds
    aspect = tile_w / plot_h
    w = max(x1 - x0 + 40.0, (y1 - y0 + 40.0) * aspect, MIN_WINDOW_MM)
    h = w / aspect
    px, py = float(place.x) * 10.0, float(place.y) * 10.0
    mx, my = (cx + px) / 2, (cy + py) / 2
    return window_view(mx - w / 2, my - h / 2, w, h, tile_w)


def hint_plot(
    game: Any,
    place: Any | None,
    view: View,
    theme: str = "dark",
    *,
    palette: Palette | None = None,
    mark: str = "",
    words: Words | None = None,
) -> Image.Image:
    """One tile's picture: the table in ``view`` with the single ghost ``place`` (``None``: no ghost), ``mark``
    (its hand letter) written on the ghost."""
    th = theme_of(theme, palette)
    plot = Image.new("RGB", (view.width, view.height), th.bg)
    draw_scene(
        plot,
        view,
        game,
        th,
        fs=FS,
        ghosts=[place] if place is not None else [],
        badges=False,
        words=words,
        ghost_marks=[mark],
    )
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
    """The tiles of :func:`render_hints` for ``hints``, in order (:func:`columns` per row)."""
    out = []
    n = len(hints)
    cols = columns(n)
    tile_w, _, tile_h = tile_size(n)
    for i, hint in enumerate(hints):
        r, c = divmod(i, cols)
        x, y = PAD + c * (tile_w + GAP), PAD + r * (tile_h + GAP)
        view = tile_view(game, _place(hint), n)
        out.append(
            HintTile(
                i + 1, (x, y, x + tile_w, y + tile_h), (x, y + CAPTION_H, x + tile_w, y + CAPTION_H + view.height), view
            )
        )
    return out


def render_hints(
    game: Any,
    hints: Sequence[Any],
    *,
    labels: Sequence[str] | None = None,
    marks: Sequence[str] | None = None,
    theme: str = "dark",
    palette: Palette | None = None,
    words: Words | None = None,
) -> Image.Image:
    """The hint previews: one tile per hint (``Place`` actions, or objects with ``.place`` and ``.points`` such as
    the bot's hints), each showing only its own ghost at its pose (real colours, hatched, ``marks[i]`` — the hand
    letter — written on it), captioned with its number (1-based, as on the hint buttons) and ``labels[i]``
    (default :func:`default_label`: card, corner, target, points). 800 px wide, :func:`columns` tiles per row
    (nine hints: 3 x 3, 800 x ~870 px); an empty ``hints`` gives a small "no hints" banner. ``words``: the
    viewer's language (``None`` = English); ``palette`` the viewer's :class:`render.palette.Palette`.

    Raises ``ValueError`` for an unknown theme, ``labels`` or ``marks`` of another length than ``hints``, or a
    hint naming a card or corner that does not exist.
    """
    th = theme_of(theme, palette)
    w = resolve(words, EN)
    if labels is not None and len(labels) != len(hints):
        raise ValueError(f"{len(labels)} labels for {len(hints)} hints")
    if marks is not None and len(marks) != len(hints):
        raise ValueError(f"{len(marks)} marks for {len(hints)} hints")
    tiles = hint_tiles(game, hints)
    cols = columns(len(hints))
    _, _, tile_h = tile_size(len(hints))
    rows = max(1, math.ceil(len(hints) / cols))
    height = PAD * 2 + rows * tile_h + (rows - 1) * GAP if hints else PAD * 2 + round(FS * 1.5)
    img, draw = new_canvas(WIDTH, height, th)
    if not hints:
        draw_text(draw, (PAD, PAD), w("cn.no_hints"), size=FS, fill=th.text)
        return img
    for tile, hint in zip(tiles, hints, strict=True):
        colour = GHOST_OUTLINES[(tile.number - 1) % len(GHOST_OUTLINES)]
        x0, y0, x1, y1 = tile.box
        draw.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=th.panel)
        mark = marks[tile.number - 1] if marks is not None else ""
        plot = hint_plot(game, _place(hint), tile.view, theme, palette=palette, mark=mark, words=w)
        img.paste(plot, tile.plot_box[:2])
        note_paste(plot, img, tile.plot_box[:2])
        draw.rectangle(tile.plot_box, outline=colour, width=3)
        r = FS * 0.85
        bx, by = x0 + 6 + r, y0 + 6 + r
        fill, ink = badge_colours(th.panel)
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=fill, outline=colour, width=4)
        draw_text(draw, (bx, by), str(tile.number), size=FS + 2, fill=ink, bold=True, anchor="mm")
        text = labels[tile.number - 1] if labels is not None else default_label(game, hint, w)
        lines = wrap_text(text, caption_width(len(hints)), FS, bold=True, max_lines=CAPTION_LINES)
        for k, ln in enumerate(lines):
            draw_text(draw, (bx + r + 8, y0 + 6 + k * FS * 1.3), ln, size=FS, fill=th.text, bold=True)
    return img


def hints_text(
    game: Any, hints: Sequence[Any], *, labels: Sequence[str] | None = None, words: Words | None = None
) -> str:
    """Text twin of :func:`render_hints`: ``"1. #13 corner 2 → #42 · +5 — corner at (3.5, -10.0) cm r90"`` per
    hint (the corner's position, as ``/conex place x: y:`` takes it)."""
    w = resolve(words, EN)
    if not hints:
        return w("cn.no_hints")
    lines = []
    for i, hint in enumerate(hints):
        place = _place(hint)
        text = labels[i] if labels is not None else default_label(game, hint, w)
        rot = f" r{place.rotation:.0f}" if place.rotation is not None else ""
        lines.append(w("cn.hint_text", n=i + 1, label=text, x=f"{place.x:.1f}", y=f"{place.y:.1f}", rot=rot))
    return "\n".join(lines)


__all__ = [
    "HintTile",
    "badge_colours",
    "caption_width",
    "columns",
    "default_label",
    "hint_plot",
    "hint_target",
    "hint_tiles",
    "hints_text",
    "render_hints",
    "tile_view",
]
