"""The hard CONEX AI's endgame (issue 25): in the last round, value a move by its chance to win, not by its points.

Once a score has reached the goal (E1), or when the move being valued reaches it, the round completes and the game
ends: the seats before the AI in seat order have played their last turn, those after it (not forfeited) get exactly
one more. Winning (E3: ties win) then only depends on the AI's final score and those last replies, so the AI values
such a move by

    P(win) = [no finished seat ends above the AI] x  product over the seats still to play of P(their reply <= gap)

where ``gap`` is the AI's final score minus that seat's score and a reply's points follow the medium AI's model of
an opponent (``ai_model.Threat``): the best of ``h`` cards (the seat's hand size) dealt from the cards the AI cannot
see (never the real hidden hands), each card scoring its best corner on the colours left open (+2 on an open +2
target, V1/V2), doubled for a seat holding a usable 2x star (V3). The hypergeometric law of that maximum is exact:
``P(max <= t) = C(#cards scoring <= t, h) / C(#unseen, h)``. The replies are taken as independent (they share the
unseen cards; the error is small next to the probe's). Pure and deterministic.
"""

from __future__ import annotations

import math

from engine.conex.ai_model import Context, Threat, opponents_to_play

REACHING = True
"""Whether a move that reaches the goal (before anyone has) is valued by its chance to win too; when ``False`` only
the moves of a round that is already the last are (an ordinary move's points are no chance to win)."""

WIN_SCALE = 20.0
"""Points: worth of a sure win when a last-round move is compared with ordinary moves (a move reaching the goal
against one that does not); last-round moves are compared with each other by ``WIN_SCALE * P(win)`` first."""

POINTS_TIEBREAK = 0.05
"""Per point scored: between two last-round moves with the same chance, the one scoring more."""


def _at_most(threat: Threat, open_c: frozenset[str], plus2: frozenset[str], hand: int, t: int) -> float:
    """P(the best of ``hand`` unseen cards scores at most ``t`` points on these colours), exact (hypergeometric)."""
    if hand <= 0 or t >= 7:  # no card scores above 5 + 2 (V1 + V2)
        return 1.0 if t >= 0 else 0.0
    if t < 0:
        return 0.0
    scores = threat.scores(open_c, plus2)
    n = len(scores)
    hand = min(hand, n)
    below = sum(1 for s in scores if s <= t)
    return math.comb(below, hand) / math.comb(n, hand) if n else 1.0


def win_chance(
    ctx: Context, threat: Threat, open_c: frozenset[str], plus2: frozenset[str], gained: int, reaches: bool
) -> float:
    """P(the AI wins) if it scores ``gained`` now and the game ends with this round (module docstring); ``open_c``
    and ``plus2`` are the colours (and +2 target colours) open to the later seats after the move."""
    mine = ctx.scores[ctx.me] + gained
    later = opponents_to_play(ctx, reaches)
    for s in range(ctx.players):
        if s != ctx.me and s not in later and s not in ctx.left and ctx.scores[s] > mine:
            return 0.0
    p = 1.0
    for s in later:
        gap = mine - ctx.scores[s]
        if s in ctx.opp_2x:
            gap = math.floor(gap / 2) if gap >= 0 else -1
        p *= _at_most(threat, open_c, plus2, ctx.hand_counts[s], gap)
        if p == 0.0:
            break
    return p


def last_round_value(
    ctx: Context, threat: Threat, open_c: frozenset[str], plus2: frozenset[str], gained: int, reaches: bool
) -> float:
    """The value (points scale) of a last-round move: ``WIN_SCALE * P(win) + POINTS_TIEBREAK * gained``."""
    return WIN_SCALE * win_chance(ctx, threat, open_c, plus2, gained, reaches) + POINTS_TIEBREAK * gained


__all__ = ["POINTS_TIEBREAK", "WIN_SCALE", "last_round_value", "win_chance"]
