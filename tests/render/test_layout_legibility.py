"""Every Constructo layout in engine/data is legible at phone width (400 px): no chip becomes a sliver without its
label, no tile number runs into its tower badge ("5" and badge "C" reading "5C"), and a layout redrawn to get
there (a line folded into a snake, a star turned) keeps exactly its tiles' neighbours (rule C3).

Measured with the label recorder of :mod:`render.text` (font size of each drawn label, scaled to 400 px wide).
"""

from __future__ import annotations

import math
import random

import pytest

from engine.constructo import LAYOUTS, Match, Round
from render.constructo import FS, LEGIBLE_RADIUS, board_fit, display_cells, player_tags, render_board
from render.constructo_draw import board_parts, number_box
from render.hexgrid import adjacency, folds, rotated
from render.text import MIN_CAP_PX_AT_400, cap_px_at_phone, record_labels

NAMES = ("Alice", "Bob")


def busy(layout: str, seed: int) -> Match:
    """A round on ``layout`` played at random to its end: every tile busy, stacks up to three chips."""
    rng = random.Random(seed)
    rnd = Round(layout)
    while not rnd.is_over:
        rnd.play(rng.choice(rnd.legal_moves()))
    return Match(0, [rnd])


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_C3_redrawn_layout_keeps_exactly_the_same_neighbours(name: str) -> None:
    cells = LAYOUTS[name].cells
    shown, _cap = display_cells(cells)
    assert len(set(shown)) == 9
    assert adjacency(shown) == adjacency(cells), f"{name}: the picture would show false neighbours"


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_layout_tiles_are_big_enough_for_labelled_chips_at_400px(name: str) -> None:
    hf = board_fit(Match.new(name), names=NAMES)
    assert hf.radius >= LEGIBLE_RADIUS, f"{name}: hexagons of radius {hf.radius:.1f} px at 800 px wide"


@pytest.mark.parametrize("name", sorted(LAYOUTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_chip_of_a_full_board_carries_a_readable_label_at_400px(name: str, seed: int) -> None:
    m = busy(name, seed)
    with record_labels() as log:
        img = render_board(m, names=NAMES)
    parts = board_parts(m.current_round, board_fit(m, names=NAMES), player_tags(NAMES), FS)
    chips = [c for tp in parts for c in tp.chips]
    assert chips and all(c.label for c in chips), f"{name}: chips without a label: {[c for c in chips if not c.label]}"
    drawn = [lb for lb in log if lb.image is img]
    for c in chips:  # each chip's label was drawn, and at 9 px capitals or more at 400 px
        x0, y0, x1, y1 = c.box
        inside = [
            lb
            for lb in drawn
            if x0 - 2 <= (lb.box[0] + lb.box[2]) / 2 <= x1 + 2 and y0 <= (lb.box[1] + lb.box[3]) / 2 <= y1
        ]
        assert inside, f"{name}: no label drawn on chip {c}"
        assert all(cap_px_at_phone(lb.size, img.width) >= MIN_CAP_PX_AT_400 - 1e-9 for lb in inside)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_S1_tower_badge_stands_clear_of_the_tile_number(name: str) -> None:
    seen = 0
    for seed in range(1, 9):
        m = busy(name, seed)
        for n, tp in enumerate(board_parts(m.current_round, board_fit(m, names=NAMES), player_tags(NAMES), FS), 1):
            if tp.badge is None:
                continue
            seen += 1
            bx, _by, br = tp.badge
            x0, _y0, x1, _y1 = number_box(tp, str(n))
            gap = (bx - br - x1) if bx > x1 else (x0 - bx - br)
            assert gap * 400 / 800 >= 4.5, f"{name} tile {n}: badge {gap:.1f} px from the number at 800 px"
    assert seen, f"{name}: no tower in 8 random rounds"


def test_a_line_folds_into_a_snake_and_a_star_turns_with_the_same_neighbours() -> None:
    line = LAYOUTS["linea"].cells
    assert folds(line) and all(adjacency(f) == adjacency(line) for f in folds(line))
    assert folds(LAYOUTS["rombo"].cells) == []  # not a path: never folded
    for k in range(6):
        assert adjacency(rotated(LAYOUTS["estrella"].cells, k)) == adjacency(LAYOUTS["estrella"].cells)
    for name in ("rombo", "flor", "cinta", "corona"):  # the recommended layouts are drawn as printed
        assert display_cells(LAYOUTS[name].cells)[0] == tuple(LAYOUTS[name].cells)
    shown, _ = display_cells(line)
    assert len({r for _q, r in shown}) == 3 and shown != tuple(line)
    assert math.isclose(display_cells(line)[1], 1000.0)
