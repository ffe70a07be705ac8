"""Takebacks (the engine's undo of the last move) and agreed draws of a Constructo match (README design notes:
offers; the consent is the bot's, the engine applies the agreed action)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.constructo import AgreeDraw, IllegalMoveError, Match, Takeback
from engine.constructo.events import DrawAgreed, TakenBack
from engine.protocol import Result, TurnStarted
from engine.record import export_record, load_record


def _position(match: Match) -> dict:
    """Everything of the match but its history: rounds (stacks, reserves, moves), phase, totals, outcome."""
    d = match.to_dict()
    d.pop("history")
    return d


def test_takeback_restores_the_exact_position() -> None:
    m = Match.new("rombo")
    m.play("L5")
    before = _position(m)
    legal = [str(a) for a in m.legal_actions(1)]
    m.play("M4")
    applied = m.apply(Takeback(1))
    assert applied.events == (TakenBack(1, "M4", 1), TurnStarted(1))
    assert _position(m) == before
    assert [str(a) for a in m.legal_actions(1)] == legal
    assert m.current_player == 1
    assert m.history == [(0, "L5"), (1, "M4"), (1, "takeback")]


def test_takeback_only_of_ones_own_last_move() -> None:
    m = Match.new("rombo")
    with pytest.raises(IllegalMoveError) as none_yet:
        m.apply(Takeback(0))
    assert none_yet.value.rule == "takeback"
    m.play("L5")
    with pytest.raises(IllegalMoveError):
        m.apply(Takeback(1))  # the last move is the opponent's
    m.apply(Takeback(0))
    with pytest.raises(IllegalMoveError):
        m.apply(Takeback(0))  # nothing left on the board to take back


def test_takeback_reopens_a_finished_round_but_not_a_layout_choice() -> None:
    m = Match.new("linea")
    seat = 0
    while m.phase == "playing":
        move = m.legal_actions(seat)[0]
        m.apply(move)
        seat = m.current_player if m.current_player is not None else seat
    assert m.phase == "choosing_layout"
    last_seat, _last = m.history[-1]
    m.apply(Takeback(last_seat))
    assert m.phase == "playing" and m.current_player == last_seat
    m.apply(m.legal_actions(last_seat)[0])
    m.choose_layout(1, "rombo")
    with pytest.raises(IllegalMoveError):
        m.apply(Takeback(1))  # a layout choice is no move


def test_agreed_draw_ends_the_match_drawn_whatever_the_score() -> None:
    m = Match.new("rombo")
    for text in ("L5", "M4", "S1", "4-5"):  # player 1 leads one tower to none
        m.play(text)
    assert m.totals() == (0, 1)
    applied = m.apply(AgreeDraw(0))
    assert isinstance(applied.events[0], DrawAgreed)
    out = m.outcome
    assert out is not None and out.reason == "agreed" and out.results == (Result.DRAW, Result.DRAW)
    assert out.ranking == ((0, 1),) and out.scores == (0, 1)
    assert m.is_over and m.is_draw
    with pytest.raises(IllegalMoveError):
        m.apply(Takeback(1))
    with pytest.raises(IllegalMoveError):
        m.apply(AgreeDraw(1))


def test_records_with_takebacks_and_draws_replay() -> None:
    m = Match.new("flor")
    for text in ("L5", "M4", "takeback", "S1", "L2", "takeback", "M2"):
        seat = m.current_player if text != "takeback" else m.history[-1][0]
        m.apply(m.parse_action(text, seat))
    m.apply(AgreeDraw(1))
    again = Match.from_dict(m.to_dict())
    assert again.history == m.history and _position(again) == _position(m)
    record = export_record(m, names=["Ana", "Bo"])
    loaded = load_record(record, games=[Match])
    assert loaded.history == m.history and loaded.outcome == m.outcome


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40),
    st.sampled_from(["rombo", "corona", "linea"]),
)
def test_property_random_play_then_takeback_is_the_previous_state(picks: list[int], layout: str) -> None:
    """Random legal actions; after each move, a takeback gives back the state before it (position, legal actions,
    player to move), and playing the move again gives the state after it."""
    m = Match.new(layout)
    for pick in picks:
        seat = m.current_player
        if seat is None:
            break
        legal = m.legal_actions(seat)
        action = legal[pick % len(legal)]
        before, legal_before = _position(m), [str(a) for a in legal]
        m.apply(action)
        after = _position(m)
        if m.last_move(seat) is None:  # a layout choice, or the match ended
            continue
        m.apply(Takeback(seat))
        assert _position(m) == before
        assert [str(a) for a in m.legal_actions(seat)] == legal_before and m.current_player == seat
        m.apply(action)
        assert _position(m) == after
    assert Match.from_dict(m.to_dict()).history == m.history
