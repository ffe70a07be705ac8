"""Constructo board geometry (issue 14): stacks stay inside their hexagon on every layout, the move arrow never
covers the destination's stack, number or tower badge, and colours and patterns belong to the seat in both
rounds (C1). Boxes come from render.constructo_draw.tile_parts, which the drawing itself uses.
"""

from __future__ import annotations

import itertools
import random

import pytest
import shapely
from PIL import Image
from shapely.geometry import Polygon, box

from engine.constructo import LAYOUTS, Match, Round
from render.common import hex_rgb
from render.constructo import FS, PLAYER_FILL, PLAYER_STRIPE, board_fit, render_board
from render.constructo_draw import (
    TileParts,
    badge_side_for,
    board_parts,
    move_arrow,
    number_box,
    tile_parts,
)
from render.hexgrid import HexFit

NAMES = ("Alice", "Bob")
TALLEST = [(0, 1), (1, 3), (0, 2), (1, 1)]  # small, large (swallowing it), medium, small: 3 bars (K5 note)
ADJ = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _hex(hf: HexFit, n: int) -> Polygon:
    return Polygon(hf.corners(n, shrink=max(2.0, hf.radius * 0.04)))


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_tallest_stack_stays_inside_its_hexagon_on_every_layout(name: str) -> None:
    m = Match.new(name)
    hf = board_fit(m, names=NAMES)
    for n in range(1, 10):
        parts = tile_parts(hf.centres[n - 1], hf.radius, TALLEST, ("A", "B"), FS, tower=True)
        assert len(parts.chips) == 3
        tile = _hex(hf, n)
        for chip in parts.chips:
            x0, y0, x1, y1 = chip.box
            assert tile.contains(box(x0 - 1, y0 - 1, x1 + 1, y1 + 1)), (name, n, chip)  # outline included
        top = min(c.box[1] for c in parts.chips)
        assert number_box(parts, str(n))[3] < top, (name, n)  # the number sits above the stack


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_real_full_boards_keep_every_chip_inside_its_hexagon(name: str) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        rnd = Round(name)
        while not rnd.is_over:
            rnd.play(rng.choice(rnd.legal_moves()))
        m = Match(0, [rnd])
        hf = board_fit(m, names=NAMES)
        for n, parts in enumerate(board_parts(rnd, hf, ("A", "B"), FS), start=1):
            for chip in parts.chips:
                assert _hex(hf, n).contains(box(*chip.box)), (name, seed, n)


def _arrow_shape(hf: HexFit, src: int, dst: int) -> shapely.Geometry:
    (ax, ay), (tx, ty), width, head = move_arrow(hf, src, dst)
    d = ((tx - ax) ** 2 + (ty - ay) ** 2) ** 0.5
    ux, uy = (tx - ax) / d, (ty - ay) / d
    base = (tx - head * ux, ty - head * uy)
    left = (base[0] + head * 0.55 * uy, base[1] - head * 0.55 * ux)
    right = (base[0] - head * 0.55 * uy, base[1] + head * 0.55 * ux)
    shaft = shapely.LineString([(ax, ay), base]).buffer((width + 4) / 2)  # with its dark halo
    return shapely.union_all([shaft, Polygon([(tx, ty), left, right]).buffer(2)])


def _dst_things(parts: TileParts, n: int) -> list[shapely.Geometry]:
    out = [box(*c.box) for c in parts.chips] + [box(*number_box(parts, str(n)))]
    if parts.badge is not None:
        bx, by, br = parts.badge
        out.append(shapely.Point(bx, by).buffer(br + 1.5))
    return out


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_move_arrow_never_covers_the_destination_stack_number_or_badge(name: str) -> None:
    lay = LAYOUTS[name]
    m = Match.new(name)
    hf = board_fit(m, names=NAMES)
    cells = list(lay.cells)
    pairs = 0
    for (i, a), (j, b) in itertools.permutations(enumerate(cells), 2):
        if (b[0] - a[0], b[1] - a[1]) not in ADJ:
            continue
        src, dst = i + 1, j + 1
        parts = tile_parts(
            hf.centres[dst - 1], hf.radius, TALLEST, ("A", "B"), FS, tower=True, badge_side=badge_side_for(hf, src, dst)
        )
        arrow = _arrow_shape(hf, src, dst)
        for thing in _dst_things(parts, dst):
            assert not arrow.intersects(thing), (name, src, dst)
        assert _hex(hf, dst).buffer(2).intersects(arrow)  # it does reach into the destination
        pairs += 1
    assert pairs >= 8


def _px(img: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    return img.getpixel((round(x), round(y)))[:3]


def test_colours_and_patterns_belong_to_the_seat_in_both_rounds() -> None:
    # round 1 started by seat 0; round 2 is started by seat 1 (M1): seat 0 stays solid vermillion
    r1 = Round.from_record("rombo: L5 M4")
    m = Match(0, [r1])
    while not m.current_round.is_over:
        m.play(m.current_round.legal_moves()[0])
    m.choose_layout(1, "rombo")
    assert m.round_no == 2 and m.current_player == 1
    m.play("L5")  # seat 1's large
    m.play("M4")  # seat 0's medium
    img = render_board(m, names=NAMES)
    hf = board_fit(m, names=NAMES)
    parts = board_parts(m.current_round, hf, ("A", "B"), FS)
    big = parts[4].chips[0]
    med = parts[3].chips[0]
    assert big.player == 1 and med.player == 0
    _, y0, x1, y1 = big.box
    right_leg = {_px(img, x1 - 4 - k, (y0 + y1) / 2) for k in range(6)}
    assert right_leg <= {hex_rgb(PLAYER_FILL[1]), hex_rgb(PLAYER_STRIPE)} and len(right_leg) == 2  # striped
    _x0, y0, x1, y1 = med.box
    assert _px(img, x1 - 4, (y0 + y1) / 2) == hex_rgb(PLAYER_FILL[0])  # solid
