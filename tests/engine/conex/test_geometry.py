"""Geometry helpers (G1-G4): clockwise rotation with y down, corner-centroid poses, batch = affinity shapes."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from engine.conex import load_deck
from engine.conex.geometry import (
    BOARD_SQUARES,
    centre_for_corner,
    corner_point,
    normalize_angle,
    posed_batch,
    posed_card,
    table_rect,
)

DECK = load_deck()


def test_g1_rotation_is_clockwise_as_drawn() -> None:
    card = DECK[0]
    # at 90 degrees clockwise (y down) the card's top-right corner (30, -45) goes to the bottom right (45, 30)
    rect = posed_card(card, 0.0, 0.0, 90.0).rect
    coords = {(round(x, 6), round(y, 6)) for x, y in rect.exterior.coords}
    assert (45.0, 30.0) in coords and (45.0, -30.0) in coords
    assert rect.bounds == pytest.approx((-45.0, -30.0, 45.0, 30.0))


def test_g2_g3_table_and_board_squares() -> None:
    assert table_rect("medium").bounds == (-500.0, -350.0, 500.0, 350.0)
    assert table_rect("small").bounds == (-350.0, -250.0, 350.0, 250.0)
    assert table_rect("large").bounds == (-700.0, -450.0, 700.0, 450.0)
    assert BOARD_SQUARES["Y"].bounds == (-100.0, -100.0, -40.0, -40.0)
    assert BOARD_SQUARES["R"].bounds == (40.0, -100.0, 100.0, -40.0)
    assert BOARD_SQUARES["T"].bounds == (40.0, 40.0, 100.0, 100.0)
    assert BOARD_SQUARES["P"].bounds == (-100.0, 40.0, -40.0, 100.0)


@pytest.mark.parametrize("rot", [0.0, 33.0, 90.0, 181.5, 300.0])
def test_corner_centroid_lands_where_asked(rot: float) -> None:
    card = DECK[5]
    for corner in card.corners:
        cx, cy = centre_for_corner(corner, 123.0, -45.5, rot)
        posed = posed_card(card, cx, cy, rot)
        tri = posed.corners[corner.index - 1]
        assert (tri.centroid.x, tri.centroid.y) == pytest.approx((123.0, -45.5))
        assert corner_point(corner, cx, cy, rot) == pytest.approx((123.0, -45.5))


def test_posed_batch_matches_affinity_shapes() -> None:
    card = DECK[20]
    corner = card.corners[1]
    xs, ys, rs = np.array([0.0, 55.5, -300.0]), np.array([0.0, 12.0, 99.0]), np.array([0.0, 47.0, 271.0])
    rects, tris, centres = posed_batch(corner, xs, ys, rs)
    for i in range(3):
        posed = posed_card(card, centres[i, 0], centres[i, 1], rs[i])
        assert shapely.equals_exact(posed.rect.normalize(), shapely.polygons(rects[i]).normalize(), tolerance=1e-9)
        assert shapely.equals_exact(posed.corners[1].normalize(), shapely.polygons(tris[i]).normalize(), tolerance=1e-9)


@pytest.mark.parametrize(("raw", "norm"), [(720.0, 0.0), (-90.0, 270.0), (-0.0, 0.0), (359.5, 359.5), (1e-20, 1e-20)])
def test_normalize_angle(raw: float, norm: float) -> None:
    out = normalize_angle(raw)
    assert out == norm and 0.0 <= out < 360.0
    assert str(normalize_angle(-0.0)) == "0.0"
