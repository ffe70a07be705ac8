"""The hard CONEX AI's refinement (issue 25): re-value the best few legal placements on the table each one leaves.

The medium AI (``engine/conex/ai.py``) values a (card, corner, target) triple before any geometry: it assumes a
placed card opens its background colour to the opponents and changes nothing else. The hard level collects legal
poses, best triple first (``ctx.poses`` poses per triple), until it holds ``ctx.refine`` of them or the next triple is
valued ``REFINE_SPAN`` points below the best (so with 4 and 2: usually the best two triples), plays each pose
on a copy of the AI's own simulation (built from ``view_for`` only: no hidden card is read) and measures, with the
same probe corners, which colours and +2 targets (P1-P4, V2) are really open afterwards: a pose that covers a +2
target, or that leaves no room for a colour, takes those replies away from the opponents; a pose that opens a new
+2 target hands them points. The candidate's threat term is replaced by the measured one; the best total wins.

Work: each candidate costs one table copy and at most one probe finder call per (colour, target) tried by
``open_colours`` (``ctx.calls`` counts them against ``ctx.max_calls``; no wall-clock bound). Pure, deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.errors import GEOSException

from engine.conex.actions import Place
from engine.conex.ai_endgame import last_round_value
from engine.conex.ai_model import Context, Threat, deep_copy, open_colours, opp_mult, opponents_to_play
from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.conex.game import Game

LAST_ROUND = math.inf
"""``Candidate.term`` of a last-round move (valued by its chance to win, ``ai_endgame.py``, not by a threat term)."""

REFINE_SPAN = 3.0
"""Points: a triple valued this far below the best legal one is not worth re-valuing (its estimate would need a
larger threat error than the probes ever measure)."""


@dataclass
class Candidate:
    """A legal placement found by the search: its estimated ``value`` (points), the ``term`` of that value that
    is the opponents' estimated extra replies (points, subtracted), the pose, its points and a note."""

    value: float
    term: float
    place: Place
    points: int
    note: str


def refine_ranked(
    sim: Game,
    ctx: Context,
    shortlist: list[Candidate],
    threat: Threat,
    open_c: frozenset[str],
    plus2: frozenset[str],
) -> list[Candidate]:
    """Every candidate of ``shortlist`` (non-empty, best estimate first) with its value once its threat term is
    measured on the table it leaves (module docstring), best first (ties keep the search's order; candidates not
    re-valued for lack of budget keep their estimate). ``term`` stays the estimate's threat term."""
    saved_dead = ctx.dead
    ranked: list[tuple[float, int, Candidate]] = []
    for i, c in enumerate(shortlist):
        value = c.value
        if not ctx.out_of_budget():
            after = deep_copy(sim)
            try:
                after.play(c.place)
                ctx.dead = {}  # another table: probe failures do not carry over
                a_open, a_plus = open_colours(after, ctx.me, ctx.probes, ctx)
            except RuleError:  # pragma: no cover - the finder's poses are legal
                continue
            except GEOSException:  # the geometry library failed on this hypothetical table: skip the candidate
                continue
            reaches = ctx.scores[ctx.me] + c.points >= ctx.goal
            if c.term == LAST_ROUND:
                value = last_round_value(ctx, threat, a_open, a_plus, c.points, reaches)
            else:
                term = 0.0
                for n, opp in enumerate(opponents_to_play(ctx, reaches)):
                    h = ctx.hand_counts[opp]
                    extra = threat.value(a_open, a_plus, h) - threat.value(open_c, plus2, h)
                    mult = opp_mult(ctx, opp)
                    term += (ctx.w.threat_next if n == 0 else ctx.w.threat_later) * extra * mult
                value = c.value + c.term - term
        ranked.append((value, i, Candidate(value, c.term, c.place, c.points, c.note)))
    ctx.dead = saved_dead
    if not ranked:
        return [shortlist[0]]
    return _stable_best_first(ranked)


def _stable_best_first(ranked: list[tuple[float, int, Candidate]]) -> list[Candidate]:
    """``ranked`` best first, the first of near-equal values (within 1e-9) kept ahead, as the old scan did."""
    best_i = 0
    for k in range(1, len(ranked)):
        if ranked[k][0] > ranked[best_i][0] + 1e-9:
            best_i = k
    first = ranked[best_i][2]
    rest = sorted((t for k, t in enumerate(ranked) if k != best_i), key=lambda t: (-t[0], t[1]))
    return [first] + [t[2] for t in rest]
