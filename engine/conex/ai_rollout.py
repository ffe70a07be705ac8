"""The hard CONEX AI's sampled look-ahead (issue 25): determinized playouts of its best candidates.

The one-ply search (``engine/conex/ai.py``, re-valued by ``ai_hard.py``) ranks the legal placements by points now
minus an analytic estimate of the opponents' replies. Once a score is within ``PLAYOUT_MARGIN`` points of the goal
(the second half of a game to 40), the best ``CANDIDATES`` of them (within ``SPAN`` points of the best) and drawing
(A2, when its worth is within ``SPAN`` too) are instead each played on ``PLAYOUT_SAMPLES`` determinized copies of the
position and the game is played out to its end (E1/E2), every seat greedy (the placement scoring most, V1/V2; draw
when nothing fits; the AI itself too after its candidate): an option is worth ``WIN_SCALE`` x the mean over the
copies of (1 for a win, ties included, E3, + ``MARGIN_WEIGHT`` per point of the AI's final margin over the best
other seat). The copies are the same for every option (common random numbers: the difference between two options
is not blurred by the deals' luck).

A copy (``deal``) is built from ``view_for`` only, through ``ai_model.sim_from_view``: the AI's own hand and the
table as they are; the opponents get hands of their known sizes dealt at random from the cards the AI cannot see
(``unseen``: neither in its hand nor on the table; the hidden hands and the pile order are never read), the rest
is the pile, shuffled, and the die gets a fresh seed (X1).

An option is compared only when all its playouts fit in the budget (``PLAYOUT_CALLS`` finder calls on top of the
search's, counted in ``ctx.calls``; a greedy move costs at most ``REPLY_TRIES`` targeted calls), and only a prefix of
the options (best one-ply value first) is ever compared, so when fewer than two fit the one-ply choice stands (early
in a game a playout is long: that is why they start at ``PLAYOUT_MARGIN``). No wall-clock bound. Deterministic: the
deals come from ``ctx.rng`` (seeded by the decision's seed, turn, seat and table size).

Before the playouts' margin, the one-ply estimate stands: one-round rollouts (greedy replies until the AI's next
turn, their points replacing the analytic threat term) measured no better than the estimate they would replace
(BENCHMARKS.md "CONEX hard AI, third pass") and were removed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shapely.errors import GEOSException

from engine.conex.actions import AnyAction, Discard, Draw, Pass, Place
from engine.conex.ai_endgame import WIN_SCALE
from engine.conex.ai_model import DECK, Context, deep_copy, targets_by_area
from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.conex.game import Game

CANDIDATES = 3
"""Placements compared by playouts (the best by the one-ply value, distinct (card, corner, target) triples), plus
drawing when the pile is not empty."""

PLAYOUT_MARGIN = 25
"""Points: once the best score is this close to the goal (E1), each option is played out to the game's end instead
(every seat greedy, the AI too after its move) and valued by its share of won playouts (E3: ties win); 0 = never."""

PLAYOUT_SAMPLES = 2
"""Deals per decision in that mode."""

PLAYOUT_CALLS = 200
"""Finder calls the playouts may spend per decision, on top of the search's."""

REPLY_TRIES = 6
"""Targeted finder calls a greedy reply may spend (best triples first) before it is taken as a draw."""

SPAN = 6.0
"""Points: a placement valued this far below the best (or drawing, this far below the best placement) is not
rolled out: the replies' measured points never move a candidate that far."""


@dataclass
class Option:
    """A move compared by rollouts: the action, its one-ply value without the threat term (``base``) and with it
    (``value``), the points it scores now."""

    action: Place | Draw
    base: float
    value: float
    points: int


def deal(sim: Game, ctx: Context, rng: random.Random) -> Game:
    """A playable copy of ``sim`` (built by ``sim_from_view`` without probes: the AI's own hand, the table) whose
    opponents hold random hands of their known sizes drawn from ``ctx.unseen`` and whose pile is the rest, shuffled;
    a fresh die seed (X1)."""
    g = deep_copy(sim)
    cards = list(ctx.unseen)
    rng.shuffle(cards)
    at = 0
    for s in range(ctx.players):
        if s == ctx.me:
            continue
        n = min(ctx.hand_counts[s], len(cards) - at)
        g.hands[s] = cards[at : at + n]
        at += n
    g.pile = cards[at:]
    g.seed = rng.getrandbits(32)
    g.rolls = 0
    return g


def greedy_reply(g: Game, p: int, ctx: Context) -> AnyAction:
    """The greedy seat's action: the placement scoring most (V1, V2), found best first over the hand's (card,
    corner, target) triples with one targeted finder call each (counted in ``ctx.calls``), at most ``REPLY_TRIES``
    of them; draw when none of those fits, pass when the pile is empty too. The finder gives each card's best
    pose first, so this is the greedy baseline's choice (up to ties) at a fraction of its work."""
    if p in g.pending_discards and g.hands[p]:
        return Discard(p, g.hands[p][0])
    board = g.board
    triples: list[tuple[int, float, int, int, int | str]] = []
    for cid in g.hands[p]:
        card = DECK[cid]
        for k in card.corners:
            for tgt, area in targets_by_area(g, k.color):
                if area < 0.5 * k.legs_mm[0] * k.legs_mm[1]:
                    continue
                plus = tgt != "board" and board.get(int(tgt)).card.action == "plus2"
                triples.append((k.value + (2 if plus else 0), area, cid, k.index, tgt))
    triples.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    for _pts, _area, cid, corner, tgt in triples[:REPLY_TRIES]:
        ctx.calls += 1
        found = g.find_placements(p, cid, corner, tgt, limit=1)
        if found:
            return found[0]
    return Draw(p) if g.pile else Pass(p)


def rollout_values(sim: Game, ctx: Context, options: list[Option]) -> list[float | None]:
    """Each option's value by its playouts (module docstring; :func:`playout_values`) in playout mode, in order;
    ``None`` for an option whose playouts did not all fit in the budget (and for every later one, so the options
    compared are always the best ones by the one-ply value), and for every option before the playouts' margin.
    ``options`` are best first."""
    rng = random.Random(ctx.rng.getrandbits(64))
    if not playout_mode(ctx):
        return [None] * len(options)
    return playout_values(sim, ctx, options, rng)


def over_deals(deals: list[Game], options: list[Option], value: Callable[[Game], float | None]) -> list[float | None]:
    """Each option's mean ``value`` over ``deals`` (a copy of each deal with the option played on it), in order;
    ``None`` from the first option one of whose copies fails (a rule, or the geometry library on a hypothetical
    table) or gets ``None`` (the budget ran out): every later option is ``None`` too."""
    means: list[float | None] = []
    for opt in options:
        mean: float | None = None
        if not means or means[-1] is not None:
            total = 0.0
            for d in deals:
                g = deep_copy(d)
                try:
                    g.play(opt.action)
                    got = value(g)
                except (RuleError, GEOSException):  # the geometry library failed on a hypothetical table
                    got = None
                if got is None:
                    break
                total += got
            else:
                mean = total / len(deals)
        means.append(mean)
    return means


def playout_mode(ctx: Context) -> bool:
    """Whether this decision plays its options out to the game's end (``PLAYOUT_MARGIN``)."""
    return bool(PLAYOUT_MARGIN) and max(ctx.scores) >= ctx.goal - PLAYOUT_MARGIN


def roll_budget(ctx: Context) -> int:
    """The finder calls this decision's playouts may spend (0 before the playouts' margin)."""
    return PLAYOUT_CALLS if playout_mode(ctx) else 0


def playout(g: Game, ctx: Context) -> float | None:
    """Play ``g`` to its end, every seat greedy (``greedy_reply``); the AI's result: 1 for a win (E3, ties
    included) plus ``MARGIN_WEIGHT`` per point of its margin over the best other seat; ``None`` when the budget ran
    out."""
    for _ in range(200):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            if g.hands[q]:
                g.play(Discard(q, g.hands[q][0]))
        p = g.current_player
        if p is None:
            break
        if ctx.calls + REPLY_TRIES > ctx.roll_limit:
            return None
        g.play(greedy_reply(g, p, ctx))
    if not g.is_over:
        return None
    mine = g.scores[ctx.me]
    best_other = max(x for s, x in enumerate(g.scores) if s != ctx.me and s not in g.forfeited)
    return (1.0 if ctx.me in g.winners else 0.0) + MARGIN_WEIGHT * (mine - best_other)


MARGIN_WEIGHT = 0.02
"""Per point of the final margin, beside a win's 1 (between options winning as often, the wider margin)."""


def playout_values(sim: Game, ctx: Context, options: list[Option], rng: random.Random) -> list[float | None]:
    """``rollout_values`` near the end: ``WIN_SCALE`` x the mean playout result (``playout``) of each option over
    ``PLAYOUT_SAMPLES`` deals (the same for every option); ``None`` from the first option the budget cannot finish."""
    deals = [deal(sim, ctx, rng) for _ in range(PLAYOUT_SAMPLES)]
    return [None if m is None else WIN_SCALE * m for m in over_deals(deals, options, lambda g: playout(g, ctx))]


__all__ = ["CANDIDATES", "PLAYOUT_CALLS", "SPAN", "Option", "deal", "greedy_reply", "rollout_values"]
