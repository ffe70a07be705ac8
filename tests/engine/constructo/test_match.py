"""Match flow: M1 (who starts and chooses), M2 (totals, draw), M3 (resignation)."""

from __future__ import annotations

import random

import pytest

from engine.constructo import LAYOUTS, IllegalMoveError, Match, NotYourTurnError, Round
from engine.errors import InvalidInputError

NO_MOVE_END = "L2 S3 L7 M6 S4 S5 M9 L8 M1"  # rombo: ends 0-0 after 9 placements (check 5)


def play_out(match: Match, rng: random.Random) -> None:
    rnd = match.current_round
    while not rnd.is_over:
        match.play(rng.choice(rnd.legal_moves()))


def test_M1_round2_chooser_is_the_player_who_did_not_start_round1() -> None:
    for first in (0, 1):
        match = Match.new(LAYOUTS["rombo"], first=first)
        assert match.phase == "playing" and match.round_no == 1 and match.chooser is None
        assert match.current_player == first
        play_out(match, random.Random(first))
        assert match.phase == "choosing_layout"
        assert match.chooser == 1 - first and match.current_player == 1 - first
        with pytest.raises(IllegalMoveError) as info:
            match.play("L1")
        assert info.value.rule == "M1"
        with pytest.raises(NotYourTurnError, match="did not start round 1 chooses the layout of round 2"):
            match.choose_layout(first, "flor")
        rnd2 = match.choose_layout(1 - first, "rombo")  # the same layout again is allowed
        assert match.round_no == 2 and match.current_round is rnd2 and rnd2.first == 1 - first
        assert match.current_player == 1 - first and match.phase == "playing"
        with pytest.raises(IllegalMoveError, match="M1"):
            match.choose_layout(1 - first, "flor")


def test_M1_choose_layout_before_round1_ends_is_refused() -> None:
    match = Match.new("flor")
    with pytest.raises(IllegalMoveError) as info:
        match.choose_layout(1, "rombo")
    assert info.value.rule == "M1"
    with pytest.raises(InvalidInputError):
        match.choose_layout(5, "rombo")


def test_M2_totals_over_both_rounds_and_draw() -> None:
    match = Match.new("rombo", first=0)
    for t in NO_MOVE_END.split():
        match.play(t)
    assert match.round_scores() == [(0, 0)]
    match.choose_layout(1, "rombo")
    # round 2, player 1 starts: copy the 0-0 ending with colours swapped
    for t in NO_MOVE_END.split():
        match.play(t)
    assert match.is_over and match.phase == "over"
    assert match.totals() == (0, 0) and match.winner is None and match.is_draw
    assert match.current_player is None
    with pytest.raises(IllegalMoveError, match="E1"):
        match.play("L1")


def test_M2_winner_has_the_higher_total() -> None:
    rng = random.Random(3)
    seen_winner = False
    for _ in range(12):
        match = Match.new("cinta", first=rng.randrange(2))
        play_out(match, rng)
        match.choose_layout(match.chooser, "corona")  # type: ignore[arg-type]
        play_out(match, rng)
        a, b = match.totals()
        rs = match.round_scores()
        assert (a, b) == (rs[0][0] + rs[1][0], rs[0][1] + rs[1][1])
        assert match.winner == (0 if a > b else 1 if b > a else None)
        seen_winner |= match.winner is not None
    assert seen_winner


def test_M3_resignation_ends_match_as_a_loss_whatever_the_score() -> None:
    match = Match.new("rombo", first=0)
    for t in "L5 M4 S1 4-5".split():
        match.play(t)
    assert match.totals() == (0, 1)
    match.resign(1)  # player 1 is ahead but resigns
    assert match.is_over and match.resigned == 1 and match.winner == 0 and not match.is_draw
    with pytest.raises(IllegalMoveError) as info:
        match.play("S2")
    assert info.value.rule == "M3"
    with pytest.raises(IllegalMoveError, match="M3"):
        match.resign(0)


def test_match_play_checks_player() -> None:
    match = Match.new("rombo", first=1)
    with pytest.raises(NotYourTurnError):
        match.play("L5", player=0)
    match.play("L5", player=1)
    assert match.current_round.tile(5)[0][0] == 1
    assert isinstance(match.current_round, Round)
