"""Constructo's lesson (``/learn constructo``, ``bot/services/tutorial.py``): which rule matters when.

The tutorial is a real match on ``rombo`` against the easy AI; the learner (seat 0) starts round 1. Steps, in
teaching order, each taught on the first board where it matters for the learner (rules of
``docs/rules/constructo.md``):

- ``layout`` (C2-C4) and ``place`` (T1, T2): from the first board;
- ``stack`` (T1, K1, K2, K3): the learner has a move onto a bigger opponent chip, or a tower stands;
- ``swallow`` (K4): the learner's lone large can swallow a lone opponent small, or a swallow stands;
- ``tower`` (S1, S2, T4): a tower stands on the board;
- ``round_end`` (E1, E2) and ``match`` (M1, M2): round 1 is over.
"""

from __future__ import annotations

from bot.services.tutorial import Lesson
from engine.constructo import Match, Size

STEPS: tuple[str, ...] = ("layout", "place", "stack", "swallow", "tower", "round_end", "match")


def reached(match: Match, learner: int) -> list[str]:
    """The steps whose rule matters in ``match`` for seat ``learner`` (see the module docstring). Pure."""
    out = ["layout", "place"]
    for rnd in match.rounds:
        for n in range(1, 10):
            if len(rnd.tile(n)) < 2:
                continue
            if rnd.is_swallow(n):
                out.append("swallow")
            else:
                out += ["stack", "tower"]
    if match.phase == "playing" and match.current_player == learner:
        rnd = match.current_round
        for move in rnd.legal_moves():
            if move.is_place or move.src is None:
                continue
            size = rnd.tile(move.src)[-1][1]
            out.append("swallow" if size == Size.LARGE else "stack")
    if len(match.rounds) > 1 or match.rounds[0].is_over:
        out += ["round_end", "match"]
    return out


LESSON = Lesson(steps=STEPS, reached=reached, options={"layout": "rombo"}, level="easy")
