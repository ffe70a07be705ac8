"""The hard CONEX AI's last round (issue 25, ``engine/conex/ai_endgame.py``): the chance to win of a move once the
goal is reached (E1, E3), from the hypergeometric law of the later seats' best replies (V1, V2, V3)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.conex.ai_endgame import _at_most, last_round_value, win_chance
from engine.conex.ai_model import DECK, DEFAULT_WEIGHTS, Context, Threat, card_score

ALL = frozenset("YRTP")


def ctx(me: int, scores: list[int], hands: list[int], *, opp_2x: set[int] | None = None) -> Context:
    """A 3-seat last-round context for seat ``me`` (only the fields the endgame reads matter)."""
    c = Context(
        me=me,
        players=3,
        goal=40,
        scores=scores,
        hand=[],
        hand_counts=hands,
        unseen=[],
        pile=10,
        goal_reached=True,
        stars={"2x": None, "lightning": None},
        star_usable_2x=False,
        w=DEFAULT_WEIGHTS,
        rng=random.Random(0),
        deadline=float("inf"),
        max_calls=100,
    )
    c.opp_2x = opp_2x or set()
    return c


UNSEEN = sorted(DECK)[:12]


@pytest.mark.parametrize(("hand", "t"), [(1, 3), (2, 4), (3, 5), (2, 6), (3, 7), (0, 0)])
def test_best_reply_law_is_exact_against_every_hand(hand: int, t: int) -> None:
    threat = Threat(UNSEEN)
    open_c, plus2 = frozenset("YRT"), frozenset("R")
    scores = [card_score(DECK[i], open_c, plus2) for i in UNSEEN]
    hands = list(itertools.combinations(scores, hand))
    brute = sum(1 for h in hands if max(h, default=0) <= t) / len(hands)
    assert _at_most(threat, open_c, plus2, hand, t) == pytest.approx(brute)


def test_a_finished_seat_above_the_final_score_means_a_lost_game_e3() -> None:
    threat = Threat(UNSEEN)
    c = ctx(1, [41, 35, 0], [3, 4, 5])  # seat 0 has played its last turn with 41
    assert win_chance(c, threat, ALL, frozenset(), 5, False) == 0.0
    assert win_chance(c, threat, ALL, frozenset(), 6, False) > 0.0  # 41 ties 41: ties win (E3)


def test_no_reply_can_catch_up_seven_points_without_the_2x_star_v1_v2_v3() -> None:
    threat = Threat(UNSEEN)
    assert win_chance(ctx(1, [30, 40, 33], [3, 4, 5]), threat, ALL, ALL, 0, False) == 1.0
    # the same seat holding a usable 2x star may double a 4 + 2 reply
    assert win_chance(ctx(1, [30, 40, 33], [3, 4, 5], opp_2x={2}), threat, ALL, ALL, 0, False) < 1.0
    # a later seat without cards cannot score (A2/A3 score nothing)
    assert win_chance(ctx(1, [30, 40, 39], [3, 4, 0]), threat, ALL, ALL, 0, False) == 1.0


def test_chance_grows_with_the_points_and_shrinks_with_what_is_left_open() -> None:
    threat = Threat(sorted(DECK)[10:40])
    c = ctx(0, [38, 36, 37], [4, 4, 4])
    chances = [win_chance(c, threat, ALL, frozenset(), g, True) for g in range(0, 9)]
    assert chances == sorted(chances) and chances[0] < chances[-1] == 1.0
    # an open +2 target in every colour gives the later seats more: never a better chance
    assert win_chance(c, threat, ALL, ALL, 3, True) <= win_chance(c, threat, ALL, frozenset(), 3, True)
    assert last_round_value(c, threat, ALL, frozenset(), 3, True) > last_round_value(c, threat, ALL, ALL, 3, True)
