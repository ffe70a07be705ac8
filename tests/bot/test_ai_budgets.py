"""The AI seats' searches end on node or call budgets, never on the clock: the bot's AI functions give the same
action on an idle and on a busy machine (the clock is replaced by one that races, as a loaded machine's would seem
to). Constructo's hard level: a node budget; CONEX: 100 finder calls, the wall-clock cap far above any search."""

from __future__ import annotations

import itertools
import time

import pytest

from bot.games.conex.ai import ai_action as conex_ai
from bot.games.constructo.kind import ai_action as constructo_ai
from engine.conex import Game
from engine.conex.ai import choose_action, first_fit
from engine.constructo import Match


def racing_clock(monkeypatch: pytest.MonkeyPatch, step_s: float) -> None:
    """Every ``time.perf_counter()`` read is ``step_s`` later than the one before."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * step_s)


def conex_midgame() -> Game:
    game = Game.new(players=3, seed=5, table="medium", goal=40)
    for _ in range(24):
        game.play(first_fit(game, game.current_player))
    return game


def test_conex_ai_seat_acts_the_same_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    game = conex_midgame()
    calm = conex_ai(game, game.current_player, "medium", 0)
    assert calm.startswith("place")
    racing_clock(monkeypatch, 0.5)  # the decision reads the clock ~8 times: 4 "seconds" pass
    assert conex_ai(game, game.current_player, "medium", 0) == calm
    # the contrast: the 1-s cap the bot used before cut this search short and drew a card instead
    assert str(choose_action(game, game.current_player, 0, 1.0)) != calm


def test_constructo_hard_ai_seat_plays_the_same_move_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    match = Match.new("rombo", first=0)
    for _ in range(3):
        match.play(match.current_round.legal_moves()[0])
    calm = constructo_ai(match, match.current_player, "hard", 7)
    racing_clock(monkeypatch, 5.0)
    assert constructo_ai(match, match.current_player, "hard", 7) == calm
