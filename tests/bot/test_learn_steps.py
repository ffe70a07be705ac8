"""The tutorials' step logic (``bot/services/tutorial.py`` and each game's ``tutorial.py``), without Discord: which
rule a board teaches, once, and when each rule first matters (rules named as in docs/rules/*.md)."""

from __future__ import annotations

import pytest

from bot.core import registry
from bot.games.conex.tutorial import LESSON as CN
from bot.games.conex.tutorial import reached as cn_reached
from bot.games.constructo.tutorial import LESSON as CX
from bot.games.constructo.tutorial import reached as cx_reached
from bot.i18n import t
from bot.services.tutorial import advance, lesson_of, shown_at, step_text, unmet
from engine.conex import Game, Place
from engine.constructo import Match


def test_advance_teaches_each_step_once_at_the_first_board_where_it_matters() -> None:
    steps = ("a", "b", "c")
    taught = advance({}, ["a"], steps, 0)
    assert taught == {"a": 0}
    taught = advance(taught, ["a", "b", "unknown"], steps, 3)
    assert taught == {"a": 0, "b": 3}, "a step taught before keeps its board; unknown names are ignored"
    assert advance(taught, ["b"], steps, 5) == taught, "nothing new: the board teaches nothing"
    assert shown_at(taught, steps, 3) == ["b"] and shown_at(taught, steps, 4) == []
    assert unmet(taught, steps) == ["c"]


def test_a_board_posted_again_shows_the_same_steps() -> None:
    """Recovery re-posts the board of a version: the progress says which steps that board taught."""
    taught = advance(advance({}, ["a", "b"], ("a", "b"), 0), ["a", "b"], ("a", "b"), 0)
    assert shown_at(taught, ("a", "b"), 0) == ["a", "b"]


# -- the chips and towers game -------------------------------------------------------------------------------------
def _match(*moves: str) -> Match:
    match = Match.new({"layout": "rombo", "first": 0})
    for i, move in enumerate(moves):
        match.play(move, i % 2)
    return match


def test_constructo_first_board_teaches_the_layout_and_placing_only() -> None:
    assert cx_reached(_match(), 0) == ["layout", "place"]


def test_constructo_stacking_matters_when_the_learner_can_move_onto_a_bigger_chip() -> None:
    """K1: the learner's lone medium next to the AI's lone large (rombo: tiles 4 and 5 are adjacent)."""
    assert "stack" in cx_reached(_match("M4", "L5"), 0)
    assert "swallow" not in cx_reached(_match("M4", "L5"), 0)


def test_constructo_swallowing_matters_when_a_lone_large_meets_a_lone_small() -> None:
    """K4: the learner's large next to the AI's small can swallow it; once done the swallow stays taught and is
    no tower (S1)."""
    assert "swallow" in cx_reached(_match("L5", "S4"), 0)
    swallowed = _match("L5", "S4", "5-4", "M1")
    assert "swallow" in cx_reached(swallowed, 0) and "tower" not in cx_reached(swallowed, 0)


def test_constructo_a_tower_on_the_board_teaches_stacking_and_towers() -> None:
    """S1/S2: the AI's medium on the learner's large (worked check 2 with the seats swapped) is a tower."""
    match = _match("L5", "M4", "S1", "4-5")
    assert {"stack", "tower"} <= set(cx_reached(match, 0))


def test_constructo_the_end_of_round_one_teaches_the_round_end_and_the_match() -> None:
    """E1, M1: play round 1 to its end with the first legal action each turn."""
    match = _match()
    while match.round_no == 1 and match.phase == "playing":
        match.play(str(match.current_round.legal_moves()[0]), match.current_player)
    assert {"round_end", "match"} <= set(cx_reached(match, 0))
    assert {"round_end", "match"}.isdisjoint(cx_reached(_match("L5"), 0))


# -- the card game --------------------------------------------------------------------------------------------------
def _game() -> Game:
    return Game.new({"players": 2, "seed": 12345, "table": "small", "goal": 20, "bots": [1]})


def test_conex_first_board_teaches_the_hand_and_the_corners() -> None:
    game = _game()
    first = cn_reached(game, 0)
    assert first[:2] == ["hand", "corners"] and "no_touch" not in first and "draw" not in first
    assert ("die" in first) == any(c.action == "die" for c in game.hand(0)), "X1: a die card in the hand"


def test_conex_a_card_on_the_table_teaches_no_touching_and_scoring_and_the_second_turn_drawing() -> None:
    game = _game()
    place = next(a for a in game.legal_actions(0) if isinstance(a, Place))
    game.play(place)
    game.play(next(a for a in game.legal_actions(1) if not isinstance(a, Place)))  # the AI draws
    steps = cn_reached(game, 0)
    assert {"no_touch", "score", "draw"} <= set(steps), steps
    assert "goal" not in steps


def test_conex_the_goal_matters_from_half_the_goal() -> None:
    game = _game()
    game.scores[1] = 10
    assert "goal" in cn_reached(game, 0)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_every_step_has_one_sentence_in_both_languages_without_rule_codes(locale: str) -> None:
    kinds = registry.kinds()
    for name, lesson, state in (("constructo", CX, _match()), ("conex", CN, _game())):
        kind = kinds[name]
        assert lesson_of(kind) is lesson
        for step in lesson.steps:
            text = step_text(kind, lesson, state, step, locale)
            assert t(f"{kind.prefix}.learn.{step}", locale, **lesson.words(state)) in text
            assert "{" not in text and "learn." not in text, text
            english = t(f"{kind.prefix}.learn.{step}", "en-US", **lesson.words(state))
            assert locale == "en-US" or text.find(english) < 0, "the Spanish sentence is Spanish"
            for code in ("K1", "K2", "K3", "K4", "S1", "S2", "E1", "M1", "P1", "P2", "V1", "X1", "A2", "T1"):
                assert code not in text, (step, text)


def test_steps_are_numbered_in_the_order_the_learner_reads_them() -> None:
    from bot.services.tutorial import taught_order

    taught = {"swallow": 4, "layout": 0, "place": 0, "stack": 6}
    assert taught_order(taught, CX.steps) == ["layout", "place", "swallow", "stack"]


def test_constructo_gentle_steer_offers_stacking_then_swallowing_once_each() -> None:
    """The AI's steer (bot/games/constructo/tutorial.py): a placement letting the learner stack (K1/K2), then one
    letting them swallow (K4); never twice for a rule, never for the learner's seat."""
    from bot.games.constructo.tutorial import offers, steer

    match = _match("M5")
    assert steer(match, 0, 0) is None, "never the learner's move"
    first = steer(match, 1, 0)
    assert first is not None and first.startswith("L"), first  # a large beside the lone medium: K1
    match.play(first, 1)
    assert offers(match.current_round) == {"stack"}
    match.play("L1", 0)  # the learner places instead; a lone large now
    second = steer(match, 1, 0)
    assert second is not None and second.startswith("S"), second
    match.play(second, 1)
    assert "swallow" in offers(match.current_round)
    match.play("M9", 0)
    assert steer(match, 1, 0) is None, "both rules were offered: the AI plays its own moves"


def test_the_steer_is_a_legal_action_in_every_position_of_random_tutorials() -> None:
    """Property: whatever the learner does, a steered action is legal for the AI seat (it is committed through the
    engine like any action)."""
    import random

    from bot.games.constructo.tutorial import steer
    from engine.constructo import ai

    for seed in range(20):
        rng = random.Random(seed)
        match = _match()
        while not match.is_over:
            seat = match.current_player
            if match.phase == "choosing_layout":
                match.apply(match.legal_actions(seat)[0])
                continue
            steered = steer(match, seat, 0) if seat == 1 else None
            if steered is not None:
                assert steered in {str(m) for m in match.current_round.legal_moves()}
                match.play(steered, seat)
            elif seat == 1:
                match.play(ai.choose_move(match, "easy", seed), seat)
            else:
                match.play(rng.choice(match.current_round.legal_moves()), seat)
