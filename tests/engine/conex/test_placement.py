"""Placement legality P1-P5 with the G7 tolerances, and the worked checks of rules/conex.md section 9.

Tables are built with ``Game.from_dict`` (tests/engine/conex/scenes.py). Each failing case fails one rule only:
the same pose is legal once the one fault is removed.
"""

from __future__ import annotations

import math

import pytest

from engine.conex import Discard, Draw, Lightning, Place
from engine.conex.events import Placed, StarUsed
from engine.conex.geometry import BOARD_SQUARES, rotate_point
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError
from tests.engine.conex.scenes import (
    BISECTOR_IN,
    attach,
    find_card,
    find_corner,
    game,
    host_entry,
    rect_of,
)

F = (300.0, 0.0)  # where the host card's free corner points, far from the board and the table edge
HOST = find_card(lambda c: c.color == "P" and c.action is None and len(c.corners) == 2)
NEW = find_card(lambda c: find_corner(c, "P", 4) is not None and c.color != "P")
NEW_CORNER = find_corner(NEW, "P", 4)
assert NEW_CORNER is not None


def base_game(table_extra: list[dict] | None = None, f: tuple[float, float] = F, size: str = "medium"):
    return game([[NEW.id], []], [host_entry(HOST, f), *(table_extra or [])], size=size)


def rule_of(g, action) -> str:
    with pytest.raises(IllegalActionError) as exc:
        g.check(action)
    return exc.value.rule


def test_baseline_attach_is_legal_and_scores_corner_value_v1() -> None:
    g = base_game()
    place = attach(NEW, NEW_CORNER, F)
    assert g.points_for(place) == NEW_CORNER.value
    placed = g.apply(place).events[0]
    assert g.scores == [NEW_CORNER.value, 0]
    assert g.table[-1].target == HOST.id
    assert isinstance(placed, Placed) and placed.points == NEW_CORNER.value and placed.target == HOST.id


# --- P5 ----------------------------------------------------------------------------------------------------------


def test_p5_card_not_in_hand() -> None:
    other = find_card(lambda c: c.id not in (HOST.id, NEW.id))
    g = game([[other.id], [NEW.id]], [host_entry(HOST, F)])
    err = rule_of(g, attach(NEW, NEW_CORNER, F))
    assert err == "P5"


def test_p5_card_on_the_table_says_so() -> None:
    g = base_game()
    with pytest.raises(IllegalActionError, match="on the table") as exc:
        g.check(Place(0, HOST.id, 1, 30.0, 0.0, 0.0))
    assert exc.value.rule == "P5"


def test_p5_not_your_turn() -> None:
    g = base_game()
    place = attach(NEW, NEW_CORNER, F, player=1)
    with pytest.raises(NotYourTurnError) as exc:
        g.check(place)
    assert exc.value.rule == "NotYourTurn"


def test_unknown_card_and_corner_are_input_errors() -> None:
    g = base_game()
    with pytest.raises(InvalidInputError):
        g.check(Place(0, 53, 1, 0.0, 0.0, 0.0))
    with pytest.raises(InvalidInputError, match="corners 1-"):
        g.check(Place(0, NEW.id, len(NEW.corners) + 1, 0.0, 0.0, 0.0))


# --- P4 ----------------------------------------------------------------------------------------------------------


def test_p4_card_over_the_table_edge() -> None:
    # medium table: x up to 500 mm; the new card reaches ~80 mm right of F
    f = (450.0, 0.0)
    g = base_game(f=f)
    place = attach(NEW, NEW_CORNER, f)
    assert rect_of(place).bounds[2] > 500.5
    assert rule_of(g, place) == "P4"
    # the same pose on the large table (x up to 700 mm) is legal
    assert base_game(f=f, size="large").points_for(place) == NEW_CORNER.value


# --- P1 ----------------------------------------------------------------------------------------------------------


def test_p1_corner_colour_must_match_the_target_background() -> None:
    wrong = find_card(
        lambda c: c.color != "P" and any(k.color not in ("P", c.color) and k.value == 4 for k in c.corners),
        exclude=(HOST.id, NEW.id),
    )
    corner = next(k for k in wrong.corners if k.color != "P" and k.value == 4)
    g = game([[wrong.id], []], [host_entry(HOST, F)])
    with pytest.raises(IllegalActionError, match="purple") as exc:
        g.check(attach(wrong, corner, F))
    assert exc.value.rule == "P1"
    assert exc.value.details["other"] == HOST.id


def test_p1_corner_must_lie_on_the_main_area() -> None:
    g = base_game()
    # right angle only 5 mm inside the host: the triangle pokes out over the bare table
    place = attach(NEW, NEW_CORNER, F, depth=5.0)
    with pytest.raises(IllegalActionError, match="bare table") as exc:
        g.check(place)
    assert exc.value.rule == "P1"


def test_p1_first_turn_only_board_squares_are_targets() -> None:
    """Worked check 1 (first half): on an empty table a corner on the bare table or the score track is refused."""
    g = game([[NEW.id], []])
    bare = Place(0, NEW.id, NEW_CORNER.index, 30.0, 0.0, 0.0)
    track = Place(0, NEW.id, NEW_CORNER.index, 0.0, 0.0, 0.0)
    assert rule_of(g, bare) == "P1"
    with pytest.raises(IllegalActionError, match="score track"):
        g.check(track)


def test_g7_lies_on_tolerance_half_millimetre() -> None:
    """G7: a corner sticking out 0.4 mm is on the area, 0.6 mm is not (the host's diamond edge)."""
    legs = max(NEW_CORNER.legs_mm)
    snug = math.sqrt(2.0) * legs  # the leg ends exactly on the host's edges
    g = base_game()
    # sticking out by e mm perpendicular to the host's 45-degree edges = shifting the vertex e*sqrt(2) to the right
    assert g.points_for(attach(NEW, NEW_CORNER, F, depth=snug - 0.4 * math.sqrt(2.0))) == NEW_CORNER.value
    assert rule_of(g, attach(NEW, NEW_CORNER, F, depth=snug - 0.6 * math.sqrt(2.0))) == "P1"


# --- P2 (worked check 6) -----------------------------------------------------------------------------------------


def third_card_at_gap(place: Place, gap: float) -> dict:
    """A table entry for an upright card whose left edge is ``gap`` mm right of the new card's rightmost point."""
    rect = rect_of(place)
    xs, ys = rect.exterior.coords.xy
    i = max(range(4), key=lambda k: xs[k])
    third = find_card(lambda c: c.id not in (HOST.id, NEW.id))
    return {"card": third.id, "x_mm": xs[i] + gap + 30.0, "y_mm": ys[i], "rotation": 0.0}


def test_worked_check_6_p2_half_millimetre_illegal_one_and_a_half_legal() -> None:
    place = attach(NEW, NEW_CORNER, F)
    near = base_game([third_card_at_gap(place, 0.5)])
    with pytest.raises(IllegalActionError, match=r"would touch card #\d+ at \(") as exc:
        near.check(place)
    assert exc.value.rule == "P2"
    assert exc.value.details["gap_mm"] == pytest.approx(0.5, abs=0.01)
    far = base_game([third_card_at_gap(place, 1.5)])
    assert far.points_for(place) == NEW_CORNER.value


def test_p2_touch_boundary_is_one_millimetre() -> None:
    place = attach(NEW, NEW_CORNER, F)
    assert rule_of(base_game([third_card_at_gap(place, 0.95)]), place) == "P2"
    assert base_game([third_card_at_gap(place, 1.05)]).points_for(place) == NEW_CORNER.value


def test_p2_a_card_target_must_not_touch_the_scoring_board() -> None:
    f = (-130.0, 0.0)  # the host lies left of the board (which starts at x = -100 mm)
    place = attach(NEW, NEW_CORNER, f)
    assert rect_of(place).bounds[2] > -100.0
    g = base_game(f=f)
    with pytest.raises(IllegalActionError, match="scoring board") as exc:
        g.check(place)
    assert exc.value.rule == "P2"


def test_p2_a_board_target_must_not_touch_any_card() -> None:
    card = find_card(lambda c: find_corner(c, "R") is not None)
    corner = find_corner(card, "R")
    assert corner is not None
    rot = (-45.0 - BISECTOR_IN[corner.position]) % 360.0  # body pointing up-right, out of the board
    gx, gy = rotate_point(*corner.centroid, rot)
    ax, ay = rotate_point(*corner.vertices[0], rot)
    vx, vy = 70.0, -70.0  # right angle in the middle of the red square
    place = Place(0, card.id, corner.index, (vx + gx - ax) / 10, (vy + gy - ay) / 10, rot)
    alone = game([[card.id], []])
    assert alone.points_for(place) == corner.value
    rect = rect_of(place)
    other = find_card(lambda c: c.id != card.id)
    # an upright card whose left edge is 0.5 mm right of the new card's rightmost point
    xs, ys = rect.exterior.coords.xy
    i = max(range(4), key=lambda k: xs[k])
    crowded = game([[card.id], []], [{"card": other.id, "x_mm": xs[i] + 30.5, "y_mm": ys[i], "rotation": 0.0}])
    assert rule_of(crowded, place) == "P2"


# --- P3 ----------------------------------------------------------------------------------------------------------


def test_p3_must_not_touch_the_targets_own_conex_corner() -> None:
    # a host whose card corner next to F along the short edge carries a long-legged CONEX corner
    def suits(c) -> bool:
        return c.color == "P" and any(_short_neighbour(free) in {k.position for k in c.corners} for free in _frees(c))

    host = find_card(suits)
    free = next(f for f in _frees(host) if _short_neighbour(f) in {k.position for k in host.corners})
    g = game([[NEW.id], []], [host_entry(host, F, free=free)])
    ok = attach(NEW, NEW_CORNER, F)
    assert g.points_for(ok) == NEW_CORNER.value
    # push the right angle deeper: the new card's edges now cross the host's edges next to its CONEX corner
    deep = attach(NEW, NEW_CORNER, F, depth=62.0)
    with pytest.raises(IllegalActionError, match="CONEX corner") as exc:
        g.check(deep)
    assert exc.value.rule == "P3"
    assert exc.value.details["other"] == host.id


def _frees(card) -> list[str]:
    used = {k.position for k in card.corners}
    return [p for p in ("tl", "tr", "br", "bl") if p not in used]


def _short_neighbour(pos: str) -> str:
    return {"tl": "tr", "tr": "tl", "br": "bl", "bl": "br"}[pos]


# --- rotation chosen by the engine ---------------------------------------------------------------------------------


def test_rotation_none_is_resolved_to_a_legal_rotation() -> None:
    g = base_game()
    fixed = attach(NEW, NEW_CORNER, F)
    loose = Place(0, NEW.id, NEW_CORNER.index, fixed.x, fixed.y, None)
    resolved = g.play(loose)
    assert isinstance(resolved, Place) and resolved.rotation is not None
    assert g.history[-1][1] == str(resolved)
    assert "r" in str(resolved).split(" at ")[1]


def test_rotation_none_with_no_legal_rotation_names_the_rule() -> None:
    g = base_game()
    # the corner centroid on the bare table: P1 whatever the rotation
    with pytest.raises(IllegalActionError) as exc:
        g.check(Place(0, NEW.id, NEW_CORNER.index, -40.0, 30.0, None))
    assert exc.value.rule == "P1"


# --- worked checks 1-5 ---------------------------------------------------------------------------------------------


def board_place(card, corner, square: str, player: int = 0) -> Place:
    """Right angle in the middle of ``square``, body pointing diagonally out of the board."""
    sq = BOARD_SQUARES[square]
    vx, vy = sq.centroid.x, sq.centroid.y
    out = math.degrees(math.atan2(vy, vx))
    rot = (out - BISECTOR_IN[corner.position]) % 360.0
    gx, gy = rotate_point(*corner.centroid, rot)
    ax, ay = rotate_point(*corner.vertices[0], rot)
    return Place(player, card.id, corner.index, (vx + gx - ax) / 10, (vy + gy - ay) / 10, rot)


def test_worked_check_1_red_four_on_the_red_square_scores_4() -> None:
    card = find_card(lambda c: c.color == "P" and find_corner(c, "R", 4) is not None)
    corner = find_corner(card, "R", 4)
    g = game([[card.id], []])
    place = board_place(card, corner, "R")
    g.play(place)
    assert g.scores == [4, 0]
    assert g.table[0].target == "board"
    # the same corner on the yellow square is refused (P1)
    g2 = game([[card.id], []])
    assert rule_of(g2, board_place(card, corner, "Y")) == "P1"


def test_worked_check_2_purple_four_on_the_purple_card_scores_4() -> None:
    first = find_card(lambda c: c.color == "P" and find_corner(c, "R", 4) is not None)
    second = find_card(lambda c: find_corner(c, "P", 4) is not None and c.color != "P")
    corner = find_corner(second, "P", 4)
    g = game([[], [second.id]], [host_entry(first, F, placed_by=0, points=4)], current=1, scores=[4, 0], turn=1)
    g.play(attach(second, corner, F, player=1))
    assert g.scores == [4, 4]


def test_worked_check_3_plus2_card_bonus_and_its_own_placement() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "Y")
    five = next(k for k in plus2.corners if k.value == 5)
    # placing the +2 card itself earns only its corner (5), no bonus from itself
    g = game([[plus2.id], []])
    g.play(board_place(plus2, five, five.color))
    assert g.scores == [5, 0]
    # a yellow 3 on a free +2 card scores 3 + 2
    third = find_card(lambda c: find_corner(c, "Y", 3) is not None)
    corner = find_corner(third, "Y", 3)
    g = game([[], [third.id]], [host_entry(plus2, F, placed_by=0, points=5)], current=1, scores=[5, 0], turn=1)
    placed = g.apply(attach(third, corner, F, player=1)).events[0]
    assert g.scores == [5, 5]
    assert isinstance(placed, Placed) and placed.points == 5


def test_worked_check_4_two_x_star_doubles_four_plus_two_to_twelve() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "T")
    card = find_card(lambda c: find_corner(c, "T", 4) is not None and c.id != plus2.id)
    corner = find_corner(card, "T", 4)
    stars = {"2x": {"holder": 0, "since_turn": 1}, "lightning": {"holder": None}}
    g = game([[card.id], []], [host_entry(plus2, F, placed_by=1, points=5)], turn=2, stars=stars)
    place = attach(card, corner, F)
    doubled = Place(0, place.card, place.corner, place.x, place.y, place.rotation, True)
    assert g.points_for(place) == 6
    assert g.points_for(doubled) == 12
    events = g.apply(doubled).events
    assert g.scores == [12, 0]
    assert g.stars["2x"] is None  # V3: back to the supply
    assert StarUsed("2x", 0) in events


def test_v3_x2_star_not_usable_the_turn_it_was_won() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "T")
    card = find_card(lambda c: find_corner(c, "T", 4) is not None and c.id != plus2.id)
    place = attach(card, find_corner(card, "T", 4), F)
    doubled = Place(0, place.card, place.corner, place.x, place.y, place.rotation, True)
    won_now = {"2x": {"holder": 0, "since_turn": 2}, "lightning": {"holder": None}}
    g = game([[card.id], []], [host_entry(plus2, F)], turn=2, stars=won_now)
    assert rule_of(g, doubled) == "X2"
    nobody = game([[card.id], []], [host_entry(plus2, F)], turn=2)
    assert rule_of(nobody, doubled) == "V3"


def test_worked_check_5_lightning_uncovers_a_plus2_card_and_others_discard() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "R")
    cover = find_card(lambda c: find_corner(c, "R", 4) is not None and c.action is None)
    new = find_card(lambda c: find_corner(c, "R", 4) is not None and c.action is None and c.id != cover.id)
    cover_place = attach(cover, find_corner(cover, "R", 4), F)
    setup = game([[cover.id], []], [host_entry(plus2, F)])
    setup.play(cover_place)  # the cover lies on the +2 card's free corner
    d = setup.to_dict()
    others = [i for i in d["draw_pile"] if i != new.id][:4]
    d["draw_pile"] = [i for i in d["draw_pile"] if i not in others and i != new.id]
    d["hands"] = [[new.id], others[:2]]
    d["draw_pile"] += others[2:]
    d["current_player"], d["turn"] = 0, 4
    d["stars"] = {"lightning": {"holder": 0, "since_turn": 2}, "2x": {"holder": None}}
    g = type(setup).from_dict(d)
    place = attach(new, find_corner(new, "R", 4), F)
    assert rule_of(g, place) == "P1"  # the +2 card's corner area is covered
    assert not g.board.is_free(plus2.id)
    with pytest.raises(IllegalActionError, match="not free") as exc:
        g.check(Lightning(0, plus2.id))
    assert exc.value.rule == "X3"
    g.play(Lightning(0, cover.id))
    assert cover.id not in g.board and g.pile[-1] == cover.id
    assert g.board.is_free(plus2.id)
    assert g.pending_discards == {1}
    assert g.stars["lightning"] is None
    assert g.current_player == 0  # lightning is not a main action
    # seat 1 must discard before its next main action; it may do so out of turn
    g.play(Discard(1, others[0]))
    assert g.pending_discards == set() and g.pile[-1] == others[0]
    assert g.points_for(place) == 4 + 2
    before = g.scores[0]
    g.play(place)
    assert g.scores[0] == before + 6


def test_x3_pending_discard_blocks_the_next_main_action() -> None:
    plus2 = find_card(lambda c: c.action == "plus2" and c.color == "R")
    g = game(
        [[1 if plus2.id != 1 else 2], [3, 4]],
        [host_entry(plus2, F)],
        stars={"lightning": {"holder": 1, "since_turn": 0}, "2x": {"holder": None}},
        turn=3,
        current=1,
    )
    g.play(Lightning(1, plus2.id))
    assert g.pending_discards == {0}
    g.play(Draw(1))
    with pytest.raises(IllegalActionError, match="discard") as exc:
        g.check(Draw(0))
    assert exc.value.rule == "X3"


def test_rotation_none_on_a_target_where_no_rotation_fits_explains_why() -> None:
    # the host lies on the middle of the board: any card with a corner on it also covers the board (P2)
    g = game([[NEW.id], []], [{"card": HOST.id, "x_mm": 0.0, "y_mm": 0.0, "rotation": 0.0}])
    with pytest.raises(IllegalActionError, match=r"no rotation of card \d+ is legal .* scoring board") as exc:
        g.check(Place(0, NEW.id, NEW_CORNER.index, 0.0, 0.0, None))
    assert exc.value.rule == "P2"
    assert g.find_placements(0, NEW.id, target=HOST.id) == []
