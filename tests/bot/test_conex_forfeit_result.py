"""Forfeits (the engine's ``Forfeit``) and the end-of-game pictures: the result card, its text twin and the final
table header name the same winners as the ranking storage gets (E3 among the seats still in play; forfeited seats
last, never winners). Regression: a 2-player game ended by a forfeit showed "Shared win" for both seats."""

from __future__ import annotations

import pytest

from bot.core.results import outcome_result
from engine.conex import Forfeit, Game
from render.conex import render_table, table_text
from render.results import conex_result_text, conex_winners, render_conex_result

NAMES = ["Alice", "Bob", "Carol", "Dave"]


def ended_by_forfeits(players: int, leavers: list[int], ai: frozenset[int] = frozenset()) -> tuple[Game, set[int]]:
    """A fresh game (``ai`` seats played by a program) in which ``leavers`` forfeit one after the other."""
    game = Game.new(players=players, seed=11, table="small", goal=20, bots=sorted(ai))
    for seat in leavers:
        game.apply(Forfeit(seat))
    return game, set(game.forfeited)


@pytest.mark.parametrize(
    ("players", "leavers", "ai", "winner_seats"),
    [
        (2, [1], frozenset(), [0]),  # Bob leaves: Alice wins alone
        (4, [2, 3, 0], frozenset(), [1]),  # Carol, Dave, Alice leave: Bob wins alone
        (3, [0, 1], frozenset({2}), [2]),  # both humans leave, the AI seat remains
    ],
)
def test_forfeit_result_names_the_stored_winners(
    players: int, leavers: list[int], ai: frozenset[int], winner_seats: list[int]
) -> None:
    game, forfeited = ended_by_forfeits(players, leavers, ai)
    assert game.is_over
    ids = list(range(players))
    assert game.outcome is not None
    assert outcome_result(game.outcome, ids)["ranking"][0] == winner_seats  # what storage rates
    assert conex_winners(game) == winner_seats  # what the pictures say
    names = NAMES[:players]
    text = conex_result_text(game, names=names)
    headline = text.splitlines()[0]
    assert headline.endswith(f"{names[winner_seats[0]]} wins!"), headline
    for seat in forfeited:
        assert f"{names[seat]} — 0 points (left)" in text
        assert f"{names[seat]} — 0 points (winner)" not in text
    first = text.splitlines()[1]
    assert first.startswith(f"1. {names[winner_seats[0]]}"), text
    assert f"game over — {names[winner_seats[0]]} wins" in table_text(game, names=names)
    assert render_conex_result(game, names=names).size[0] == 800
    assert max(render_table(game, names=names).size) >= 1000


def test_without_forfeits_the_engine_winners_stand() -> None:
    game, _ = ended_by_forfeits(3, [])
    assert not game.is_over and conex_winners(game) == []
    assert "Game in progress" in conex_result_text(game, names=NAMES[:3])


def test_game_over_table_drops_the_first_turn_tip() -> None:
    game, _ = ended_by_forfeits(2, [1])
    text = table_text(game, names=NAMES[:2])
    assert "No cards on the table yet" not in text and "No card was placed." in text
