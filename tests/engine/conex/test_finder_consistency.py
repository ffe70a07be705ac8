"""The finder answers a (card, corner, target) request the same whatever ran before it (issue 22).

The field case: on a 36-card large table the unrestricted search found corner 1 on the board, while
``corner=1, target="board"`` found none and ``targets_for`` omitted the board. The kinds fixed in
``engine/conex/finder.py``: a pair whose target's rasters another search had built, and whose lattice held no
candidate, was skipped without its edge candidates (so a pose legal only between the 5-degree steps was found
or not depending on the caches); a pair whose edge candidates all failed the exact check never got the lattice;
and a pose proposed by two pairs was judged once, for the first pair's target only.
"""

from __future__ import annotations

import pickle

import pytest

from engine.conex import Game, finder
from engine.conex.actions import Discard
from engine.conex.ai import first_fit
from engine.conex.finder_geom import TargetGeom
from engine.conex.geometry import centre_for_corner


def grown(seed: int, cards: int, table: str = "medium") -> Game:
    g = Game.new(players=2 + seed % 3, seed=seed, table=table, goal=100)
    while (len(g.table) < cards or g.pending_discards or not g.hands[g.current_player]) and not g.is_over:
        for q in sorted(g.pending_discards):
            g.play(Discard(q, sorted(g.hands[q])[0]))
        g.play(first_fit(g, g.current_player))
    assert not g.is_over
    return g


@pytest.fixture(scope="module")
def position() -> Game:
    return grown(5, 14)


def pairs(g: Game) -> list[tuple[int, int, object]]:
    p = g.current_player
    return [
        (cid, c.index, tgt)
        for cid in sorted(g.hands[p])
        for c in g.deck[cid].corners
        for tgt, _ in g.board.targets_for(c.color)
    ]


def test_a_request_does_not_depend_on_the_rasters_other_searches_built(position: Game) -> None:
    p = position.current_player
    blob = pickle.dumps(position)
    for cid, corner, tgt in pairs(position):
        cold = pickle.loads(blob)
        hot = pickle.loads(blob)
        geom = TargetGeom.get(hot.board, tgt, hot.deck[cid].corner(corner).color)
        assert geom.rasters is not None and geom.has_rasters  # as after another pair on this target
        got_cold = cold.find_placements(p, cid, corner, tgt, limit=1)
        got_hot = hot.find_placements(p, cid, corner, tgt, limit=1)
        assert got_cold == got_hot, (cid, corner, tgt)
        assert (tgt in hot.targets_for(p, cid, corner)) == bool(got_hot), (cid, corner, tgt)


def test_every_pair_the_unrestricted_search_poses_is_found_when_asked_for(position: Game) -> None:
    p = position.current_player
    for cid in sorted(position.hands[p]):
        g = pickle.loads(pickle.dumps(position))
        card = g.deck[cid]
        seen = set()
        for place in g.find_placements(p, cid, limit=40):
            corner = card.corner(place.corner)
            cx, cy = centre_for_corner(corner, place.x_mm, place.y_mm, place.rotation)
            seen.add((place.corner, g.board.check_pose(card, place.corner, cx, cy, place.rotation).target))
        for corner, tgt in seen:  # after the unrestricted search, on the same (now warm) game
            assert g.find_placements(p, cid, corner, tgt, limit=1), (cid, corner, tgt)
            assert tgt in g.targets_for(p, cid, corner), (cid, corner, tgt)


def test_edge_poses_are_tried_even_when_the_built_lattice_has_no_candidate(position: Game, monkeypatch) -> None:
    """A target whose rasters exist and hold no lattice candidate for the corner still gets its edge candidates."""
    p = position.current_player
    expected = {}
    for cid, corner, tgt in pairs(position):
        expected[(cid, corner, tgt)] = bool(
            pickle.loads(pickle.dumps(position)).find_placements(p, cid, corner, tgt, limit=1)
        )
    assert any(expected.values())
    monkeypatch.setattr(finder, "lattice_any", lambda geom, corner: False)
    for (cid, corner, tgt), found in expected.items():
        if not found:
            continue
        g = pickle.loads(pickle.dumps(position))
        TargetGeom.get(g.board, tgt, g.deck[cid].corner(corner).color).rasters  # noqa: B018 (built)
        got = g.find_placements(p, cid, corner, tgt, limit=1)
        # only a pair that needed the lattice may now go without (the shortcut is for the lattice step alone)
        if got:
            continue
        edges = finder._edge_found(g.board, (0, 0, g.deck[cid].corner(corner), tgt))
        assert not finder._select(g.board, p, g.deck[cid], edges, 1, {}), (cid, corner, tgt)


def test_a_pose_two_pairs_propose_is_judged_for_each_pairs_target(position: Game) -> None:
    p = position.current_player
    g = pickle.loads(pickle.dumps(position))
    for cid, corner, tgt in pairs(g):
        got = g.find_placements(p, cid, corner, tgt, limit=1)
        others = [t for t, _ in g.board.targets_for(g.deck[cid].corner(corner).color) if t != tgt]
        if got and others:
            break
    else:
        pytest.skip("no pair with a pose and a second target of its colour in this position")
    place = got[0]
    card, c = g.deck[cid], g.deck[cid].corner(corner)
    x, y, r = place.x_mm, place.y_mm, place.rotation
    found = [
        (99, 30.0, 0, 0, c, others[0], x, y, r),  # proposed first for another target: not legal there
        (1, 30.0, 1, 0, c, tgt, x, y, r),
    ]  # the same pose for its own target: legal
    assert finder._select(g.board, p, card, found, 2, {}) == [place]


def test_a_lattice_whose_first_poses_fail_the_exact_check_is_searched_whole(position: Game, monkeypatch) -> None:
    """The lattice filter may admit a pose the exact check refuses; when its first poses all fail, the whole
    lattice is searched (here: edge candidates withheld, and the first lattice answer replaced by a refused pose)."""
    p = position.current_player
    real = finder._lattice_found
    monkeypatch.setattr(finder, "_edge_found", lambda table, pair: [])

    def first_refused(table, pair, want):
        got = real(table, pair, want)
        if want == finder.ALL or not got:
            return got
        pts, cl, order, i, c, tgt, x, y, r = got[0]
        return [(pts, cl, order, i, c, tgt, x + 5000.0, y, r)]  # 5 m away: off every table

    monkeypatch.setattr(finder, "_lattice_found", first_refused)
    checked = 0
    for cid, corner, tgt in pairs(position)[:12]:
        g = pickle.loads(pickle.dumps(position))
        c = g.deck[cid].corner(corner)
        if not real(g.board, (0, 0, c, tgt), 1):
            continue
        checked += 1
        assert g.find_placements(p, cid, corner, tgt, limit=1), (cid, corner, tgt)
        assert tgt in g.targets_for(p, cid, corner), (cid, corner, tgt)
    assert checked
