"""Offers (bot/services/offers.py): the AI's takeback policy, what counts as a move for "rated only when each
player has moved", and the logged offer texts the log replay skips."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.core.results import unmoved_seats
from bot.services import offers
from engine.constructo import Match


def _snap(has_ai: bool) -> Any:
    return SimpleNamespace(has_ai=has_ai)


def test_the_ai_accepts_takebacks_in_unrated_games_and_declines_in_rated_ones() -> None:
    assert offers.ai_accepts_takeback(_snap(has_ai=True)) is True  # games against the AI are never rated
    assert offers.would_be_rated(_snap(has_ai=False)) is True
    assert offers.ai_accepts_takeback(_snap(has_ai=False)) is False


def test_a_taken_back_move_and_an_agreed_draw_are_no_moves() -> None:
    assert unmoved_seats([(0, "L5"), (1, "M4"), (1, "takeback"), (1, "agreed draw")], 2) == [1]
    assert unmoved_seats([(0, "L5"), (1, "M4"), (1, "takeback"), (0, "takeback")], 2) == [0, 1]
    assert unmoved_seats([(0, "L5"), (1, "M4"), (1, "takeback"), (1, "S1")], 2) == []


def test_a_card_drawn_is_still_a_move() -> None:
    assert unmoved_seats([(0, "draw"), (1, "draw")], 2) == []  # CONEX: drawing a card is a move


def test_offer_texts_are_not_engine_actions() -> None:
    m = Match.new("rombo")
    for text in offers.OFFER_ACTIONS:
        try:
            m.parse_action(text, 0)
        except ValueError:
            continue
        raise AssertionError(f"{text!r} reads as an engine action")
    assert {"offer draw", "decline takeback", "cancel draw"} <= offers.OFFER_ACTIONS
