"""The placement finder: every result is legal, best first, deterministic, filtered by corner and target."""

from __future__ import annotations

import copy
import math
import re

import pytest

from engine.conex import Game, Place
from engine.errors import IllegalActionError, InvalidInputError
from tests.engine.conex.scenes import attach, find_card, find_corner, game, host_entry

F = (300.0, 0.0)
HOST = find_card(lambda c: c.color == "P" and c.action is None and len(c.corners) == 2)
NEW = find_card(lambda c: find_corner(c, "P", 4) is not None and c.color != "P" and c.action is None)


def target_of(g: Game, place: Place) -> object:
    g2 = copy.deepcopy(g)
    g2.play(place)
    return g2.table[-1].target


def test_first_turn_results_are_legal_on_board_squares_and_rounded() -> None:
    g = Game.new(players=2, seed=5)
    card = g.hands[0][0]
    found = g.find_placements(0, card, limit=10)
    assert 1 <= len(found) <= 10
    corners = {k.index: k for k in g.deck[card].corners}
    for place in found:
        assert g.points_for(place) == corners[place.corner].value
        assert target_of(g, place) == "board"
        assert re.fullmatch(r"place \d+ c\d at -?\d+\.\d,-?\d+\.\d r\d+", str(place))
    values = [g.points_for(p) for p in found]
    assert values == sorted(values, reverse=True)


def test_deterministic_and_stable_through_serialisation() -> None:
    g = Game.new(players=3, seed=8)
    g.play(g.find_placements(0, g.hands[0][1])[0])
    p = g.current_player
    a = [g.find_placements(p, c) for c in g.hands[p]]
    b = [Game.from_dict(g.to_dict()).find_placements(p, c) for c in g.hands[p]]
    assert a == b
    assert a == [g.find_placements(p, c) for c in g.hands[p]]


def test_results_are_spread_out() -> None:
    g = Game.new(players=2, seed=5)
    found = g.find_placements(0, g.hands[0][0], limit=10)
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            same = a.corner == b.corner
            close = math.hypot(a.x - b.x, a.y - b.y) < 2.0
            turn = abs((a.rotation - b.rotation + 180) % 360 - 180) < 45
            assert not (same and close and turn and target_of(g, a) == target_of(g, b))


def test_filter_by_target_and_corner() -> None:
    g = game([[NEW.id], []], [host_entry(HOST, F)])
    k = find_corner(NEW, "P", 4)
    on_host = g.find_placements(0, NEW.id, corner=k.index, target=HOST.id, limit=5)
    assert on_host
    for place in on_host:
        assert place.corner == k.index
        assert target_of(g, place) == HOST.id
        assert g.points_for(place) == 4
    on_board = g.find_placements(0, NEW.id, target="board", limit=5)
    assert on_board and all(target_of(g, p) == "board" for p in on_board)


def test_best_first_prefers_points_plus2_target() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "P")
    g = game([[NEW.id], []], [host_entry(plus2, F)])
    best = g.find_placements(0, NEW.id, limit=3)[0]
    assert target_of(g, best) == plus2.id
    assert g.points_for(best) == 4 + 2


def test_auto_fit_returns_the_best_legal_pose() -> None:
    g = game([[NEW.id], []], [host_entry(HOST, F)])
    k = find_corner(NEW, "P", 4)
    place = g.auto_fit(0, NEW.id, k.index, HOST.id)
    assert place == g.find_placements(0, NEW.id, k.index, HOST.id, limit=1)[0]
    g.play(place)
    assert g.scores[0] == 4


def test_auto_fit_explains_no_legal_pose() -> None:
    g = game([[NEW.id], []], [host_entry(HOST, F)])
    wrong = next(k for k in NEW.corners if k.color != "P")
    expected = rf"no legal pose for corner {wrong.index} of card {NEW.id} on card #{HOST.id}"
    with pytest.raises(IllegalActionError, match=expected) as exc:
        g.auto_fit(0, NEW.id, wrong.index, HOST.id)
    assert exc.value.rule == "P1"
    # a host covered entirely by a later card in the same pose
    cover = find_card(lambda c: c.id not in (HOST.id, NEW.id))
    covered = game([[NEW.id], []], [host_entry(HOST, F), {**host_entry(HOST, F), "card": cover.id}])
    k = find_corner(NEW, "P", 4)
    with pytest.raises(IllegalActionError, match="no legal pose"):
        covered.auto_fit(0, NEW.id, k.index, HOST.id)


def test_legal_counts_are_capped_and_match_the_finder() -> None:
    g = Game.new(players=2, seed=6)
    counts = g.legal_counts(0)
    assert set(counts) == set(g.hands[0])
    for card, n in counts.items():
        assert 0 <= n <= 9
        assert n == len(g.find_placements(0, card, limit=9))
    assert max(counts.values()) == 9  # an empty table has room for many
    assert g.legal_counts(0, cap=2) == {c: min(n, 2) for c, n in counts.items()}


def test_finder_refuses_bad_requests() -> None:
    g = game([[NEW.id], []], [host_entry(HOST, F)])
    with pytest.raises(InvalidInputError):
        g.find_placements(0, 99)
    with pytest.raises(IllegalActionError) as exc:
        g.find_placements(1, NEW.id)
    assert exc.value.rule == "P5"
    with pytest.raises(InvalidInputError):
        g.find_placements(0, NEW.id, target=51)
    with pytest.raises(InvalidInputError):
        g.find_placements(0, NEW.id, corner=7)
    with pytest.raises(InvalidInputError):
        g.find_placements(0, NEW.id, limit=0)


def test_finder_finds_the_hand_built_attach_region() -> None:
    """The finder's best pose on the host is at least as clear as the hand-built one (a sanity check)."""
    g = game([[NEW.id], []], [host_entry(HOST, F)])
    k = find_corner(NEW, "P", 4)
    manual = attach(NEW, k, F)
    assert g.points_for(manual) == 4
    assert g.find_placements(0, NEW.id, k.index, HOST.id, limit=1)
