"""Sample positions of real CONEX games, for pictures, benchmarks and tests: no rule lives here.

:func:`first_fit_game` plays a seeded game where every seat lays the first legal pose the engine's finder gives for
the first card of its hand that has one (rules P1-P5 as the finder checks them, ``docs/rules/conex.md``), and
draws when none has.
"""

from __future__ import annotations

from engine.conex.actions import Draw
from engine.conex.game import Game


def first_fit_game(placed: int, *, players: int = 3, seed: int = 11) -> Game:
    """A new ``players``-seat game dealt from ``seed`` after ``placed`` cards are laid (draws between them as
    needed): each turn the finder's first legal pose of the seat's first card that has one, else a draw.

    Raises ValueError for ``placed`` < 0 or more cards than the game lays before it ends (and what ``Game.new``
    raises for a bad ``players``). Deterministic: the same arguments give the same game."""
    if placed < 0:
        raise ValueError(f"placed must be >= 0, not {placed}")
    game = Game.new(players=players, seed=seed)
    laid = 0
    while laid < placed:
        seat = game.current_player
        if seat is None:  # the game ended before that many cards were laid
            raise ValueError(f"the game ended after {laid} cards, before {placed}")
        for card in game.hand(seat):
            found = game.find_placements(seat, card.id, limit=1)
            if found:
                game.play(found[0])
                laid += 1
                break
        else:
            game.play(Draw(seat))
    return game
