"""CONEX AI levels (issue 25): ``easy``, ``medium`` (the issue-8 AI, ``engine/conex/ai.py``) and ``hard``.

- ``easy``: beatable by a new player. Asks the placement finder for a few poses of at most ``EASY_CARDS`` hand
  cards (picked at random), then plays a random pose among the lower-scoring half (V1, V2); never uses a star
  (no 2x V3, no lightning X3), discards a random card (X3), draws (A2) when nothing fits, passes (A3) when the
  pile is empty too.
- ``medium``: ``ai.decide`` with its defaults (100 finder calls at most).
- ``hard``: ``ai.decide`` with a larger budget, two poses per triple, the re-valuation of the best placements
  on the table each leaves (``ai_hard.py``), its own tuning (``HARD_WEIGHTS``), in the last round (E1) moves
  valued by their chance to win (``ai_endgame.py``) and, once a score is within 25 points of the goal, its best
  three placements and drawing compared by greedy playouts to the game's end on two deals of the hidden cards
  sampled from the unseen ones (``ai_rollout.py``; never a hidden card read). Budget: ``HARD_SEARCH_CALLS`` finder
  calls for the search plus ``ai_rollout.PLAYOUT_CALLS`` for the playouts (``LEVEL_CALLS["hard"]``, 380).
  Measured (BENCHMARKS.md "CONEX hard AI, third pass", 400 games each): 64.8 % wins against two greedy seats
  (95 % Wilson 59.9-69.3 %; target 75 %) and 38.5 % against two mediums (33.9-43.4 %; target 50 %): targets not met.

Every level sees only ``game.view_for(player)`` (the easy one plays on ``ai_model.sim_from_view``, the others
already do), is bounded by WORK, never by wall time (finder calls: ``LEVEL_CALLS``), so the same position and seed
give the same action on a busy machine, and returns an action that passes ``game.check``.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from engine.conex.actions import AnyAction, Discard, Draw, Pass, Place
from engine.conex.ai import Decision, decide
from engine.conex.ai_model import DEFAULT_WEIGHTS, sim_from_view
from engine.conex.ai_rollout import PLAYOUT_CALLS
from engine.conex.game import Game
from engine.errors import IllegalActionError, InvalidInputError, NotYourTurnError, quoted

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The levels, weakest first."""

DEFAULT_LEVEL = "medium"

EASY_CARDS = 4
"""Hand cards the easy level looks at (one finder call each)."""

HARD_REFINE = 4
"""Legal poses the hard level re-values (``ai_hard.refine_ranked``): ``HARD_POSES`` per (card, corner, target)
triple, best triple first, so usually those of the best two triples."""

HARD_POSES = 2
"""Poses per triple the hard level asks of the finder (and re-values)."""

HARD_WEIGHTS = replace(DEFAULT_WEIGHTS, hold_2x=2.0, self_next=0.4)
"""The hard level's tuning (``ai_model.Weights``): it spends the 2x star on smaller placements than medium (a greedy
die roll may take it first, X1) and counts its own best next placement (BENCHMARKS.md "CONEX AI levels")."""

HARD_ROLLOUTS = True
"""Whether the hard level compares its best candidates by sampled greedy replies (``ai_rollout.py``)."""

HARD_SEARCH_CALLS = 180
"""The hard level's one-ply search and re-valuation budget (finder calls); its playouts have their own
(``ai_rollout.PLAYOUT_CALLS``) on top."""

LEVEL_CALLS: dict[str, int] = {
    "easy": EASY_CARDS,
    "medium": 100,
    "hard": HARD_SEARCH_CALLS + PLAYOUT_CALLS,
}
"""Work budget per decision, in placement-finder calls (the unit every level counts; ``Decision.calls``)."""

FIRST_RESPONSE_CALLS = 400
"""The most finder calls any level may spend on one decision. On a quiet machine the medium level's slowest decision
on crowded tables (35-51 cards, 100 calls at most) took 306 ms (BENCHMARKS.md "CONEX AI"), about 3 ms per call; the
hard level's playout calls are single (card, corner, target) calls (about 1-3 ms each), and its 380 calls at most
keep its decisions under the ~2-s target on a quiet machine (p99 in BENCHMARKS.md "CONEX hard AI, third pass"). The
hard level runs in the bot's background lane (``bot/games/conex/kind.py``). Wall time under load is not the unit:
the same work takes several times longer on a machine loaded by others (BENCHMARKS.md "CONEX AI levels")."""


def decide_level(game: Game, player: int, level: str, seed: int = 0, budget_s: float = math.inf) -> Decision:
    """The ``level`` AI's decision for seat ``player``: ``Decision`` (action, value in points, finder calls).

    ``budget_s`` is only a safety cap against a runaway search (the default: none); the work bound is
    ``LEVEL_CALLS[level]``. Deterministic for a state, level and ``seed``.

    Raises:
        InvalidInputError: unknown ``level`` or seat.
        IllegalActionError: rule ``E1``, the game is over.
        NotYourTurnError: not ``player``'s turn and no discard pending for them.
    """
    if level == "easy":
        return _easy(game, player, seed)
    if level == "medium":
        return decide(game, player, seed, budget_s, max_calls=LEVEL_CALLS["medium"])
    if level == "hard":
        return decide(
            game,
            player,
            seed,
            budget_s,
            max_calls=HARD_SEARCH_CALLS,
            weights=HARD_WEIGHTS,
            refine=HARD_REFINE,
            poses=HARD_POSES,
            endgame=True,
            rollouts=HARD_ROLLOUTS,
        )
    raise InvalidInputError(
        f"unknown AI level {quoted(level)}: use one of {', '.join(LEVELS)}",
        reason="unknown_level",
        level=str(level),
        levels=", ".join(LEVELS),
    )


def choose_level_action(game: Game, player: int, level: str, seed: int = 0, budget_s: float = math.inf) -> AnyAction:
    """``decide_level(...).action``: the action to play (same arguments and errors)."""
    return decide_level(game, player, level, seed, budget_s).action


def _easy(game: Game, player: int, seed: int) -> Decision:
    """The easy policy (module docstring)."""
    if game.is_over:
        raise IllegalActionError("the game is over", rule="E1")
    view = game.view_for(player)  # validates the seat (InvalidInputError)
    hand = sorted(view["hands"][player])
    rng = random.Random(f"conex-ai-easy:{seed}:{view['turn']}:{player}:{len(view['table'])}")
    if player in view["pending_discards"] and hand:  # X3
        return Decision(Discard(player, rng.choice(hand)), 0.0, "discard a random card")
    if player != view["current_player"]:
        raise NotYourTurnError(
            f"it is seat {view['current_player'] + 1}'s turn, not seat {player + 1}'s, and no discard is pending",
            player=player,
            current=view["current_player"],
        )
    sim = sim_from_view(game, view, player, [])
    options: list[tuple[int, str, Place]] = []
    calls = 0
    for cid in rng.sample(hand, min(len(hand), EASY_CARDS)):
        calls += 1
        for place in sim.find_placements(player, cid, limit=3):
            options.append((sim.points_for(place), str(place), place))
    if options:
        options.sort(key=lambda o: (o[0], o[1]))
        pts, _text, place = rng.choice(options[: (len(options) + 1) // 2])
        checked = game.check(place)
        assert isinstance(checked, Place)
        return Decision(checked, float(pts), "a random low-scoring placement", calls, {"points": pts})
    if view["draw_pile"] > 0:
        return Decision(Draw(player), 0.0, "draw: nothing fits", calls)
    return Decision(Pass(player), 0.0, "pass: nothing fits and the pile is empty", calls)


__all__ = ["DEFAULT_LEVEL", "FIRST_RESPONSE_CALLS", "LEVELS", "LEVEL_CALLS", "choose_level_action", "decide_level"]
