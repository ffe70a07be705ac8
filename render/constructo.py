"""Constructo images: the board of a match (:func:`render_board`) and the layouts sheet, with text twins.

Drawing conventions (docs/rules/constructo.md):

- Tiles are pointy-top hexagons at their layout cells (C3), numbered 1..9 as printed (C4), auto-fitted.
- Each stack is drawn **side-on**, bottom chip at the bottom: a bar per chip, its width by size
  (large widest, small narrowest). A large is a **ring**: its bar has a hole in the middle; a small
  swallowed by it (K4) is drawn inside that hole.
- Owner is never colour alone: seat 0 chips are solid vermillion, seat 1 chips are sky blue with dark stripes
  (by seat, so a player keeps them in both rounds, C1), and every chip carries its owner's tag when it fits.
- Player tags never look like tile numbers or move notation: initials when distinct letters other than the size
  letters S, M, L (and I, O), else the symbols ● and ▲ (:func:`player_tags`).
- Towers (S1) get a badge with the owner's tag beside the tile number and a thick outline in the owner's colour.
- The last action is highlighted: the placed tile ringed, or an arrow from the source that stops just inside
  the destination, clear of its stack, number and badge.

Phone first: 800 px wide, every label at least :func:`render.text.min_font_px` (25 px: 9 px capitals at 400 px);
the header, legend and player rows take more lines rather than smaller text.
All functions are pure (no I/O but the cached fonts). Images are RGB.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Theme,
    draw_fit,
    draw_text,
    ellipsize,
    min_font_px,
    new_canvas,
    seat_names,
    text_width,
    theme_of,
    wrap_text,
)
from render.constructo_draw import (
    BAR_W,
    CHIP_EDGE,
    MAX_RADIUS,
    PLAYER_FILL,
    PLAYER_PATTERN,
    PLAYER_STRIPE,
    SIZE_LETTER,
    bar_height,
    draw_board,
    draw_chip,
    draw_player_swatch,
    draw_stack,
    has_swallowed,
    size_value,
)
from render.constructo_draw import board_parts as board_parts
from render.constructo_words import EN
from render.hexgrid import Cell, HexFit, fit, legible_cells, unit_extent
from render.palette import Palette
from render.words import Words, resolve

__all__ = [
    "BAR_W",
    "CHIP_EDGE",
    "PLAYER_FILL",
    "PLAYER_PATTERN",
    "PLAYER_STRIPE",
    "board_fit",
    "board_text",
    "display_cells",
    "draw_board",
    "draw_chip",
    "draw_stack",
    "has_swallowed",
    "player_tags",
    "render_board",
    "tower_counts",
]

WIDTH = 800
MARGIN = 16
FS = min_font_px(WIDTH)
LINE = round(FS * 1.32)
FOOTER_ROW_H = round(2 * LINE + 12)
MAX_BOARD_H = 760.0
TALL_BOARD_H = 1000.0  # a layout redrawn to be legible (linea, estrella) may take this much height
# The smallest hexagon radius (px) whose chip bars hold a label at FS px with three chips stacked.
LEGIBLE_RADIUS = next(r / 4 for r in range(160, 1000) if bar_height(r / 4, FS) >= FS + 2)
SYMBOL_TAGS = ("●", "▲")
_NOT_TAGS = set("SMLIO")


# ----------------------------------------------------------------------------------------------
# engine access helpers (duck-typed on the public API of engine.constructo)
# ----------------------------------------------------------------------------------------------


def player_tags(names: Sequence[str]) -> tuple[str, str]:
    """One-character tags for seat 0 and seat 1, never a digit: their initials when both are distinct letters
    and neither is a size letter (S, M, L) or looks like a digit (I, O), else ``"●"`` and ``"▲"``. So a chip
    label (``"MA"`` = A's medium) never reads as move notation (``"M5"`` = a medium on tile 5)."""
    a = (names[0] or "?").strip()[:1].upper()
    b = (names[1] or "?").strip()[:1].upper()
    if a.isalpha() and b.isalpha() and a != b and not {a, b} & _NOT_TAGS:
        return a, b
    return SYMBOL_TAGS


def _shown_round(match: Any) -> Any:
    """The round to draw: the current one, or the last finished one while the next layout is being chosen."""
    rnd = getattr(match, "current_round", None)
    if rnd is None:
        rnd = match.rounds[-1]
    return rnd


def _last_mover(rnd: Any) -> int | None:
    hist = list(rnd.history)
    if not hist:
        return None
    first: int = rnd.first
    return (first + len(hist) - 1) % 2


def tower_counts(rnd: Any) -> tuple[int, int]:
    """Running tower count ``(player 0, player 1)`` of a round (S1, S2), whether or not it is over."""
    counts = [0, 0]
    for n in range(1, 10):
        owner = rnd.tower_owner(n)
        if owner is not None:
            counts[owner] += 1
    return counts[0], counts[1]


def _status_lines(
    match: Any,
    names: Sequence[str],
    tags: Sequence[str],
    fs: int | None = None,
    words: Words | None = None,
    single_round: bool = False,
) -> tuple[str, str]:
    """(title, status) of the board; names shortened to 40% of the width when ``fs`` is given; a ``single_round``
    title names only the layout (a puzzle: no round of a match)."""
    w = resolve(words, EN)

    def nm(p: int) -> str:
        return names[p] if fs is None else ellipsize(names[p], WIDTH * 0.4, fs)

    rnd = _shown_round(match)
    layout_name = rnd.layout.name or w("ko.custom_layout")
    title = (
        w("ko.title_single", layout=layout_name)
        if single_round
        else w("ko.title", round=match.round_no, layout=layout_name)
    )
    phase = match.phase
    if match.is_over:
        if match.resigned is not None:
            won = 1 - match.resigned
            line = w("ko.over_resigned", loser=nm(match.resigned), winner=nm(won), tag=tags[won])
        elif match.winner is None:
            t = match.totals()
            line = w("ko.over_draw", a=t[0], b=t[1])
        else:
            t, won = match.totals(), match.winner
            line = w("ko.over_won", winner=nm(won), tag=tags[won], a=t[won], b=t[1 - won])
    elif phase == "choosing_layout":
        c = match.chooser if match.chooser is not None else match.current_player
        line = w("ko.choosing", name=nm(c), tag=tags[c])
    else:
        p = match.current_player
        line = w("ko.to_move", name=nm(p), tag=tags[p], pattern=w(f"ko.pattern_{p}"))
    last = rnd.last_move
    mover = _last_mover(rnd)
    if last is not None and mover is not None and not match.is_over:
        line += " · " + w("ko.last_move", move=last, tag=tags[mover])
    return title, line


def _player_row(
    draw: ImageDraw.ImageDraw,
    y: float,
    player: int,
    match: Any,
    names: Sequence[str],
    tags: Sequence[str],
    th: Theme,
    w: Words,
    single_round: bool = False,
) -> None:
    """Two lines for one seat: swatch, name and match score (none for a ``single_round``); then the reserve (a chip
    and a count per size) and the running tower count."""
    rnd = _shown_round(match)
    x: float = MARGIN
    mid = y + 6 + LINE / 2
    to_move = not match.is_over and match.current_player == player
    if to_move:
        draw.rounded_rectangle(
            (x - 8, y + 2, WIDTH - MARGIN + 8, y + FOOTER_ROW_H - 2), radius=10, outline=th.highlight, width=3
        )
    draw_player_swatch(draw, (x + FS * 0.8, mid), FS * 1.45, player, tags[player], FS, th)
    totals = match.totals()
    score = "" if single_round else w("ko.match_score", n=totals[player])
    score_w = text_width(score, FS + 1, True)
    draw_text(draw, (WIDTH - MARGIN, mid), score, size=FS + 1, fill=th.text, bold=True, anchor="rm")
    draw_fit(
        draw,
        (x + FS * 2, mid),
        names[player],
        max_w=WIDTH - 2 * MARGIN - FS * 2 - score_w - 16,
        size=FS + 1,
        fill=th.text,
        bold=True,
        anchor="lm",
        minimum=FS,
    )
    mid2 = mid + LINE
    x = MARGIN + FS * 2
    reserve = rnd.reserve(player)
    chip_r = FS * 1.5
    for size in (3, 2, 1):
        left = _reserve_count(reserve, size)
        draw_chip(draw, x + BAR_W[size] * chip_r / 2, mid2 + FS * 0.42, FS * 0.84, chip_r, player, size, th, "")
        x += BAR_W[size] * chip_r + 6
        label = f"{SIZE_LETTER[size]}×{left}"
        draw_text(draw, (x, mid2), label, size=FS, fill=th.text, anchor="lm")
        x += text_width(label, FS) + 18
    towers = tower_counts(rnd)[player]
    draw_text(draw, (WIDTH - MARGIN, mid2), w("ko.towers", n=towers), size=FS, fill=th.text, anchor="rm")


def _reserve_count(reserve: Any, size: int) -> int:
    for k, v in dict(reserve).items():
        if int(k) == size:
            return int(v)
    return 0


def display_cells(cells: Sequence[tuple[int, int]]) -> tuple[tuple[Cell, ...], float]:
    """Where the board draws a layout's tiles and the height cap (px) of its board area: the layout as given when
    its tiles reach :data:`LEGIBLE_RADIUS` at 800 px wide, else turned or folded (a line becomes a snake) with the
    same neighbours (C3), see :func:`render.hexgrid.legible_cells`. The layouts sheet draws the layout as given."""
    return legible_cells(cells, WIDTH - 2 * MARGIN, MAX_BOARD_H, TALL_BOARD_H, LEGIBLE_RADIUS, MAX_RADIUS)


def _board_height(cells: Sequence[tuple[int, int]]) -> float:
    shown, cap = display_cells(cells)
    uw, uh = unit_extent(shown)
    radius = min((WIDTH - 2 * MARGIN) / uw, cap / uh, MAX_RADIUS)
    return uh * radius + 24


def _header(
    match: Any, names: Sequence[str], tags: Sequence[str], words: Words | None = None, single_round: bool = False
) -> list[tuple[str, int, bool]]:
    title, status = _status_lines(match, names, tags, FS, words, single_round)
    out = [(ln, FS + 5, True) for ln in wrap_text(title, WIDTH - 2 * MARGIN, FS + 5, True, max_lines=2)]
    out += [(ln, FS, False) for ln in wrap_text(status, WIDTH - 2 * MARGIN, FS, False, max_lines=3)]
    return out


def _header_h(lines: Sequence[tuple[str, int, bool]]) -> float:
    return 14 + sum(size * 1.32 for _, size, _ in lines) + 6


def _board_box(cells: Sequence[tuple[int, int]], top: float) -> tuple[float, float, float, float]:
    return (MARGIN, top + 12, WIDTH - MARGIN, top + _board_height(cells) - 12)


def board_fit(
    match: Any, *, names: Sequence[str] = ("P1", "P2"), words: Words | None = None, single_round: bool = False
) -> HexFit:
    """Where :func:`render_board` (with the same ``names`` and ``words``) draws the tiles of ``match``'s shown
    round: hexagon radius and the pixel centre of each tile (``centres[n - 1]`` for tile n). For tests and for
    image maps."""
    names = seat_names(names, 2)
    cells = _shown_round(match).layout.cells
    top = _header_h(_header(match, names, player_tags(names), words, single_round))
    return fit(display_cells(cells)[0], _board_box(cells, top), MAX_RADIUS)


def render_board(
    match: Any,
    *,
    names: Sequence[str] = ("P1", "P2"),
    theme: str = "dark",
    words: Words | None = None,
    palette: Palette | None = None,
    single_round: bool = False,
) -> Image.Image:
    """The board of a Constructo match as an 800 px wide RGB image.

    Shows the 9 tiles of the shown round's layout (any layout, auto-fitted) with their numbers (C4), every stack
    side-on (height, each chip's size and owner; a swallowed small inside its ring, K4), tower owners (S1),
    the last action, both reserves, whose turn it is, the running tower count, the round (1/2), the round
    scores and match totals (M1, M2).

    Args:
        match: an ``engine.constructo.Match`` (only its public attributes are read).
        names: display names of seat 0 and seat 1 (colours and patterns belong to the seat, C1).
        theme: ``"dark"`` (default) or ``"light"``.
        palette: the seat colours (:class:`render.palette.Palette`; ``None`` = standard).
        words: the reader's :class:`render.words.Words` (keys of :data:`render.constructo_words.EN`); ``None`` =
            English. A public board takes the server's language.
        single_round: show the shown round alone (a puzzle's position): no "round n of 2", round scores or match
            totals.

    Raises:
        ValueError: unknown ``theme``.
    """
    th = theme_of(theme, palette)
    w = resolve(words, EN)
    names = seat_names(names, 2)
    tags = player_tags(names)
    rnd = _shown_round(match)
    header = _header(match, names, tags, w, single_round)
    top = _header_h(header)
    board_h = _board_height(rnd.layout.cells)
    legend = _legend_lines(tags, w)
    rounds = [] if single_round else wrap_text(_rounds_line(match, tags, w), WIDTH - 2 * MARGIN, FS, max_lines=3)
    legend_h = LINE * (len(legend) + 1) + 10
    rounds_h = LINE * len(rounds) + 8 if rounds else 0
    height = int(top + board_h + legend_h + rounds_h + 2 * FOOTER_ROW_H + MARGIN)
    img, draw = new_canvas(WIDTH, height, th)
    y = 14.0
    for text, size, bold in header:
        draw_text(draw, (MARGIN, y), text, size=size, fill=th.text, bold=bold)
        y += size * 1.32
    draw.rectangle((0, top, WIDTH, top + board_h), fill=th.panel)
    box = _board_box(rnd.layout.cells, top)
    draw_board(draw, rnd, box, th, tags, fs=FS, cells=display_cells(rnd.layout.cells)[0])
    y = top + board_h + 6
    _legend(draw, y, th, legend, w)
    y += legend_h
    for ln in rounds:
        draw_text(draw, (MARGIN, y + LINE / 2), ln, size=FS, fill=th.muted, anchor="lm")
        y += LINE
    y += 8
    for p in (0, 1):
        _player_row(draw, y, p, match, names, tags, th, w, single_round)
        y += FOOTER_ROW_H
    return img


def _legend_lines(tags: Sequence[str], w: Words) -> list[str]:
    key = w("ko.legend", tag=tags[0])
    return wrap_text(key, WIDTH - 2 * MARGIN, FS, max_lines=3)


def _legend(draw: ImageDraw.ImageDraw, y: float, th: Theme, lines: Sequence[str], w: Words) -> None:
    """Line 1: a chip of each size and its name; then the key lines."""
    mid = y + LINE / 2
    x: float = MARGIN
    chip_r = FS * 1.5
    for size in (3, 2, 1):
        draw_chip(
            draw, x + BAR_W[size] * chip_r / 2, mid + FS * 0.42, FS * 0.84, chip_r, 0, size, th, "", tile_fill=th.bg
        )
        x += BAR_W[size] * chip_r + 6
        word = w(f"ko.size_{size}")
        draw_text(draw, (x, mid), word, size=FS, fill=th.muted, anchor="lm")
        x += text_width(word, FS) + 16
    for ln in lines:
        mid += LINE
        draw_text(draw, (MARGIN, mid), ln, size=FS, fill=th.muted, anchor="lm")


def _rounds_line(match: Any, tags: Sequence[str], w: Words) -> str:
    scores = list(match.round_scores())
    parts = []
    over = match.is_over
    for i in range(2):
        started = i < len(scores) and (match.rounds[i].codes or not over)
        if started:
            a, b = scores[i]
            finished = over or match.rounds[i].is_over  # "so far" only while the match runs
            part = w("ko.round", n=i + 1, a=tags[0], x=a, y=b, b=tags[1])
            parts.append(part if finished else f"{part} {w('ko.so_far')}")
        else:  # never reached, or ended before its first move: not a played round
            parts.append(w("ko.round_unplayed", n=i + 1))
    t = match.totals()
    return " · ".join(parts) + " · " + w("ko.match", a=tags[0], x=t[0], y=t[1], b=tags[1])


# ----------------------------------------------------------------------------------------------
# text twin
# ----------------------------------------------------------------------------------------------
def _stack_text(rnd: Any, n: int, tags: Sequence[str], w: Words) -> str:
    stack = [(int(p), size_value(s)) for p, s in rnd.tile(n)]
    if not stack:
        return w("ko.t_empty")
    chips = [f"{SIZE_LETTER[s]}{tags[p]}" for p, s in stack]
    if has_swallowed(stack):
        chips[0] = w("ko.t_swallowed", chip=chips[0])
    owner = rnd.tower_owner(n)
    suffix = " — " + w("ko.t_tower", tag=tags[owner]) if owner is not None else ""
    return " ".join(chips) + suffix


def board_text(match: Any, *, names: Sequence[str] = ("P1", "P2"), words: Words | None = None) -> str:
    """Text twin of :func:`render_board` (alt text / ``board text:True``), well under 2000 characters, in
    ``words``' language (``None`` = English).

    One line per tile ``"5: LA MB — tower B"`` (chips bottom to top as size letter + owner tag), then reserves,
    towers, round and match scores, and whose turn it is.
    """
    w = resolve(words, EN)
    names = seat_names(names, 2)
    tags = player_tags(names)
    rnd = _shown_round(match)
    title, status = _status_lines(match, names, tags, words=w)
    lines = [title, status.replace("▶ ", ""), w("ko.t_players", a=names[0], b=names[1], ta=tags[0], tb=tags[1])]
    lines.append(w("ko.t_tiles", tiles="; ".join(f"{n}: {_stack_text(rnd, n, tags, w)}" for n in range(1, 10))))
    towers = tower_counts(rnd)
    for p in (0, 1):
        res = rnd.reserve(p)
        counts = {k: _reserve_count(res, size) for k, size in (("l", 3), ("m", 2), ("s", 1))}
        lines.append(w("ko.t_reserve", name=names[p], tag=tags[p], towers=towers[p], **counts))
    lines.append(_rounds_line(match, tags, w).replace(" · ", "; "))
    lines.append(w("ko.t_layout", layout=rnd.layout.to_text()))
    return "\n".join(lines)
