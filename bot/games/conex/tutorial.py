"""CONEX's lesson (``/learn conex``, ``bot/services/tutorial.py``): which rule matters when.

The tutorial is a real two-player game on the small table with a goal of 20 points against the easy AI; the learner
(seat 0) starts. Steps, in teaching order, each taught on the first board where it matters for the learner (rules of
``docs/rules/conex.md``):

- ``hand`` (U2) and ``corners`` (A1, P1): from the first board;
- ``no_touch`` (P2, P3, P4) and ``score`` (V1, V2): once a card lies on the table;
- ``die`` (X1): the learner holds a die card, or the die was rolled;
- ``stars`` (X2, X3, V3): someone holds a star;
- ``draw`` (A2, A3): from the learner's second turn;
- ``goal`` (E1, E3): someone has half the goal, or the game is over.
"""

from __future__ import annotations

from typing import Any

from bot.services.tutorial import Lesson
from engine.conex import Game

STEPS: tuple[str, ...] = ("hand", "corners", "no_touch", "score", "die", "stars", "draw", "goal")
GOAL = 20
"""The tutorial's goal (U3: the smallest a game may choose), so the first game stays short."""


def reached(game: Game, learner: int) -> list[str]:
    """The steps whose rule matters in ``game`` for seat ``learner`` (see the module docstring). Pure and cheap
    (no placement search)."""
    out = ["hand", "corners"]
    if game.table:
        out += ["no_touch", "score"]
    if game.rolls > 0 or any(card.action == "die" for card in game.hand(learner)):
        out.append("die")
    if any(holder is not None for holder in game.stars.values()):
        out.append("stars")
    if game.turn >= game.num_players:
        out.append("draw")
    if game.is_over or 2 * max(game.scores) >= game.goal:
        out.append("goal")
    return out


def words(game: Any) -> dict[str, Any]:
    """The placeholders of the step sentences: the game's goal."""
    return {"goal": getattr(game, "goal", GOAL)}


LESSON = Lesson(steps=STEPS, reached=reached, options={"table": "small", "goal": GOAL}, words=words, level="easy")
