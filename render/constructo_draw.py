"""Constructo drawing primitives: chips side-on, stacks, tiles and a whole layout (rules C3, C4, K4, S1).

Used by :mod:`render.constructo` (board, layouts sheet) and :mod:`render.results` (chip swatches).
Conventions: seat 0 chips are solid vermillion, seat 1 chips sky blue with dark stripes (never colour alone);
a large chip is a ring (a bar with a hole) and a small it swallowed sits in that hole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from render.common import OKABE_ITO, Theme, arrow, draw_text, hatch, text_size
from render.hexgrid import fit

MAX_RADIUS = 128.0

PLAYER_FILL: tuple[str, str] = (OKABE_ITO["vermillion"], OKABE_ITO["sky"])
PLAYER_STRIPE = "#08306B"
CHIP_EDGE = "#111111"
PLAYER_PATTERN: tuple[str, str] = ("solid", "striped")

# Bar width per chip size, as a fraction of the hexagon radius (index = Size value 1..3).
BAR_W = {1: 0.56, 2: 0.92, 3: 1.30}
SIZE_LETTER = {1: "S", 2: "M", 3: "L"}
SIZE_WORD = {1: "small", 2: "medium", 3: "large"}


def size_value(size: Any) -> int:
    """A chip size (``Size`` IntEnum or int) as 1 small, 2 medium, 3 large."""
    return int(size)


# ----------------------------------------------------------------------------------------------
# drawing primitives
# ----------------------------------------------------------------------------------------------
def _chip_body(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], player: int, th: Theme) -> None:
    draw.rectangle(box, fill=PLAYER_FILL[player])
    if player == 1:
        hatch(draw, box, PLAYER_STRIPE, spacing=8, width=2)
    draw.rectangle(box, outline=CHIP_EDGE, width=2)


def draw_chip(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    bottom: float,
    height: float,
    radius: float,
    player: int,
    size: int,
    th: Theme,
    tag: str,
    swallowed: int | None = None,
    tile_fill: str | None = None,
) -> None:
    """Draw one chip side-on: a bar of width ``BAR_W[size]*radius`` px standing on ``bottom`` (px).

    ``size`` is 1 (small), 2 (medium) or 3 (large = ring, drawn as one arch: a band across the top and a hole
    down to the tile, one outline, labelled once, ``L`` + tag on its left leg). ``swallowed`` is the owner of a
    small inside the ring (K4), drawn in the hole. The owner's ``tag`` letter is printed when it fits.
    """
    w = BAR_W[size] * radius
    x0, x1 = centre_x - w / 2, centre_x + w / 2
    y0, y1 = bottom - height, bottom
    _chip_body(draw, (x0, y0, x1, y1), player, th)
    fs = int(min(height * 0.82, 26))
    if size == 3:
        # one chip: an arch (a band across the top, a hole down to the tile), drawn with one continuous outline
        hole_w = BAR_W[1] * radius + 10
        hx0, hx1 = centre_x - hole_w / 2, centre_x + hole_w / 2
        band = max(5.0, height * 0.3)
        draw.rectangle((hx0, y0 + band, hx1, y1), fill=tile_fill or th.tile)
        draw.line([(x0, y1), (x0, y0), (x1, y0), (x1, y1), (hx1, y1), (hx1, y0 + band), (hx0, y0 + band),
                   (hx0, y1), (x0, y1)], fill=CHIP_EDGE, width=2, joint="curve")
        if swallowed is not None:
            sw = BAR_W[1] * radius
            sh = min(height * 0.78, height - band - 2)
            sbox = (centre_x - sw / 2, y1 - sh, centre_x + sw / 2, y1)
            _chip_body(draw, sbox, swallowed, th)
            if fs >= 11:
                _chip_label(draw, (centre_x, y1 - sh / 2), "S", swallowed, int(sh * 0.8))
        leg = (w - hole_w) / 2
        if fs >= 11:  # size and owner once, on the left leg ("LA"), or just "L" when that is all that fits
            label = "L" + tag if text_size("L" + tag, fs, True)[0] <= leg - 4 else "L"
            if text_size(label, fs, True)[0] <= leg - 4:
                _chip_label(draw, (x0 + leg / 2, (y0 + y1) / 2), label, player, fs)
    elif fs >= 11:
        label = f"{SIZE_LETTER[size]} {tag}"
        if text_size(label, fs, True)[0] > w - 6:
            label = SIZE_LETTER[size] + tag
        if text_size(label, fs, True)[0] > w - 4:
            label = SIZE_LETTER[size]
        _chip_label(draw, (centre_x, (y0 + y1) / 2), label, player, fs)


def _chip_label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, player: int, size: int) -> None:
    # White text with a black outline reads on both the solid and the striped fill.
    draw_text(draw, xy, text, size=size, fill="#FFFFFF", bold=True, anchor="mm", stroke="#000000",
              stroke_width=2 if size >= 14 else 1)


def has_swallowed(stack: Sequence[tuple[int, int]]) -> bool:
    """True when the bottom chip is a small with a large right above it: the large swallowed it (K4).

    Since nothing but a swallowing large may go onto a small (K3, K4), this holds for taller stacks too
    (e.g. small, large, medium), where ``Round.is_swallow`` (exactly two chips) is false.
    """
    return len(stack) >= 2 and int(stack[0][1]) == 1 and int(stack[1][1]) == 3


def draw_stack(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    stack: Sequence[tuple[int, int]],
    th: Theme,
    tags: Sequence[str],
) -> None:
    """Draw a tile's ``stack`` ((player, size) bottom to top) side-on, centred on the hexagon at ``centre``.

    A bottom small under a large (:func:`has_swallowed`, K4) is drawn inside that large's ring.
    """
    cx, cy = centre
    bar_h = radius * 0.27
    gap = max(2.0, radius * 0.025)
    bottom = cy + radius * 0.58
    items: list[tuple[int, int, int | None]] = []
    i = 0
    seq = list(stack)
    if has_swallowed(seq):
        items.append((seq[1][0], 3, seq[0][0]))
        i = 2
    for p, s in seq[i:]:
        items.append((p, s, None))
    for player, size, swallowed in items:
        draw_chip(draw, cx, bottom, bar_h, radius, player, size, th, tags[player], swallowed=swallowed)
        bottom -= bar_h + gap


def _tile_highlight(draw: ImageDraw.ImageDraw, corners: list[tuple[float, float]], colour: str, width: int) -> None:
    draw.line([*corners, corners[0], corners[1]], fill=colour, width=width, joint="curve")


def draw_player_swatch(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float, player: int, tag: str) -> None:
    """A player marker: a rounded square ``size`` px wide centred on ``xy`` in the player's colour and pattern,
    with the tag letter alone (no size letter, so it never reads as a chip)."""
    x, y = xy
    box = (x - size / 2, y - size / 2, x + size / 2, y + size / 2)
    draw.rounded_rectangle(box, radius=size * 0.22, fill=PLAYER_FILL[player])
    if player == 1:
        inset = size * 0.12
        hatch(draw, (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), PLAYER_STRIPE, spacing=8,
              width=2)
    draw.rounded_rectangle(box, radius=size * 0.22, outline="#FFFFFF", width=2)
    draw_text(draw, (x, y), tag, size=int(size * 0.62), fill="#FFFFFF", bold=True, anchor="mm", stroke="#000000",
              stroke_width=2)


def _tower_badge(draw: ImageDraw.ImageDraw, xy: tuple[float, float], r: float, owner: int, tag: str,
                 th: Theme) -> None:
    x, y = xy
    box = (x - r, y - r, x + r, y + r)
    draw.ellipse(box, fill=PLAYER_FILL[owner], outline=th.text, width=3)
    if owner == 1:
        # a striped ring inside the badge keeps the pattern cue
        draw.arc((x - r + 4, y - r + 4, x + r - 4, y + r - 4), 0, 360, fill=PLAYER_STRIPE, width=3)
    fs = max(12, int(r * 1.15))
    draw_text(draw, (x, y), tag, size=fs, fill="#FFFFFF", bold=True, anchor="mm", stroke="#000000", stroke_width=2)


def draw_board(
    draw: ImageDraw.ImageDraw,
    rnd: Any,
    box: tuple[float, float, float, float],
    th: Theme,
    tags: Sequence[str],
    max_radius: float = MAX_RADIUS,
    highlight_last: bool = True,
    numbers_centred: bool = False,
) -> None:
    """Draw a round's 9 tiles, stacks, towers and last action into ``box`` (x0, y0, x1, y1 px)."""
    layout = rnd.layout
    hf = fit(layout.cells, box, max_radius)
    radius = hf.radius
    last = rnd.last_move if highlight_last else None
    lit: set[int] = set()
    if last is not None:
        lit = {last.tile} if last.is_place else {last.src, last.dst}
    num_size = max(16, int(radius * (0.55 if numbers_centred else 0.30)))
    for n in range(1, 10):
        corners = hf.corners(n, shrink=max(2.0, radius * 0.04))
        owner = rnd.tower_owner(n)
        edge = PLAYER_FILL[owner] if owner is not None else th.tile_edge
        draw.polygon(corners, fill=th.tile, outline=edge, width=max(3, int(radius * 0.06)) if owner is not None else 3)
        cx, cy = hf.centres[n - 1]
        stack = [(int(p), size_value(s)) for p, s in rnd.tile(n)]
        draw_stack(draw, (cx, cy), radius, stack, th, tags)
        ny = cy if numbers_centred else cy - radius * 0.60
        if owner is not None:
            draw_text(draw, (cx - radius * 0.16, ny), str(n), size=num_size, fill=th.text, bold=True, anchor="mm")
            _tower_badge(draw, (cx + radius * 0.26, ny), max(11.0, radius * 0.17), owner, tags[owner], th)
        else:
            draw_text(draw, (cx, ny), str(n), size=num_size, fill=th.text, bold=True, anchor="mm")
    for n in sorted(lit):
        _tile_highlight(draw, hf.corners(n, shrink=-2), th.highlight, max(5, int(radius * 0.07)))
    if last is not None and not last.is_place:
        a = hf.centres[last.src - 1]
        b = hf.centres[last.dst - 1]
        # from just below the source tile number to the destination's centre, kept off the chips' labels
        arrow(draw, (a[0], a[1] - radius * 0.25), (b[0], b[1] - radius * 0.25), colour=th.highlight,
              width=max(5, int(radius * 0.07)), head=max(18.0, radius * 0.28), outline=th.outline)
