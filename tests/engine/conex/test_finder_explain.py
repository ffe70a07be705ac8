"""``targets_for`` (the ``target`` autocomplete) and why a pose or an auto-fit fails (issue 14): the rule and
machine-readable details for each of P1-P4."""

from __future__ import annotations

import pytest

from engine.conex import Draw, Game, Place
from engine.errors import IllegalActionError, InvalidInputError
from tests.engine.conex.scenes import attach, find_card, game, host_entry, rect_of
from tests.engine.conex.test_placement import (
    HOST,
    NEW,
    NEW_CORNER,
    _frees,
    _short_neighbour,
    base_game,
    third_card_at_gap,
)

F = (300.0, 0.0)


def refusal(g: Game, action: Place) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as exc:
        g.check(action)
    return exc.value


def fenced(gap: float = 0.5) -> tuple[Game, list[int]]:
    """The upright purple host at (30, 0) cm with a card ``gap`` mm beyond each of its four sides: any card
    leaving the host touches one of them."""
    others = [find_card(lambda c, k=k: c.id not in (HOST.id, NEW.id) and c.id > k).id for k in (0, 10, 20, 30)]
    x, y = F
    fence = [
        {"card": others[0], "x_mm": x - 60.0 - gap, "y_mm": y, "rotation": 0.0},
        {"card": others[1], "x_mm": x + 60.0 + gap, "y_mm": y, "rotation": 0.0},
        {"card": others[2], "x_mm": x, "y_mm": y - 75.0 - gap, "rotation": 90.0},
        {"card": others[3], "x_mm": x, "y_mm": y + 75.0 + gap, "rotation": 90.0},
    ]
    host = {"card": HOST.id, "x_mm": x, "y_mm": y, "rotation": 0.0}
    return game([[NEW.id], []], [*fence, host]), others


def issue_case() -> Game:
    g = game([[14, 20, 4], [30, 29, 3]])
    g.play(Place(0, 14, 2, 8.9, 5.2, 90.0))
    g.play(Draw(1))
    return g


# --- targets_for ---------------------------------------------------------------------------------------------------


def test_targets_for_lists_only_targets_of_the_corners_colour_with_a_pose() -> None:
    g = issue_case()
    for card in g.hands[0]:
        for corner in g.deck[card].corners:
            targets = g.targets_for(0, card, corner.index)
            for t in targets:
                if t != "board":
                    assert g.board.get(t).card.color == corner.color  # P1 colour
                assert g.find_placements(0, card, corner.index, t, limit=1)
            # every target the finder can use is listed
            others = [t for t, _ in g.board.targets_for(corner.color) if t not in targets]
            for t in others:
                assert not g.find_placements(0, card, corner.index, t, limit=1)
    red = g.targets_for(0, 4, 1)
    assert red[0] == 14  # the +2 card first (5 points), then the red board square
    assert red == [14, "board"]


def test_targets_for_leaves_out_covered_and_fenced_targets() -> None:
    g = base_game()
    assert HOST.id in g.targets_for(0, NEW.id, NEW_CORNER.index)
    wrong = next(k for k in NEW.corners if k.color != "P")
    assert HOST.id not in g.targets_for(0, NEW.id, wrong.index)
    cover = find_card(lambda c: c.id not in (HOST.id, NEW.id))
    covered = game([[NEW.id], []], [host_entry(HOST, F), {**host_entry(HOST, F), "card": cover.id}])
    assert HOST.id not in covered.targets_for(0, NEW.id, NEW_CORNER.index)
    walled, _ = fenced()
    assert HOST.id not in walled.targets_for(0, NEW.id, NEW_CORNER.index)
    open_fence, _ = fenced(gap=75.0)
    assert HOST.id in open_fence.targets_for(0, NEW.id, NEW_CORNER.index)


def test_targets_for_refuses_bad_requests() -> None:
    g = base_game()
    with pytest.raises(IllegalActionError) as exc:
        g.targets_for(1, NEW.id, NEW_CORNER.index)
    assert exc.value.rule == "P5"
    with pytest.raises(InvalidInputError):
        g.targets_for(0, NEW.id, 9)
    with pytest.raises(InvalidInputError):
        g.targets_for(0, 99, 1)


# --- a specific pose: the check's details --------------------------------------------------------------------------


def test_p1_colour_mismatch_details() -> None:
    wrong_card = find_card(
        lambda c: c.color != "P" and any(k.color not in ("P", c.color) and k.value == 4 for k in c.corners),
        exclude=(HOST.id, NEW.id),
    )
    corner = next(k for k in wrong_card.corners if k.color != "P" and k.value == 4)
    g = game([[wrong_card.id], []], [host_entry(HOST, F)])
    err = refusal(g, attach(wrong_card, corner, F))
    assert err.rule == "P1"
    d = err.details
    assert d["reason"] == "color" and d["other"] == HOST.id
    assert (d["corner_color"], d["target_color"]) == (corner.color, "P")
    assert d["card"] == wrong_card.id and d["corner"] == corner.index


def test_p1_not_on_the_visible_main_area_details() -> None:
    g = base_game()
    err = refusal(g, attach(NEW, NEW_CORNER, F, depth=5.0))  # the triangle pokes out over the bare table
    assert err.rule == "P1"
    d = err.details
    assert d["reason"] == "not_on_target" and d["corner_color"] == "P"
    assert {"kind": "table"} in d["under"]
    assert {"kind": "card", "id": HOST.id, "color": "P"} in d["under"]


def test_p2_touches_a_card_details() -> None:
    place = attach(NEW, NEW_CORNER, F)
    g = base_game([third_card_at_gap(place, 0.5)])
    third = g.table[-1].id
    err = refusal(g, place)
    assert err.rule == "P2"
    d = err.details
    assert (d["reason"], d["other"], d["other_kind"]) == ("touches", third, "card")
    assert d["gap_mm"] == pytest.approx(0.5, abs=0.01)


def test_p2_touches_the_board_details() -> None:
    f = (-130.0, 0.0)
    g = base_game(f=f)
    err = refusal(g, attach(NEW, NEW_CORNER, f))
    assert err.rule == "P2"
    assert (err.details["other"], err.details["other_kind"]) == ("board", "board")


def test_p3_touches_a_conex_corner_details() -> None:
    host = find_card(
        lambda c: c.color == "P" and any(_short_neighbour(f) in {k.position for k in c.corners} for f in _frees(c))
    )
    free = next(f for f in _frees(host) if _short_neighbour(f) in {k.position for k in host.corners})
    g = game([[NEW.id], []], [host_entry(host, F, free=free)])
    err = refusal(g, attach(NEW, NEW_CORNER, F, depth=62.0))
    assert err.rule == "P3"
    d = err.details
    assert d["reason"] == "touches_corner" and d["other"] == host.id
    assert d["other_corner"] in [k.index for k in host.corners]
    assert f"CONEX corner {d['other_corner']} of card #{host.id}" in err.message


def test_p4_off_the_table_edge_details() -> None:
    f = (450.0, 0.0)
    place = attach(NEW, NEW_CORNER, f)
    err = refusal(base_game(f=f), place)
    assert err.rule == "P4"
    d = err.details
    assert d["reason"] == "off_table" and d["edge"] == "right" and d["table_cm"] == (100, 70)
    assert d["over_cm"] == pytest.approx((rect_of(place).bounds[2] - 500.0) / 10, abs=0.05)


# --- auto-fit and place without a rotation: the dominant reason ------------------------------------------------------


def test_auto_fit_colour_mismatch_is_p1_colour() -> None:
    g = base_game()
    wrong = next(k for k in NEW.corners if k.color != "P")
    with pytest.raises(
        IllegalActionError,
        match=rf"no legal pose for corner {wrong.index} of card {NEW.id} on "
        rf"card #{HOST.id}: the corner is \w+, card #{HOST.id} is purple",
    ) as exc:
        g.auto_fit(0, NEW.id, wrong.index, HOST.id)
    assert exc.value.rule == "P1"
    assert exc.value.details["reason"] == "color"
    assert (exc.value.details["corner_color"], exc.value.details["target_color"]) == (wrong.color, "P")


def test_auto_fit_on_a_covered_card_says_so() -> None:
    cover = find_card(lambda c: c.id not in (HOST.id, NEW.id))
    g = game([[NEW.id], []], [host_entry(HOST, F), {**host_entry(HOST, F), "card": cover.id}])
    with pytest.raises(IllegalActionError, match="covered") as exc:
        g.auto_fit(0, NEW.id, NEW_CORNER.index, HOST.id)
    assert exc.value.rule == "P1" and exc.value.details["reason"] == "covered"


def test_auto_fit_fenced_in_names_the_cards_in_the_way() -> None:
    g, fence = fenced()
    with pytest.raises(IllegalActionError, match=r"every pose with the corner there touches card #") as exc:
        g.auto_fit(0, NEW.id, NEW_CORNER.index, HOST.id)
    err = exc.value
    assert err.rule == "P2" and err.details["reason"] == "blocked"
    blockers = err.details["blockers"]
    assert blockers and all(b["rule"] in ("P2", "P3") for b in blockers)
    assert {b["other"] for b in blockers if b["rule"] == "P2"} <= set(fence)
    assert sum(b["share"] for b in blockers) == pytest.approx(1.0, abs=0.05)
    assert err.details["poses_tried"] > 20


def test_auto_fit_on_the_score_track_is_blocked_by_the_board() -> None:
    """A host lying wholly on the board: every card leaving it touches the board (P2)."""
    g = game([[NEW.id], []], [{"card": HOST.id, "x_mm": 0.0, "y_mm": 0.0, "rotation": 0.0}])
    with pytest.raises(IllegalActionError, match=r"touches the scoring board \(P2\)") as exc:
        g.auto_fit(0, NEW.id, NEW_CORNER.index, HOST.id)
    assert exc.value.details["blockers"][0]["other"] == "board"
    assert exc.value.details["blockers"][0]["share"] >= 0.9


def test_place_without_rotation_blocked_everywhere_names_the_blockers() -> None:
    g, fence = fenced()
    err = refusal(g, Place(0, NEW.id, NEW_CORNER.index, 30.0, 0.0, None))
    assert err.rule in ("P2", "P3")
    head = f"no rotation of card {NEW.id} is legal with corner {NEW_CORNER.index} at (30.0, 0.0)"
    assert err.message.startswith(head)
    assert err.details["reason"] == "blocked" and err.details["at_cm"] == (30.0, 0.0)
    assert err.details["poses_tried"] == 72
    assert {b["other"] for b in err.details["blockers"] if b["rule"] == "P2"} <= set(fence)


def test_place_without_rotation_off_any_target_is_p1_with_what_lies_there() -> None:
    g = base_game()
    err = refusal(g, Place(0, NEW.id, NEW_CORNER.index, -40.0, 30.0, None))
    assert err.rule == "P1"
    assert err.details["under"] == [{"kind": "table"}]
    assert "bare table" in err.message
