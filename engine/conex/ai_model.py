"""The CONEX AI's model of a position (used by ``engine/conex/ai.py``; docs/rules/conex.md): the policy's
:class:`Weights`, the per-decision :class:`Context` drawn from ``view_for(player)`` only, the point estimates
(expected best replies, the worth of keeping a card, of rolling the die: V1-V3, X1) and the simulation copies built
from the view (what an opponent could still place, by probe corners through the placement finder).

Pure and deterministic; everything here is in points (estimates) or mm (geometry).
"""

from __future__ import annotations

import copy
import math
import pickle
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.conex.deck import COLORS, Card, load_deck
from engine.conex.game import Game

DECK: dict[int, Card] = {c.id: c for c in load_deck()}
"""The deck by card id (the AI reads cards it cannot see in any game's hands)."""


@dataclass(frozen=True)
class Weights:
    """Tuning of the policy, in points.

    Attributes:
        threat_next: weight of the next opponent's expected extra reply (points they may gain) per point.
        threat_later: the same for each later opponent still to play.
        keep: cost per point of ``keep_value`` of the card spent (a strong card has future worth).
        hold_2x: worth of keeping a usable 2x star for later (use it now when the placement's points exceed it).
        hold_lightning: worth of keeping a usable lightning star.
        discard_hurt: worth to us of each other player's forced discard after a lightning (X3).
        draw_base, draw_per_missing: worth of drawing two cards: base + per card below ``full_hand``.
        full_hand: hand size from which more cards add little.
        star_2x, star_lightning: worth of taking a star on a die roll (X1); the die value is computed from these.
        deny: extra worth of a star taken from an opponent (they lose it).
        points_per_turn, horizon_rounds: the leader's expected points per turn; with fewer than ``horizon_rounds``
            rounds left (E1) the worth of holding stars, of new stars and of drawing shrinks linearly to 0.
        self_next: weight of the AI's own best next placement after the move (the best ``card_score`` of the cards
            left in its hand on the colours open after it; 0 = not counted, the medium level).
        lead_slope: per point an opponent stands above (below) the AI, its replies weigh this much more (less),
            within 0.4-1.6 times (a trailing seat's points matter less to who wins, E3); 0 = every opponent alike.
        lightning_any: besides free +2 cards and cards on a +2 card, this many other free cards (newest first) are
            tried as lightning targets (X3: the forced discards alone may be worth it); 0 = not (the medium level).
    """

    threat_next: float = 0.6
    threat_later: float = 0.3
    keep: float = 0.15
    hold_2x: float = 4.5
    hold_lightning: float = 1.0
    discard_hurt: float = 0.4
    draw_base: float = 0.6
    draw_per_missing: float = 0.6
    full_hand: int = 4
    star_2x: float = 2.5
    star_lightning: float = 1.0
    deny: float = 1.0
    points_per_turn: float = 3.0
    horizon_rounds: float = 3.0
    self_next: float = 0.0
    lead_slope: float = 0.0
    lightning_any: int = 0


DEFAULT_WEIGHTS = Weights()


@dataclass
class Context:
    """Per-decision facts drawn from ``view_for(player)`` only."""

    me: int
    players: int
    goal: int
    scores: list[int]
    hand: list[int]
    hand_counts: list[int]
    unseen: list[int]
    pile: int
    goal_reached: bool
    stars: dict[str, int | None]
    star_usable_2x: bool
    w: Weights
    rng: random.Random
    deadline: float
    max_calls: int
    calls: int = 0
    opp_2x: set[int] = field(default_factory=set)
    dead: dict[tuple[str, int | str], tuple[float, float]] = field(default_factory=dict)
    horizon: float = 1.0  # 1 = many rounds left; falls to 0 as the leader nears the goal (E1)
    left: frozenset[int] = frozenset()  # forfeited seats: they get no more turns
    refine: int = 0  # hard level: how many legal placements are re-valued on the table they leave (ai_hard.py)
    probes: dict[str, tuple[int, int]] = field(default_factory=dict)  # colour -> probe (card, corner)
    poses: int = 1  # poses asked of the finder per (card, corner, target) triple
    endgame: bool = False  # hard level: last-round moves valued by their chance to win (ai_endgame.py)
    rollouts: bool = False  # hard level: the best candidates compared by sampled replies (ai_rollout.py)
    roll_limit: int = 0  # ``calls`` the rollouts may reach (the search's count plus their own budget)

    def out_of_budget(self) -> bool:
        return self.calls >= self.max_calls or time.perf_counter() > self.deadline


def opp_mult(ctx: Context, opp: int) -> float:
    """How much ``opp``'s replies weigh against the AI: 1.6 with a usable 2x star (V3), times the standing factor
    (``Weights.lead_slope``)."""
    mult = 1.6 if opp in ctx.opp_2x else 1.0
    if ctx.w.lead_slope:
        mult *= max(0.4, min(1.6, 1.0 + ctx.w.lead_slope * (ctx.scores[opp] - ctx.scores[ctx.me])))
    return mult


def opponents_to_play(ctx: Context, reaches_goal: bool) -> list[int]:
    """Seats still getting a turn after ``ctx.me``, in order (E1: once the goal is reached the round completes)."""
    seats = [(ctx.me + k) % ctx.players for k in range(1, ctx.players) if (ctx.me + k) % ctx.players not in ctx.left]
    if ctx.goal_reached or reaches_goal:
        seats = [s for s in seats if s > ctx.me]
    return seats


# --- estimates ------------------------------------------------------------------------------------------------


def card_score(card: Card, open_colours: frozenset[str], plus2_colours: frozenset[str]) -> int:
    """Best points this card scores on the open targets (V1 + V2), 0 if none of its corners fits a colour."""
    best = 0
    for k in card.corners:
        if k.color in open_colours:
            best = max(best, k.value + (2 if k.color in plus2_colours else 0))
    return best


def expected_max(scores: list[int], hand: int) -> float:
    """E[max] of ``hand`` values drawn without replacement from ``scores`` (hypergeometric, exact)."""
    n = len(scores)
    if hand <= 0 or n == 0:
        return 0.0
    hand = min(hand, n)
    total = math.comb(n, hand)
    out = 0.0
    for v in range(1, max(scores) + 1):
        below = sum(1 for s in scores if s < v)
        out += 1.0 - math.comb(below, hand) / total
    return out


class Threat:
    """Expected best reply of an opponent holding ``h`` unseen cards, given the open colours (memoised)."""

    def __init__(self, unseen: list[int]) -> None:
        self.cards = [DECK[i] for i in unseen]
        self.memo: dict[tuple[frozenset[str], frozenset[str], int], float] = {}
        self.score_memo: dict[tuple[frozenset[str], frozenset[str]], list[int]] = {}

    def scores(self, open_colours: frozenset[str], plus2: frozenset[str]) -> list[int]:
        """Each unseen card's ``card_score`` on these colours, ascending (memoised)."""
        key = (open_colours, plus2)
        got = self.score_memo.get(key)
        if got is None:
            got = sorted(card_score(c, open_colours, plus2) for c in self.cards)
            self.score_memo[key] = got
        return got

    def value(self, open_colours: frozenset[str], plus2: frozenset[str], hand: int) -> float:
        key = (open_colours, plus2, hand)
        got = self.memo.get(key)
        if got is None:
            got = expected_max([card_score(c, open_colours, plus2) for c in self.cards], hand)
            self.memo[key] = got
        return got


def keep_value(
    card: Card, open_colours: frozenset[str] = frozenset(COLORS), plus2: frozenset[str] = frozenset()
) -> float:
    """Worth (points) of keeping ``card`` in hand: its best corner on the open colours (a closed colour counts
    half), +2 where a +2 target is open, plus 1.5 for a die card (X1). Used for discards (X3) and as the cost of
    spending a card."""
    best = 0.0
    for k in card.corners:
        v = k.value + (2 if k.color in plus2 else 0)
        best = max(best, v if k.color in open_colours else v * 0.5)
    if card.action == "die":
        best += 1.5
    return best


def die_value(ctx: Context) -> float:
    """X1: expected worth of rolling the die (1/6 one card, 1/6 two cards, 1/3 lightning, 1/3 2x)."""
    w = ctx.w
    v = (1 / 6) * 0.5 + (1 / 6) * 1.0
    for star, worth in (("2x", w.star_2x * ctx.horizon), ("lightning", w.star_lightning * ctx.horizon)):
        holder = ctx.stars[star]
        if holder == ctx.me:
            gain = 0.3 * worth  # already ours: a re-roll only resets X2
        elif holder is not None:
            gain = worth + w.deny
        else:
            gain = worth
        v += (2 / 6) * gain
    return v


# --- simulation copies (built from the view only) ------------------------------------------------------------


def probe_cards(unseen: list[int]) -> dict[str, tuple[int, int]]:
    """For each colour, an unseen (card id, corner index) with the smallest corner of that colour (most places
    fit it): the probe that tells whether an opponent could place a corner of that colour somewhere."""
    out: dict[str, tuple[int, int]] = {}
    best: dict[str, float] = {}
    for cid in unseen:
        for k in DECK[cid].corners:
            size = k.legs_mm[0] * k.legs_mm[1]
            if k.color not in best or size < best[k.color]:
                best[k.color] = size
                out[k.color] = (cid, k.index)
    return out


def sim_from_view(game: Game, view: dict[str, Any], me: int, probes: list[int]) -> Game:
    """A shallow copy of ``game`` holding only what ``view`` shows: ``me`` holds their hand plus ``probes``, the
    other hands are empty and every other unseen card is in the pile (in id order: the AI never draws in it).

    The table is shared with ``game`` (the finder only reads it and fills its cache): never ``play`` on the
    result; ``deep_copy`` gives a copy that may be played on."""
    sim = copy.copy(game)
    hands: list[list[int]] = [[] for _ in range(view["setup"]["players"])]
    hands[me] = list(view["hands"][me]) + list(probes)
    on_table = {t["card"] for t in view["table"]}
    taken = set(hands[me]) | on_table
    sim.hands = hands
    sim.pile = [i for i in sorted(DECK) if i not in taken]
    sim.seed = 0
    sim.pending_discards = set()
    sim.history = []
    return sim


PROBE_TARGETS = 3  # per colour: the largest visible targets probed for an opponent's reply


def targets_by_area(sim: Game, colour: str) -> list[tuple[int | str, float]]:
    """``targets_for(colour)`` as ``(target, visible main area mm²)``, largest first (the likeliest to take a
    corner), ties newest first."""
    got = [(t, float(a.area)) for t, a in sim.board.targets_for(colour)]
    return sorted(got, key=lambda ta: -ta[1])


def deep_copy(sim: Game) -> Game:
    """An independent copy of ``sim`` (table geometry included) to play hypothetical actions on."""
    out: Game = pickle.loads(pickle.dumps(sim))
    return out


def open_colours(
    sim: Game, me: int, probes: dict[str, tuple[int, int]], ctx: Context
) -> tuple[frozenset[str], frozenset[str]]:
    """Colours with an open target (the colour's probe corner fits on one of its ``PROBE_TARGETS`` largest
    targets) and colours of open +2 targets (P1-P4). Probe failures go to ``ctx.dead``."""
    open_c: set[str] = set()
    plus2: set[str] = set()
    board = sim.board
    for colour, (cid, corner) in probes.items():
        targets = targets_by_area(sim, colour)
        plus_targets = [t for t, _ in targets if t != "board" and board.get(int(t)).card.action == "plus2"]
        others = [t for t, _ in targets if t not in plus_targets][:PROBE_TARGETS]
        for t in plus_targets + others:
            if colour in open_c and t not in plus_targets:
                break
            if ctx.out_of_budget():
                break
            ctx.calls += 1
            if sim.find_placements(me, cid, corner, t, limit=1):
                open_c.add(colour)
                if t in plus_targets:
                    plus2.add(colour)
                    break
            else:
                ctx.dead[(colour, t)] = DECK[cid].corner(corner).legs_mm
    return frozenset(open_c), frozenset(plus2)


def dominated(ctx: Context, colour: str, target: int | str, legs: tuple[float, float]) -> bool:
    """A probe corner with legs no longer than ``legs`` found no pose on ``target``: skip it (search saving)."""
    dead = ctx.dead.get((colour, target))
    if dead is None:
        return False
    return min(dead) <= min(legs) and max(dead) <= max(legs)


__all__ = [
    "DECK",
    "DEFAULT_WEIGHTS",
    "PROBE_TARGETS",
    "Context",
    "Threat",
    "Weights",
    "card_score",
    "deep_copy",
    "die_value",
    "dominated",
    "expected_max",
    "keep_value",
    "open_colours",
    "opp_mult",
    "opponents_to_play",
    "probe_cards",
    "sim_from_view",
    "targets_by_area",
]
