"""The AI's answer to a draw offer (engine/constructo/verdict.py): accept when its evaluation says it is not
winning, play on when it expects to win the match (M2 totals)."""

from __future__ import annotations

import random

import pytest

from engine.constructo import Match
from engine.constructo.verdict import accepts_draw, expected_margin


def _round_one_played(layout: str, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match.new(layout)
    while m.phase == "playing":
        seat = m.current_player
        assert seat is not None
        m.apply(rng.choice(m.legal_actions(seat)))
    return m


def test_an_even_start_is_not_winning_so_the_draw_is_accepted() -> None:
    m = Match.new("rombo")
    assert expected_margin(m, 0) == 0 and expected_margin(m, 1) == 0
    assert accepts_draw(m, 0) and accepts_draw(m, 1)


def test_the_leader_plays_on_and_the_trailer_accepts() -> None:
    m = _round_one_played("rombo", 0)  # round 1 ended 2-1, round 2 not begun (counts as even)
    assert m.phase == "choosing_layout" and m.round_scores() == [(2, 1)]
    assert expected_margin(m, 0) == 1 and expected_margin(m, 1) == -1
    assert not accepts_draw(m, 0)
    assert accepts_draw(m, 1)


def test_a_round_in_play_counts_as_the_search_says_it_ends() -> None:
    m = _round_one_played("rombo", 0)
    m.choose_layout(1, "linea")
    margin = expected_margin(m, 0, max_nodes=50_000)
    assert margin == -expected_margin(m, 1, max_nodes=50_000)
    with pytest.raises(ValueError):
        expected_margin(m, 2)
