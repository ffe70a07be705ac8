"""Constructo drawing primitives: chips side-on, stacks, tiles and a whole layout (rules C3, C4, K4, S1).

Used by :mod:`render.constructo` (board, layouts sheet) and :mod:`render.results` (player swatches).
Conventions: seat 0 chips are solid, seat 1 chips striped, in the palette's seat colours (``Theme.seats``; never
colour alone; colours belong to the seat, so a player keeps them in both rounds, C1); a large chip is a ring (a bar
with a hole) and a small it swallowed sits in that hole.

Geometry (pointy-top hexagon of circumradius R, centre (cx, cy), y down): the tile number sits at
``cy - 0.62 R``, a tower badge beside it (on the side away from the move arrow); the stack stands about
``0.56 R`` below the centre (:func:`stack_bottom`: its bottom chip's corners 4 px inside the drawn tile's slanted
edges) and grows upwards. :func:`tile_parts` computes these boxes; drawing and tests share it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from render.common import Theme, arrow, draw_text, hatch, text_width
from render.hexgrid import HexFit, fit
from render.palette import STANDARD

MAX_RADIUS = 120.0

PLAYER_FILL: tuple[str, str] = STANDARD.seats["dark"]
"""The seats' fills of the standard palette on the dark theme (drawing reads ``Theme.seats``: the palette chosen)."""
PLAYER_STRIPE = STANDARD.stripes["dark"]
CHIP_EDGE = "#111111"
PLAYER_PATTERN: tuple[str, str] = ("solid", "striped")

# Bar width per chip size, as a fraction of the hexagon radius (index = Size value 1..3).
BAR_W = {1: 0.56, 2: 0.92, 3: 1.30}
SIZE_LETTER = {1: "S", 2: "M", 3: "L"}
SIZE_WORD = {1: "small", 2: "medium", 3: "large"}
STACK_BOTTOM = 0.58  # the stack stands at most this many R below the centre
CHIP_MARGIN = 4.0  # px between the bottom chip's lower corners and the drawn tile's edges
NUMBER_Y = -0.62  # the tile number's centre, in R from the centre
BADGE_GAP = 0.4  # at least this many fs px between a tile number's ink and its tower badge

Box = tuple[float, float, float, float]


def size_value(size: Any) -> int:
    """A chip size (``Size`` IntEnum or int) as 1 small, 2 medium, 3 large."""
    return int(size)


def has_swallowed(stack: Sequence[tuple[int, int]]) -> bool:
    """True when the bottom chip is a small with a large right above it: the large swallowed it (K4).

    Since nothing but a swallowing large may go onto a small (K3, K4), this holds for taller stacks too
    (e.g. small, large, medium), where ``Round.is_swallow`` (exactly two chips) is false.
    """
    return len(stack) >= 2 and int(stack[0][1]) == 1 and int(stack[1][1]) == 3


# ----------------------------------------------------------------------------------------------
# geometry shared by drawing and tests
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChipPart:
    """One drawn chip: owner seat, size (1..3), its bar ``box`` (px), the owner of a small it swallowed (K4) or
    ``None``, and its label (``""`` when none fits at the minimum size)."""

    player: int
    size: int
    box: Box
    swallowed: int | None
    label: str


@dataclass(frozen=True)
class TileParts:
    """Where one tile's things are drawn: the number's centre and size, the tower badge's centre and radius
    (``None`` without a tower) and the chips bottom to top."""

    number_xy: tuple[float, float]
    number_size: int
    badge: tuple[float, float, float] | None
    chips: tuple[ChipPart, ...]


def tile_shrink(radius: float) -> float:
    """How much smaller (px) than its cell a tile is drawn (the gap between tiles)."""
    return max(2.0, radius * 0.04)


def stack_bottom(radius: float, bottom_width: float) -> float:
    """How far (px) below the centre a stack whose bottom chip is ``bottom_width`` px wide stands: at most
    :data:`STACK_BOTTOM` R, and high enough that the chip's lower corners stay :data:`CHIP_MARGIN` px inside the
    drawn tile's slanted lower edges."""
    r = radius - tile_shrink(radius)
    return min(STACK_BOTTOM * radius, r - (bottom_width / 2 + CHIP_MARGIN) / math.sqrt(3))


def bar_height(radius: float, fs: int) -> float:
    """Height (px) of a chip bar: 0.27 R, raised to hold a label of ``fs`` px when three bars still fit."""
    base = radius * 0.27
    tall = fs + 2.0
    return tall if base < tall and 3 * tall + 2 * _gap(radius) <= radius * 0.98 else base


def _gap(radius: float) -> float:
    return max(2.0, radius * 0.025)


def chip_label(size: int, tag: str, width: float, height: float, fs: int) -> str:
    """The label of a chip bar ``width`` x ``height`` px at ``fs`` px: ``"M A"``, ``"MA"`` or ``"M"`` (for a large
    ring holding a swallowed small only its left leg is free: ``width`` is that leg), or ``""`` when not even the
    size letter fits."""
    if height < fs + 1:
        return ""
    for label in (f"{SIZE_LETTER[size]} {tag}", SIZE_LETTER[size] + tag, SIZE_LETTER[size]):
        if text_width(label, fs, True) + 6 <= width:
            return label
    return ""


def _ring_leg(radius: float) -> float:
    return (BAR_W[3] * radius - (BAR_W[1] * radius + 10)) / 2


def tile_parts(
    centre: tuple[float, float],
    radius: float,
    stack: Sequence[tuple[int, int]],
    tags: Sequence[str],
    fs: int,
    tower: bool = False,
    badge_side: int = 1,
    numbers_centred: bool = False,
) -> TileParts:
    """The boxes of one tile's number, badge and chips (see the module docstring); ``stack`` is
    ``(player, size)`` bottom to top; ``badge_side`` +1 puts the badge right of the number, -1 left."""
    cx, cy = centre
    num_size = max(fs, int(radius * (0.55 if numbers_centred else 0.30)))
    ny = cy if numbers_centred else cy + NUMBER_Y * radius
    badge = None
    nx = cx
    if tower:
        br = max(radius * 0.17, fs * 0.66)
        nx = cx - badge_side * radius * 0.15
        bx = cx + badge_side * radius * 0.27
        # keep a clear gap between number and badge, so "5" and a "C" badge never read as "5C"
        short = BADGE_GAP * fs - (abs(bx - nx) - br - text_width("8", num_size, True) / 2)
        if short > 0:
            nx -= badge_side * short / 2
            bx += badge_side * short / 2
        badge = (bx, ny, br)
    bar_h = bar_height(radius, fs)
    items: list[tuple[int, int, int | None]] = []
    seq = [(int(p), size_value(s)) for p, s in stack]
    i = 0
    if has_swallowed(seq):
        items.append((seq[1][0], 3, seq[0][0]))
        i = 2
    items += [(p, s, None) for p, s in seq[i:]]
    bottom = cy + stack_bottom(radius, BAR_W[items[0][1]] * radius if items else 0.0)
    chips = []
    for player, size, swallowed in items:
        w = BAR_W[size] * radius
        box = (cx - w / 2, bottom - bar_h, cx + w / 2, bottom)
        ring_with_small = size == 3 and swallowed is not None
        room = _ring_leg(radius) if ring_with_small else w  # an empty ring's label sits over its hole
        label = chip_label(size, tags[player], room, bar_h, fs)
        if ring_with_small and label not in ("", "L"):
            label = label.replace(" ", "")
        chips.append(ChipPart(player, size, box, swallowed, label))
        bottom -= bar_h + _gap(radius)
    return TileParts((nx, ny), num_size, badge, tuple(chips))


def number_box(parts: TileParts, text: str) -> Box:
    """The ink box (px, approximate) of a tile number drawn at ``parts``."""
    x, y = parts.number_xy
    w = text_width(text, parts.number_size, True)
    h = parts.number_size * 0.75
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def move_arrow(hf: HexFit, src: int, dst: int) -> tuple[tuple[float, float], tuple[float, float], float, float]:
    """The move arrow of ``src-dst`` (adjacent tiles, T1): ``(start, tip, shaft width, head length)`` px. It runs
    from near the source's centre (the source is empty after a move, T1) and stops just past the shared edge,
    so it never covers the destination's stack, number or badge."""
    r = hf.radius
    (ax, ay), (bx, by) = hf.centres[src - 1], hf.centres[dst - 1]
    d = math.dist((ax, ay), (bx, by)) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    mx, my = (ax + bx) / 2, (ay + by) / 2
    start = (ax + ux * r * 0.12, ay + uy * r * 0.12)
    tip = (mx + ux * r * 0.07, my + uy * r * 0.07)
    return start, tip, max(5.0, r * 0.08), max(18.0, r * 0.30)


def badge_side_for(hf: HexFit, src: int, dst: int) -> int:
    """The side (+1 right, -1 left) of the destination's number for its tower badge: away from an arrow that
    arrives from above."""
    (ax, _), (bx, _) = hf.centres[src - 1], hf.centres[dst - 1]
    return -1 if ax > bx + 1e-6 else 1


# ----------------------------------------------------------------------------------------------
# drawing primitives
# ----------------------------------------------------------------------------------------------
def _chip_body(draw: ImageDraw.ImageDraw, box: Box, player: int, th: Theme) -> None:
    draw.rectangle(box, fill=th.seats[player])
    if player == 1:
        hatch(draw, box, th.stripe, spacing=8, width=2)
    draw.rectangle(box, outline=CHIP_EDGE, width=2)


def _chip_label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int) -> None:
    # White text with a black outline reads on both the solid and the striped fill.
    draw_text(
        draw,
        xy,
        text,
        size=size,
        fill="#FFFFFF",
        bold=True,
        anchor="mm",
        stroke="#000000",
        stroke_width=2 if size >= 14 else 1,
    )


def draw_chip_part(
    draw: ImageDraw.ImageDraw, chip: ChipPart, radius: float, th: Theme, fs: int, tile_fill: str | None = None
) -> None:
    """Draw one :class:`ChipPart`: a bar, a ring (arch with a hole down to the tile) for a large, the swallowed
    small in the hole, and the label."""
    x0, y0, x1, y1 = chip.box
    cx = (x0 + x1) / 2
    height = y1 - y0
    _chip_body(draw, chip.box, chip.player, th)
    if chip.size == 3:
        hole_w = BAR_W[1] * radius + 10
        hx0, hx1 = cx - hole_w / 2, cx + hole_w / 2
        band = max(5.0, height * 0.3)
        draw.rectangle((hx0, y0 + band, hx1, y1), fill=tile_fill or th.tile)
        draw.line(
            [
                (x0, y1),
                (x0, y0),
                (x1, y0),
                (x1, y1),
                (hx1, y1),
                (hx1, y0 + band),
                (hx0, y0 + band),
                (hx0, y1),
                (x0, y1),
            ],
            fill=CHIP_EDGE,
            width=2,
            joint="curve",
        )
        if chip.swallowed is not None:
            sw = BAR_W[1] * radius
            sh = min(height * 0.78, height - band - 2)
            _chip_body(draw, (cx - sw / 2, y1 - sh, cx + sw / 2, y1), chip.swallowed, th)
        if chip.label and chip.swallowed is not None:
            leg = _ring_leg(radius)
            _chip_label(draw, (x0 + leg / 2, (y0 + y1) / 2), chip.label, fs)
        elif chip.label:
            _chip_label(draw, (cx, (y0 + y1) / 2), chip.label, fs)
    elif chip.label:
        _chip_label(draw, (cx, (y0 + y1) / 2), chip.label, fs)


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
    fs: int = 25,
) -> None:
    """Draw one chip side-on: a bar of width ``BAR_W[size]*radius`` px standing on ``bottom`` (px), labelled with
    its size letter and the owner's ``tag`` when that fits at ``fs`` px (legend and reserve icons pass ``""``)."""
    w = BAR_W[size] * radius
    room = _ring_leg(radius) if size == 3 and swallowed is not None else w
    label = chip_label(size, tag, room, height, fs) if tag else ""
    chip = ChipPart(player, size, (centre_x - w / 2, bottom - height, centre_x + w / 2, bottom), swallowed, label)
    draw_chip_part(draw, chip, radius, th, fs, tile_fill)


def draw_stack(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    stack: Sequence[tuple[int, int]],
    th: Theme,
    tags: Sequence[str],
    fs: int = 25,
) -> None:
    """Draw a tile's ``stack`` ((player, size) bottom to top) side-on, standing in the hexagon at ``centre``.

    A bottom small under a large (:func:`has_swallowed`, K4) is drawn inside that large's ring.
    """
    for chip in tile_parts(centre, radius, stack, tags, fs).chips:
        draw_chip_part(draw, chip, radius, th, fs)


def draw_player_swatch(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    size: float,
    player: int,
    tag: str,
    fs: int = 0,
    th: Theme | None = None,
) -> None:
    """A player marker: a rounded square ``size`` px wide centred on ``xy`` in the player's colour and pattern
    (``th``'s seats; ``None`` = the standard dark ones), with the tag alone (no size letter, so it never reads as a
    chip) at least ``fs`` px."""
    seats, stripe = (th.seats, th.stripe) if th is not None else (PLAYER_FILL, PLAYER_STRIPE)
    x, y = xy
    box = (x - size / 2, y - size / 2, x + size / 2, y + size / 2)
    draw.rounded_rectangle(box, radius=size * 0.22, fill=seats[player])
    if player == 1:
        inset = size * 0.12
        hatch(draw, (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset), stripe, spacing=8, width=2)
    draw.rounded_rectangle(box, radius=size * 0.22, outline="#FFFFFF", width=2)
    draw_text(
        draw,
        (x, y),
        tag,
        size=max(fs, int(size * 0.62)),
        fill="#FFFFFF",
        bold=True,
        anchor="mm",
        stroke="#000000",
        stroke_width=2,
    )


def _tower_badge(
    draw: ImageDraw.ImageDraw, badge: tuple[float, float, float], owner: int, tag: str, th: Theme, fs: int
) -> None:
    x, y, r = badge
    draw.ellipse((x - r, y - r, x + r, y + r), fill=th.seats[owner], outline=th.text, width=3)
    if owner == 1:
        # a striped ring inside the badge keeps the pattern cue
        draw.arc((x - r + 4, y - r + 4, x + r - 4, y + r - 4), 0, 360, fill=th.stripe, width=3)
    draw_text(
        draw,
        (x, y),
        tag,
        size=max(fs, int(r * 1.1)),
        fill="#FFFFFF",
        bold=True,
        anchor="mm",
        stroke="#000000",
        stroke_width=2,
    )


def _tile_highlight(draw: ImageDraw.ImageDraw, corners: list[tuple[float, float]], colour: str, width: int) -> None:
    draw.line([*corners, corners[0], corners[1]], fill=colour, width=width, joint="curve")


def board_parts(
    rnd: Any, hf: HexFit, tags: Sequence[str], fs: int, highlight_last: bool = True, numbers_centred: bool = False
) -> list[TileParts]:
    """:class:`TileParts` of tiles 1..9 of ``rnd`` in the fit ``hf`` (index n-1 = tile n)."""
    last = rnd.last_move if highlight_last else None
    side_of: dict[int, int] = {}
    if last is not None and not last.is_place:
        side_of[last.dst] = badge_side_for(hf, last.src, last.dst)
    out = []
    for n in range(1, 10):
        stack = [(int(p), size_value(s)) for p, s in rnd.tile(n)]
        out.append(
            tile_parts(
                hf.centres[n - 1],
                hf.radius,
                stack,
                tags,
                fs,
                rnd.tower_owner(n) is not None,
                side_of.get(n, 1),
                numbers_centred,
            )
        )
    return out


def draw_board(
    draw: ImageDraw.ImageDraw,
    rnd: Any,
    box: tuple[float, float, float, float],
    th: Theme,
    tags: Sequence[str],
    max_radius: float = MAX_RADIUS,
    highlight_last: bool = True,
    numbers_centred: bool = False,
    fs: int = 25,
    cells: Sequence[tuple[int, int]] | None = None,
) -> HexFit:
    """Draw a round's 9 tiles, stacks, towers and last action into ``box`` (x0, y0, x1, y1 px); labels at least
    ``fs`` px; ``cells`` (tile order) = where to draw the tiles when not the layout's own cells (a redrawing with
    the same neighbours). Returns the fit used."""
    hf = fit(cells if cells is not None else rnd.layout.cells, box, max_radius)
    radius = hf.radius
    last = rnd.last_move if highlight_last else None
    lit: set[int] = set()
    if last is not None:
        lit = {last.tile} if last.is_place else {last.src, last.dst}
    parts = board_parts(rnd, hf, tags, fs, highlight_last, numbers_centred)
    for n in range(1, 10):
        corners = hf.corners(n, shrink=tile_shrink(radius))
        owner = rnd.tower_owner(n)
        edge = th.seats[owner] if owner is not None else th.tile_edge
        draw.polygon(corners, fill=th.tile, outline=edge, width=max(3, int(radius * 0.06)) if owner is not None else 3)
        tp = parts[n - 1]
        for chip in tp.chips:
            draw_chip_part(draw, chip, radius, th, fs)
        draw_text(draw, tp.number_xy, str(n), size=tp.number_size, fill=th.text, bold=True, anchor="mm")
        if tp.badge is not None and owner is not None:
            _tower_badge(draw, tp.badge, owner, tags[owner], th, fs)
    for n in sorted(lit):
        _tile_highlight(draw, hf.corners(n, shrink=-2), th.highlight, max(5, int(radius * 0.07)))
    if last is not None and not last.is_place:
        start, tip, width, head = move_arrow(hf, last.src, last.dst)
        arrow(draw, start, tip, colour=th.highlight, width=round(width), head=head, outline=th.outline)
    return hf
