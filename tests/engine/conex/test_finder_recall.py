"""The finder finds a legal pose whenever one exists (issue 14): the reported case, brute-forced pairs stored as data,
the lattice's promise (1 mm x 5 degrees) and ``best_rotation``'s (every whole degree).

The full measurement (30 positions, recall by table size and target kind) is ``bench/bench_finder_recall.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import shapely

from engine.conex import Action, Draw, Game, Place
from engine.conex.finder_geom import TargetGeom, rasterize
from engine.conex.finder_search import LATTICE_ROT_DEG, lattice_candidates
from engine.conex.geometry import centre_for_corner
from engine.errors import IllegalActionError
from tests.engine.conex.scenes import game

CASES = json.loads((Path(__file__).parent / "data" / "finder_recall_cases.json").read_text())["positions"]


def legal(g: Game, place: Place) -> bool:
    try:
        g.check(place)
    except IllegalActionError:
        return False
    return True


def target_of(g: Game, place: Place) -> object:
    card = g.deck[place.card]
    corner = card.corner(place.corner)
    assert place.rotation is not None
    cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, place.rotation)
    return g.board.check_pose(card, place.corner, cx, cy, place.rotation).target


def issue_case() -> Game:
    """Issue 14's report: card 14 (red +2) laid on the turquoise board square across the board's edge, as the
    finder of the time placed it (``find_placements(0, 14, corner=2, target="board")[0]``), then seat 2 drew."""
    g = game([[14, 20, 4], [30, 29, 3]])
    g.play(Place(0, 14, 2, 8.9, 5.2, 90.0))
    g.play(Draw(1))
    return g


def test_p1_p2_a_pose_crossing_the_target_edge_over_the_board_edge_is_found() -> None:
    """P1/P2: card 14 overhangs the board; a red corner on it whose card leaves it across its edge (off the board)
    is legal. The finder used to keep zero-width slivers of the forbidden area along the target's edges and
    rejected every such pose."""
    g = issue_case()
    manual = Place(0, 4, 1, 10.6, 1.1, 275.0)
    assert g.points_for(manual) == 5  # 3 + 2 on the +2 card (V1, V2)
    found = g.find_placements(0, 4, target=14)
    assert found
    for place in found:
        assert target_of(g, place) == 14
        assert g.points_for(place) == g.deck[4].corner(place.corner).value + 2


def test_p2_place_without_rotation_resolves_a_legal_rotation_there() -> None:
    g = issue_case()
    resolved = g.check(Place(0, 4, 1, 10.6, 1.1, None))
    assert isinstance(resolved, Place) and resolved.rotation is not None
    assert g.points_for(resolved) == 5
    assert (resolved.x, resolved.y) == (10.6, 1.1)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_recall_on_brute_forced_pairs(case: dict[str, Any]) -> None:
    """Every stored pair has a legal pose (the witness, re-checked here); the finder must return one for it, and
    every pose it returns passes the check, lies on that target and replays from its text."""
    g = Game.from_dict(case["state"])
    p = g.current_player
    for pair in case["pairs"]:
        x, y, r = pair["witness"]
        witness = Place(p, pair["card"], pair["corner"], round(x / 10, 1), round(y / 10, 1), r)
        assert legal(g, witness) and target_of(g, witness) == pair["target"]
        found = g.find_placements(p, pair["card"], pair["corner"], pair["target"], limit=1)
        assert found, f"no pose for card {pair['card']} corner {pair['corner']} on {pair['target']}"
        assert legal(g, found[0]) and target_of(g, found[0]) == pair["target"]
        assert Action.parse(str(found[0]), p) == found[0]
    assert sum(pair["missed_before"] for pair in case["pairs"]) >= 10  # the data are the hard cases


@pytest.mark.parametrize("case", CASES[:2], ids=[c["name"] for c in CASES[:2]])
def test_lattice_candidates_keep_every_legal_lattice_pose(case: dict[str, Any]) -> None:
    """The rasters never reject a legal pose: every legal witness on the 1 mm x 5 degree lattice, and legal poses
    around it, are among the lattice candidates of its pair."""
    g = Game.from_dict(case["state"])
    checked = 0
    for pair in case["pairs"]:
        card = g.deck[pair["card"]]
        corner = card.corner(pair["corner"])
        geom = TargetGeom.get(g.board, pair["target"], corner.color)
        x, y, r = lattice_candidates(geom, corner)
        have = set(zip(x.tolist(), y.tolist(), r.tolist(), strict=True))
        wx, wy, wr = pair["witness"]
        for dx in (-1.0, 0.0, 1.0):
            for dy in (-1.0, 0.0, 1.0):
                pose = (wx + dx, wy + dy, wr)
                place = Place(g.current_player, card.id, corner.index, pose[0] / 10, pose[1] / 10, wr)
                if legal(g, place) and target_of(g, place) == pair["target"]:
                    assert wr % LATTICE_ROT_DEG == 0
                    assert pose in have
                    checked += 1
    assert checked > 50


def test_best_rotation_finds_a_whole_degree_rotation_whenever_one_is_legal() -> None:
    """``place`` without a rotation: at points where only a narrow range of rotations is legal, the engine's
    choice is legal exactly when some whole degree is (every whole degree judged by the real check)."""
    case = CASES[0]
    g = Game.from_dict(case["state"])
    p = g.current_player
    some_legal = 0
    for pair in case["pairs"][:12]:
        x, y, _ = pair["witness"]
        ok = [rot for rot in range(360) if legal(g, Place(p, pair["card"], pair["corner"], x / 10, y / 10, float(rot)))]
        loose = Place(p, pair["card"], pair["corner"], x / 10, y / 10, None)
        if ok:
            resolved = g.check(loose)
            assert isinstance(resolved, Place) and resolved.rotation in ok
            some_legal += 1
        else:  # pragma: no cover - each witness point has at least its own rotation
            with pytest.raises(IllegalActionError):
                g.check(loose)
    assert some_legal == 12


def test_rasterize_matches_contains_xy() -> None:
    rng = np.random.default_rng(7)
    for _ in range(6):
        blobs = shapely.MultiPoint(rng.uniform(0, 100, (20, 2))).buffer(rng.uniform(3, 12))
        geom = blobs.difference(shapely.Point(*rng.uniform(20, 80, 2)).buffer(9.0)).buffer(rng.uniform(0, 20), 2)
        x0, y0, step = -30.25, -30.75, float(rng.choice([1.0, 2.0]))
        nx, ny = int(180 / step), int(170 / step)
        mx, my = np.meshgrid(x0 + step * np.arange(nx), y0 + step * np.arange(ny))
        expect = shapely.contains_xy(geom, mx, my)
        got = rasterize(geom, x0, y0, nx, ny, step)
        # points on an edge may go either way
        on_edge = shapely.dwithin(geom.boundary, shapely.points(mx, my), 1e-9)
        assert np.array_equal(got[~on_edge], expect[~on_edge])
    assert not rasterize(shapely.Polygon(), 0.0, 0.0, 5, 5).any()


def test_finder_poses_are_rounded_and_replay() -> None:
    g = issue_case()
    for place in g.find_placements(0, 4, limit=10):
        assert place.x == round(place.x, 1) and place.y == round(place.y, 1)
        assert place.rotation is not None and place.rotation == math.floor(place.rotation)
        assert Action.parse(str(place), 0) == place
