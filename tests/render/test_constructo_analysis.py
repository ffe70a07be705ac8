"""Pictures of a Constructo analysis: the value graph (every label 9 px capitals at 400 px, the turning point and
each change of result drawn where the analysis says) and the board at the turning point (the position right after
that action, S2 values from seat 0's side)."""

from __future__ import annotations

from typing import Any

from engine.constructo import Match, Round
from render.common import THEMES, hex_rgb
from render.constructo_analysis import (
    PANEL_H,
    match_at,
    render_turning_board,
    render_value_graph,
    round_values,
)
from render.text import MIN_CAP_PX_AT_400, cap_px_at_phone, record_labels

RECORD = "rombo: S1 L2 M9 2-1 L5 M4 S6 4-5"


def move(index: int, player: int, before: int, after: int, code: str = "best", exact: bool = True) -> dict[str, Any]:
    return {
        "index": index,
        "player": player,
        "move": "L5",
        "value_before": before,
        "value_after": after,
        "exact": exact,
        "best": "L5",
        "loss": before - after,
        "code": code,
        "outcome_before": "draw",
        "outcome_after": "draw",
    }


def stored() -> dict[str, Any]:
    """A stored analysis: seat 0 even, move 2 (seat 1) turns its draw into a loss, then seat 0 wins by 1."""
    return {
        "round": 1,
        "layout": "rombo",
        "scale": 100,
        "start_value": 0,
        "start_exact": False,
        "turning_point": 1,
        "moves": [
            move(0, 0, 0, 0, exact=False),
            move(1, 1, 0, -100, "draw_to_loss"),
            move(2, 0, 100, 100),
            move(3, 1, -100, -100),
        ],
    }


def test_values_are_seen_from_seat_0_position_by_position() -> None:
    assert round_values(stored()) == [(0.0, False), (0.0, True), (1.0, True), (1.0, True), (1.0, True)]


def test_graph_labels_are_readable_at_400px_and_the_turning_point_is_marked() -> None:
    with record_labels() as log:
        img = render_value_graph([stored(), stored()], names=("Alice", "Bob"), titles=["Round 1", "Ronda 2"])
    assert img.size == (800, 2 * PANEL_H + 16)
    labels = [lb for lb in log if lb.image is img]
    assert all(cap_px_at_phone(lb.size, img.width) >= MIN_CAP_PX_AT_400 for lb in labels)
    texts = [lb.text for lb in labels]
    assert {"Round 1", "Ronda 2", "A +1", "B +1", "2"} <= set(texts)  # "2": move 2, the turning point
    assert all(0 <= lb.box[0] and lb.box[2] <= img.width for lb in labels)
    tp = next(lb for lb in labels if lb.text == "2")
    band = img.getpixel((round((tp.box[0] + tp.box[2]) / 2), round(tp.box[1] - 40)))
    assert band != hex_rgb(THEMES["dark"].panel)  # a highlighted band above the turning point's number


def test_board_at_the_turning_point_is_the_position_right_after_it() -> None:
    rnd = Round.from_record(RECORD)
    match = Match(0, [rnd])
    at = match_at(match, 0, 4)
    assert [str(m) for m in at.current_round.history] == RECORD.split(": ")[1].split()[:4]
    assert match.current_round.record() == RECORD  # the stored match is not changed
    img = render_turning_board(match, 0, 3, names=("Alice", "Bob"))
    from render.constructo import render_board

    assert img.tobytes() == render_board(at, names=("Alice", "Bob")).tobytes()
