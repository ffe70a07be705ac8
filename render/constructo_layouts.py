"""The sheet of every Constructo layout (``/constructo layouts``): each layout's 9 tiles, numbered, with its name, in
rows on one 800 px wide RGB image, and its text twin. Split from :mod:`render.constructo` by job; same drawing
conventions (docs/rules/constructo.md C3, C4)."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.common import draw_fit, draw_text, new_canvas, theme_of, wrap_text
from render.constructo import FS, LINE, MARGIN, SYMBOL_TAGS, WIDTH
from render.constructo_draw import draw_board
from render.constructo_words import EN
from render.hexgrid import unit_extent
from render.palette import Palette
from render.words import Words, resolve


class _EmptyRound:
    """A chip-free stand-in for drawing a bare layout (only what :func:`draw_board` reads)."""

    def __init__(self, layout: Any) -> None:
        self.layout = layout
        self.last_move = None

    def tower_owner(self, n: int) -> None:
        return None

    def tile(self, n: int) -> tuple[()]:
        return ()


def _sheet_layouts() -> list[tuple[str, Any, bool]]:
    from engine.constructo import EXPERIMENTAL, LAYOUTS, RECOMMENDED

    out = [(name, LAYOUTS[name], True) for name in RECOMMENDED]
    out += [(name, LAYOUTS[name], False) for name in EXPERIMENTAL if name not in RECOMMENDED]
    out += [(name, lay, False) for name, lay in LAYOUTS.items() if name not in RECOMMENDED and name not in EXPERIMENTAL]
    return out


def _sheet_rows(items: list[tuple[str, Any, bool]]) -> list[list[tuple[str, Any, bool]]]:
    """Two layouts per row, except wide ones (aspect > 2.5) which get a full row; order is kept."""
    rows: list[list[tuple[str, Any, bool]]] = []
    pending: list[tuple[str, Any, bool]] = []
    for item in items:
        w, h = unit_extent(item[1].cells)
        if w / h > 2.5:
            if pending:
                rows.append(pending)
                pending = []
            rows.append([item])
        else:
            pending.append(item)
            if len(pending) == 2:
                rows.append(pending)
                pending = []
    if pending:
        rows.append(pending)
    return rows


def _row_geometry(row: list[tuple[str, Any, bool]]) -> tuple[float, float]:
    """(cell width, row height) px of a sheet row: a lone layout spans the width; tiles up to radius 60 px."""
    cell_w = (WIDTH - 2 * MARGIN) / len(row)
    h = 0.0
    for _, layout, _ in row:
        uw, uh = unit_extent(layout.cells)
        radius = min(60.0, (cell_w - 28) / uw, 300.0 / uh)
        h = max(h, uh * radius + 2 * LINE + 34)
    return cell_w, h


def render_layouts_sheet(
    *, theme: str = "dark", palette: Palette | None = None, words: Words | None = None
) -> Image.Image:
    """All named layouts (recommended first, then experimental) with their names and tile numbers 1–9.

    An 800 px wide RGB image, two layouts per row (a very wide layout takes a whole row); ``words``: the reader's
    language (``None`` = English; layout names are names, the same in every language).
    Raises ``ValueError`` for an unknown ``theme``.
    """
    th = theme_of(theme, palette)
    w = resolve(words, EN)
    rows = _sheet_rows(_sheet_layouts())
    title = wrap_text(w("ly.title"), WIDTH - 2 * MARGIN, FS + 6, True, max_lines=2)
    top = 16 + len(title) * (FS + 6) * 1.32 + 8
    height = int(top + sum(_row_geometry(r)[1] for r in rows) + MARGIN)
    img, draw = new_canvas(WIDTH, height, th)
    y = 16.0
    for ln in title:
        draw_text(draw, (MARGIN, y), ln, size=FS + 6, fill=th.text, bold=True)
        y += (FS + 6) * 1.32
    tags = SYMBOL_TAGS
    y0 = top
    for row in rows:
        cell_w, h = _row_geometry(row)
        for c, (name, layout, recommended) in enumerate(row):
            x0 = MARGIN + c * cell_w
            draw.rounded_rectangle((x0 + 4, y0 + 4, x0 + cell_w - 4, y0 + h - 4), radius=14, fill=th.panel)
            draw_text(draw, (x0 + 16, y0 + 10 + LINE / 2), name, size=FS + 3, fill=th.text, bold=True, anchor="lm")
            group = "★ " + w("ly.recommended") if recommended else w("ly.experimental")
            draw_fit(
                draw,
                (x0 + 16, y0 + 10 + LINE * 1.5),
                group,
                max_w=cell_w - 40,
                size=FS,
                minimum=FS,
                fill=th.highlight if recommended else th.muted,
                anchor="lm",
            )
            draw_board(
                draw,
                _EmptyRound(layout),
                (x0 + 14, y0 + 2 * LINE + 16, x0 + cell_w - 14, y0 + h - 12),
                th,
                tags,
                max_radius=60.0,
                highlight_last=False,
                numbers_centred=True,
                fs=FS,
            )
        y0 += h
    return img


def layouts_text(*, words: Words | None = None) -> str:
    """Text twin of :func:`render_layouts_sheet`: one line per layout, name, group and cells by tile number, in
    ``words``' language (``None`` = English)."""
    w = resolve(words, EN)
    lines = [w("ly.t_head")]
    for name, layout, recommended in _sheet_layouts():
        group = w("ly.recommended") if recommended else w("ly.experimental")
        lines.append(w("ly.t_line", name=name, group=group, cells=layout.coords_text()))
    return "\n".join(lines)
