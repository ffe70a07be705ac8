"""The AI's answer to a draw offer: accept when its evaluation of the match says it is not winning.

The evaluation is the expected final difference of the match totals (M2) for the AI's seat: the rounds already
played count as scored, the round in play counts as the hard level's search says it ends (the final tower
difference of that round, S2, for the side to move, under a node budget: exact when the search solves it), and a
round 2 not yet begun counts as even. Pure and deterministic (a node budget, never the clock).
"""

from __future__ import annotations

from engine.constructo.match import Match
from engine.constructo.search import SCALE, search

__all__ = ["DRAW_NODES", "accepts_draw", "expected_margin"]

DRAW_NODES = 300_000
"""The search's node budget for a draw offer (about 0.1 s with the compiled core)."""


def expected_margin(match: Match, seat: int, *, max_nodes: int = DRAW_NODES) -> float:
    """``seat``'s expected final total minus the opponent's, in towers (see the module docstring).

    Raises ``ValueError`` for a seat other than 0/1."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    margin = 0.0
    for rnd in match.rounds:
        if rnd.is_over:
            a, b = rnd.score()
            margin += (a - b) if seat == 0 else (b - a)
            continue
        found = search(rnd, budget_s=None, max_nodes=max_nodes, seed=0)
        value = found.value / SCALE
        margin += value if rnd.current_player == seat else -value
    return margin


def accepts_draw(match: Match, seat: int, *, max_nodes: int = DRAW_NODES) -> bool:
    """True when ``seat`` (the AI) is not winning by its evaluation (:func:`expected_margin` <= 0): it accepts
    the draw; a match it expects to win it plays on."""
    return expected_margin(match, seat, max_nodes=max_nodes) <= 0
