"""CONEX AI levels in the bot (issue 25): the seat names say the level in words (English, Spanish), the AI seat
plays its own level, a hard seat's turn runs on the background lane and its discard on the light one."""

from __future__ import annotations

from bot.games.conex.ai import ai_action
from bot.games.conex.kind import KIND
from engine.conex import Game
from engine.conex.ai import first_fit
from engine.conex.ai_levels import LEVELS, decide_level


def midgame() -> Game:
    game = Game.new(players=3, seed=5, table="medium", goal=40)
    for _ in range(24):
        game.play(first_fit(game, game.current_player))
    return game


def test_seat_names_say_the_level_in_words() -> None:
    names = KIND.narration
    assert names.ai_seat_name("hard", 1, None) == "AI 1 (hard)"
    assert names.ai_seat_name("easy", 2, "en") == "AI 2 (easy)"
    assert names.ai_seat_name("hard", 2, "es") == "IA 2 (difícil)"
    assert names.ai_seat_name("medium", 3, "es") == "IA 3 (media)"
    assert KIND.seating.ai_levels == LEVELS and KIND.seating.default_level == "medium"


def test_the_ai_seat_plays_its_level() -> None:
    game = midgame()
    seat = game.current_player
    for level in LEVELS:
        assert ai_action(game, seat, level, 11) == str(decide_level(game, seat, level, 11).action)
    assert len({ai_action(game, seat, level, 11) for level in LEVELS}) > 1  # the levels do differ here


def test_hard_turns_search_in_the_background_lane() -> None:
    game = midgame()
    seat = game.current_player
    rules = KIND.rules
    assert rules.ai_lane(game, seat, "hard") == "background"
    assert rules.ai_lane(game, seat, "medium") == rules.ai_lane(game, seat, "easy") == "light"
    game.pending_discards = {seat}
    assert rules.ai_lane(game, seat, "hard") == "light"  # a discard takes a millisecond
