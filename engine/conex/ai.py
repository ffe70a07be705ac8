"""CONEX AI (issue 8): ``choose_action(game, player, seed=0, budget_s=2.0)`` picks an engine action for a seat.

Pure (no asyncio, no I/O), deterministic given ``seed`` and the state. The AI sees only what
``game.view_for(player)`` shows: its own hand, the table, scores, stars, pile size and the other hands' sizes.
Every other card ("unseen": not in its hand, not on the table) may be in an opponent's hand or in the pile.

Policy, one decision:

1. A pending discard (X3) for ``player`` -> ``Discard`` of the least useful card (lowest ``keep_value``).
2. Start of its turn holding a usable lightning star (X2, X3) -> simulate removing each promising free card
   (a free +2 card = strip a threat; a free card lying on a +2 card = uncover it) and use the star when the
   best placement afterwards, the threat removed and the other players' forced discards beat keeping it.
3. Otherwise a ranked search over *(card, corner, target)* triples. A triple's value does not depend on the
   exact pose, so it is known before any geometry::

       value = points now (V1 + V2, doubled with the 2x star when allowed, V3/X2)
             + die value (X1: expected worth of the roll) - keep * keep_value(card)
             - sum over the opponents still to play of w_k * (their expected best reply after - before)

   The opponents' expected best reply is the expected maximum, over a hand of their size drawn from the unseen
   cards, of ``corner value + 2 on a +2 target`` over the colours that have an open target on the table
   (open = the placement finder places a probe corner there). A placed card opens its background colour (and
   a +2 target if it is the +2 card). Triples are tried best value first with
   ``game.find_placements(player, card, corner, target)``; the first one with a legal pose is the choice (a
   node budget ``max_calls`` bounds the finder calls; ``budget_s`` is only a wall-clock safety cap).
4. Draw (A2) when the best value is below the worth of two more cards; pass (A3) only when the pile is empty
   and nothing is worth placing (or nothing fits).
5. Hard level only (``rollouts``): the best few placements and drawing are compared by sampled playouts
   (``engine/conex/ai_rollout.py``) instead of step 3's estimate, once the game nears its end.

Returned actions always pass ``game.check``. Errors: ``IllegalActionError`` rule ``E1`` if the game is over;
``NotYourTurnError`` when it is not ``player``'s turn and no discard is pending for them; ``InvalidInputError``
for a bad seat.

The model the policy reasons with (``Weights``, the per-decision ``Context``, the point estimates and the simulation
copies built from the view) lives in ``engine/conex/ai_model.py``; this module is the search and the entry points.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.conex import ai_endgame as endgame
from engine.conex import ai_rollout as rollout
from engine.conex.actions import AnyAction, Discard, Draw, Lightning, Pass, Place
from engine.conex.ai_endgame import last_round_value
from engine.conex.ai_hard import LAST_ROUND, REFINE_SPAN, Candidate, refine_ranked
from engine.conex.ai_model import (
    DECK,
    DEFAULT_WEIGHTS,
    Context,
    Threat,
    Weights,
    card_score,
    deep_copy,
    die_value,
    dominated,
    keep_value,
    open_colours,
    opp_mult,
    opponents_to_play,
    probe_cards,
    sim_from_view,
    targets_by_area,
)
from engine.conex.ai_rollout import CANDIDATES, SPAN, Option, rollout_values
from engine.conex.game import Game
from engine.errors import IllegalActionError, NotYourTurnError, RuleError

__all__ = ["DEFAULT_WEIGHTS", "Decision", "Weights", "choose_action", "decide", "first_fit", "keep_value"]


@dataclass
class Decision:
    """What ``decide`` found: the action, its estimated value (points), and how much work it took.

    ``calls`` counts finder calls (the node budget), ``reason`` is a short English note for logs/tests.
    """

    action: AnyAction
    value: float
    reason: str
    calls: int = 0
    details: dict[str, Any] = field(default_factory=dict)


# --- the placement search -------------------------------------------------------------------------------------


@dataclass
class _Best:
    value: float
    place: Place | None
    points: int
    note: str
    ranked: list[Candidate] = field(default_factory=list)  # hard level: the re-valued candidates, best first


_opponents_to_play = opponents_to_play


def _best_placement(
    sim: Game, ctx: Context, open_c: frozenset[str], plus2: frozenset[str], threat: Threat, floor: float
) -> _Best:
    """The best (card, corner, target) triple with a legal pose, by ``value`` (see the module docstring); the
    search stops at triples worth less than ``floor`` (drawing is better: no need to know whether they fit)."""
    w = ctx.w
    board = sim.board
    die_v = die_value(ctx)
    base_threat: dict[int, float] = {}
    triples: list[tuple[float, float, int, int, int | str, int, bool]] = []
    threat_terms: dict[tuple[int, int, int | str, bool], float] = {}
    order = 0
    for cid in ctx.hand:
        card = DECK[cid]
        new_open = open_c | {card.color}
        new_plus = plus2 | ({card.color} if card.action == "plus2" else set())
        new_open_f, new_plus_f = frozenset(new_open), frozenset(new_plus)
        for k in card.corners:
            for tgt, area in targets_by_area(sim, k.color):
                if area < 0.5 * k.legs_mm[0] * k.legs_mm[1] or dominated(ctx, k.color, tgt, k.legs_mm):
                    continue
                on_plus = tgt != "board" and board.get(int(tgt)).card.action == "plus2"
                pts = k.value + (2 if on_plus else 0)
                for double in (False, True) if ctx.star_usable_2x else (False,):
                    gained = pts * 2 if double else pts
                    reaches = ctx.scores[ctx.me] + gained >= ctx.goal
                    future = not (ctx.goal_reached or reaches)
                    value = float(gained)
                    if future:
                        value -= w.keep * keep_value(card, open_c, plus2)
                        if w.self_next:
                            value += w.self_next * max(
                                (card_score(DECK[c], new_open_f, new_plus_f) for c in ctx.hand if c != cid), default=0
                            )
                        if card.action == "die":
                            value += die_v
                        if double:
                            value -= w.hold_2x * ctx.horizon
                    term = 0.0
                    if ctx.endgame and (ctx.goal_reached or (reaches and endgame.REACHING)):
                        value = last_round_value(ctx, threat, frozenset(new_open), frozenset(new_plus), gained, reaches)
                        threat_terms[(cid, k.index, tgt, double)] = LAST_ROUND
                        triples.append((value + ctx.rng.random() * 1e-6, area, order, cid, tgt, k.index, double))
                        order += 1
                        continue
                    for n, opp in enumerate(_opponents_to_play(ctx, reaches)):
                        h = ctx.hand_counts[opp]
                        if opp not in base_threat:
                            base_threat[opp] = threat.value(open_c, plus2, h)
                        extra = threat.value(frozenset(new_open), frozenset(new_plus), h) - base_threat[opp]
                        mult = opp_mult(ctx, opp)
                        term += (w.threat_next if n == 0 else w.threat_later) * extra * mult
                    value -= term
                    threat_terms[(cid, k.index, tgt, double)] = term
                    jitter = ctx.rng.random() * 1e-6
                    triples.append((value + jitter, area, order, cid, tgt, k.index, double))
                    order += 1
    triples.sort(key=lambda t: (-round(t[0], 3), -t[1], t[2]))
    failed: set[tuple[int, int, int | str]] = set()
    shortlist: list[Candidate] = []  # hard level (``ctx.refine``): the best few legal triples, re-valued after
    for value, _area, _o, cid, tgt, corner, double in triples:
        if shortlist and (len(shortlist) >= ctx.refine or value < shortlist[0].value - REFINE_SPAN):
            break
        if value < floor:
            break
        if (cid, corner, tgt) in failed:
            continue
        if ctx.out_of_budget():
            break
        ctx.calls += 1
        found = sim.find_placements(ctx.me, cid, corner, tgt, limit=ctx.poses)
        if not found:
            failed.add((cid, corner, tgt))
            continue
        k = DECK[cid].corner(corner)
        on_plus = tgt != "board" and board.get(int(tgt)).card.action == "plus2"
        pts = (k.value + (2 if on_plus else 0)) * (2 if double else 1)
        places = [Place(ctx.me, p.card, p.corner, p.x, p.y, p.rotation, double) for p in found]
        best = _Best(value, places[0], pts, f"card {cid} c{corner} on {tgt}")
        if ctx.refine <= 0:
            return best
        term = threat_terms[(cid, corner, tgt, double)]
        shortlist.extend(Candidate(value, term, place, pts, best.note) for place in places)
    if shortlist:
        ranked = refine_ranked(sim, ctx, shortlist, threat, open_c, plus2)
        c = ranked[0]
        return _Best(c.value, c.place, c.points, c.note + " (refined)", ranked)
    if triples and triples[0][0] < floor:
        return _Best(-math.inf, None, 0, "nothing worth placing")
    return _Best(-math.inf, None, 0, "nothing fits" if not ctx.out_of_budget() else "budget")


def _draw_value(ctx: Context) -> float:
    if ctx.pile == 0:
        return -math.inf
    if ctx.goal_reached:
        return 0.0  # no later turn to use the cards
    missing = max(0, ctx.w.full_hand - len(ctx.hand))
    return (ctx.w.draw_base + ctx.w.draw_per_missing * missing) * min(1.0, 1.5 * ctx.horizon)


# --- lightning --------------------------------------------------------------------------------------------------


LIGHTNING_SLACK = 2.5  # points: above the most that relief + discards - holding can add to a lightning's gain


def _lightning_candidates(sim: Game, ctx: Context) -> list[int]:
    """Free table cards worth simulating a lightning on: free +2 cards (strip a threat) and free cards lying on a
    +2 card (uncover it, X4), newest first, at most 2."""
    board = sim.board
    cards = board.cards
    free = set(board.free_ids())
    out: list[int] = []
    for pos in range(len(cards) - 1, -1, -1):
        tc = cards[pos]
        if tc.id not in free:
            continue
        if tc.card.action == "plus2":
            out.append(tc.id)
            continue
        for below in cards[:pos]:
            if below.card.action == "plus2" and below.rect.intersection(tc.rect).area > 1.0:
                out.append(tc.id)
                break
    out = out[:2]
    if ctx.w.lightning_any:
        extra = [tc.id for tc in reversed(cards) if tc.id in free and tc.id not in out]
        out.extend(extra[: ctx.w.lightning_any])
    return out


# --- entry points -----------------------------------------------------------------------------------------------


def decide(
    game: Game,
    player: int,
    seed: int = 0,
    budget_s: float = 2.0,
    *,
    max_calls: int = 100,
    weights: Weights = DEFAULT_WEIGHTS,
    refine: int = 0,
    poses: int = 1,
    endgame: bool = False,
    rollouts: bool = False,
) -> Decision:
    """``choose_action`` with its reasons: returns a ``Decision`` (action, estimated value in points, finder
    calls used). Same arguments and errors as ``choose_action``. ``max_calls`` is the work budget (finder calls);
    ``refine``/``poses`` > 0/1 turn on the hard level's re-valuation of the best placements (``ai_hard.py``);
    ``endgame`` values last-round moves (E1) by their chance to win (``ai_endgame.py``, no finder call);
    ``rollouts`` compares the best few re-valued placements and drawing by sampled greedy replies
    (``ai_rollout.py``, at most ``PLAYOUT_CALLS`` more finder calls near the end; needs ``refine``)."""
    t0 = time.perf_counter()
    if game.is_over:
        raise IllegalActionError("the game is over", rule="E1")
    view = game.view_for(player)  # validates the seat (InvalidInputError)
    me = player
    hand = list(view["hands"][me])
    on_table = {t["card"] for t in view["table"]}
    unseen = [i for i in sorted(DECK) if i not in on_table and i not in hand]
    stars = {s: v["holder"] for s, v in view["stars"].items()}
    ctx = Context(
        me=me,
        players=view["setup"]["players"],
        goal=view["setup"]["goal"],
        scores=list(view["scores"]),
        hand=hand,
        hand_counts=list(view["hand_counts"]),
        unseen=unseen,
        pile=view["draw_pile"],
        goal_reached=bool(view["goal_reached"]),
        stars=stars,
        star_usable_2x=game.star_usable(me, "2x"),
        w=weights,
        rng=random.Random(f"conex-ai:{seed}:{view['turn']}:{me}:{len(view['table'])}"),
        deadline=t0 + budget_s,
        max_calls=max_calls,
        refine=refine,
        poses=poses,
        endgame=endgame,
        rollouts=rollouts,
    )
    rounds_left = (ctx.goal - max(ctx.scores)) / weights.points_per_turn
    ctx.horizon = 0.0 if ctx.goal_reached else max(0.0, min(1.0, rounds_left / weights.horizon_rounds))
    ctx.opp_2x = {s for s in range(ctx.players) if s != me and game.star_usable(s, "2x")}
    ctx.left = frozenset(view["forfeited"])

    if me in view["pending_discards"] and hand:  # X3
        worst = min(hand, key=lambda i: (keep_value(DECK[i]), i))
        return Decision(Discard(me, worst), -keep_value(DECK[worst]), "discard the least useful card")
    if me != view["current_player"]:
        raise NotYourTurnError(
            f"it is seat {view['current_player'] + 1}'s turn, not seat {me + 1}'s, and no discard is pending",
            player=me,
            current=view["current_player"],
        )

    probes = probe_cards(unseen)
    ctx.probes = probes
    probe_ids = sorted({cid for cid, _ in probes.values()})
    sim = sim_from_view(game, view, me, probe_ids)
    threat = Threat(unseen)
    open_c, plus2 = open_colours(sim, me, probes, ctx)
    probe_calls = ctx.calls
    draw_v = _draw_value(ctx)
    fallback = draw_v if ctx.pile > 0 else 0.0  # the worth of drawing, or of passing (A3)
    floor = draw_v if ctx.pile > 0 else -math.inf
    stay = -math.inf  # hard level, last round: the chance to win of a move scoring nothing (draw or pass)
    if ctx.endgame and ctx.goal_reached:
        stay = last_round_value(ctx, threat, open_c, plus2, 0, False)
        draw_v = fallback = stay
        floor = stay if ctx.pile > 0 else -math.inf
    best = _best_placement(sim, ctx, open_c, plus2, threat, floor)
    search_calls = ctx.calls - probe_calls

    if game.can_lightning(me) and ctx.calls < ctx.max_calls // 2 and not ctx.out_of_budget():
        hold = 0.0 if ctx.goal_reached else weights.hold_lightning * ctx.horizon
        others = sum(1 for s in range(ctx.players) if s != me and ctx.hand_counts[s] > 0)
        base = max(best.value, fallback)
        choice: tuple[float, int] | None = None
        for cid in _lightning_candidates(sim, ctx):
            if ctx.out_of_budget():
                break
            after = deep_copy(sim)
            try:
                after.play(Lightning(me, cid))
            except RuleError:
                continue
            ctx.dead = {}  # the table changed: earlier probe failures no longer hold
            a_open, a_plus = open_colours(after, me, probes, ctx)
            # stop well below the current best: a lightning costing more than LIGHTNING_SLACK is never worth it
            a_best = _best_placement(after, ctx, a_open, a_plus, threat, max(floor, base - LIGHTNING_SLACK))
            # threat already on the table, before vs after, for each opponent still to play
            relief = 0.0
            for n, opp in enumerate(_opponents_to_play(ctx, False)):
                h = ctx.hand_counts[opp]
                diff = threat.value(open_c, plus2, h) - threat.value(a_open, a_plus, max(h - 1, 0))
                relief += (weights.threat_next if n == 0 else weights.threat_later) * diff
            gain = max(a_best.value, fallback) - base + relief + weights.discard_hurt * others - hold
            if gain > 0 and (choice is None or gain > choice[0]):
                choice = (gain, cid)
        if choice is not None:
            bolt = Lightning(me, choice[1])
            game.check(bolt)
            return Decision(bolt, choice[0], f"lightning on card #{choice[1]}", ctx.calls)

    if ctx.rollouts and best.ranked and ctx.pile > 0 and not ctx.goal_reached:
        best, draw_v = _rolled(game, view, ctx, best, draw_v)

    if best.place is not None and (best.value >= draw_v or ctx.pile == 0):
        if ctx.pile == 0 and best.value < stay:
            return Decision(Pass(me), stay, "pass: placing would lower the chance to win", ctx.calls)
        if (
            ctx.pile == 0
            and best.value < -1.0
            and ctx.scores[me] > max(ctx.scores[s] for s in range(ctx.players) if s != me)
        ):
            return Decision(Pass(me), 0.0, "pass: leading and nothing worth placing", ctx.calls)
        resolved: object
        try:
            resolved = game.check(best.place)
        except RuleError:  # pragma: no cover - the finder's poses pass check
            resolved = None
        if isinstance(resolved, Place):
            details = {"points": best.points, "probe_calls": probe_calls, "search_calls": search_calls}
            return Decision(resolved, best.value, best.note, ctx.calls, details)
    if ctx.pile > 0:
        return Decision(Draw(me), draw_v, "draw: nothing worth placing", ctx.calls)
    return Decision(Pass(me), 0.0, "pass: nothing fits and the pile is empty", ctx.calls)


def _rolled(game: Game, view: dict[str, Any], ctx: Context, best: _Best, draw_v: float) -> tuple[_Best, float]:
    """Hard level: the best few re-valued placements and drawing compared by sampled replies (``ai_rollout.py``).
    Returns the best placement and the worth of drawing on the rollouts' scale (unchanged when there is nothing to
    compare or the budget does not allow two options)."""
    top = best.ranked[0]
    if top.term == LAST_ROUND:
        return best, draw_v
    options: list[Option] = []
    for c in best.ranked[:CANDIDATES]:
        if c.term != LAST_ROUND and c.value >= top.value - SPAN:
            options.append(Option(c.place, c.value + c.term, c.value, c.points))
    if draw_v >= top.value - SPAN:
        at = sum(1 for o in options if o.value >= draw_v)
        options.insert(at, Option(Draw(ctx.me), draw_v, draw_v, 0))
    if len(options) < 2:
        return best, draw_v
    budget = rollout.roll_budget(ctx)
    if budget <= 0:
        return best, draw_v
    ctx.roll_limit = ctx.calls + budget
    values = rollout_values(sim_from_view(game, view, ctx.me, []), ctx, options)
    done = [(v, o) for v, o in zip(values, options, strict=True) if v is not None]
    places = [(v, o) for v, o in done if isinstance(o.action, Place)]
    if len(done) < 2 or not places:
        return best, draw_v
    v, o = places[0]
    for v2, o2 in places[1:]:
        if v2 > v + 1e-9:
            v, o = v2, o2
    assert isinstance(o.action, Place)
    draws = [v2 for v2, o2 in done if isinstance(o2.action, Draw)]
    # drawing not compared (or not reached): the one-ply search ranked it below every placement compared
    new_draw = draws[0] if draws else -math.inf
    note = next((c.note for c in best.ranked if c.place == o.action), best.note)
    return _Best(v, o.action, o.points, note + " (rolled out)", best.ranked), new_draw


def choose_action(game: Game, player: int, seed: int = 0, budget_s: float = 2.0) -> AnyAction:
    """The AI's action for seat ``player`` (issue 8): a ``Discard`` when one is pending for them (X3), else on
    their turn a ``Lightning`` (start of turn, X3), a ``Place`` (A1, with ``double=True`` when the 2x star is
    worth using and allowed, V3/X2), a ``Draw`` (A2) or a ``Pass`` (A3). The action passes ``game.check``.

    Deterministic for a given state and ``seed`` (the search is bounded by finder calls; ``budget_s`` seconds is
    only a safety cap). Uses only what ``game.view_for(player)`` shows.

    Raises:
        IllegalActionError: rule ``E1``, the game is over.
        NotYourTurnError: not ``player``'s turn and no discard pending for them.
        InvalidInputError: ``player`` is not a seat.
    """
    return decide(game, player, seed, budget_s).action


def first_fit(game: Game, player: int) -> Place | Draw | Pass:
    """The plainest policy, used by tests and benchmarks to drive games: the placement finder's first pose for
    the first card of ``player``'s hand (in hand order) that has one (A1), else ``Draw`` (A2), else ``Pass`` (A3,
    empty draw pile). No stars, no lightning, no discards; the caller plays it with ``game.play``."""
    for card in list(game.hands[player]):
        found = game.find_placements(player, card, limit=1)
        if found:
            return found[0]
    return Draw(player) if game.pile else Pass(player)
