"""Constructo AI (issue 8): pick an action for a round or a match, and round 2's layout.

Levels:

* ``easy``   -- mostly random among the legal actions, with a light preference for an action that
  scores a tower at once.
* ``medium`` -- 2-ply greedy on the tower count: the action whose worst case after the opponent's
  best immediate reply leaves the best tower difference.
* ``hard``   -- :func:`engine.constructo.search.search`: iterative-deepening negamax alpha-beta with a
  transposition table keyed up to the layout's symmetries, under a **node** budget (:func:`hard_nodes`: about
  0.7 s of one core of the project's machine), in the compiled core when it is built
  (:mod:`engine.constructo.core`). Whenever the remaining tree is searched without
  reaching the depth horizon (at most 36 actions per round), the result is exact and the search stops: the
  AI then plays perfectly.
* ``perfect`` -- :func:`engine.constructo.perfect.perfect_choice`: the opening book of the recommended layouts,
  then exact search within a node budget, else (counted) the ``hard`` search.

The value of a round is its final tower difference (S2, E2) for the player to move; non-terminal
leaves get a heuristic (tower difference plus a small bonus for available tower-making moves).

No asyncio: the bot runs it in a worker (the compiled core releases the GIL while it searches).
Deterministic given ``seed``: every level is bounded by node counts, never by the clock, so a position gets the same
move on an idle or a busy machine (a wall-clock ``budget_s`` is used only when a caller asks for one).
``search``, ``solve``, ``SearchResult`` and ``SCALE`` are re-exported from
:mod:`engine.constructo.search`.
"""

from __future__ import annotations

import random
from typing import Literal

from engine.constructo import core as _core
from engine.constructo.layout import LAYOUTS, RECOMMENDED, Layout
from engine.constructo.match import Match
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.perfect import perfect_choice
from engine.constructo.round import Round
from engine.constructo.search import SCALE, SearchResult, search, solve
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError, quoted

__all__ = [
    "HARD_NODES_CORE",
    "HARD_NODES_PYTHON",
    "LEVELS",
    "SCALE",
    "Level",
    "SearchResult",
    "choose_layout",
    "choose_move",
    "hard_nodes",
    "search",
    "solve",
]

Level = Literal["easy", "medium", "hard", "perfect"]
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "perfect")

_INF = 1 << 30

HARD_NODES_CORE = 2_000_000
"""The ``hard`` level's node budget with the compiled core: ~2.8 M nodes/s of CPU here, so ~0.7 s of one core."""
HARD_NODES_PYTHON = 150_000
"""The same with the pure-Python search (~130 k nodes/s here: ~1.1 s): a shallower, still deterministic game."""


def hard_nodes() -> int:
    """The ``hard`` level's default node budget for the search in use (compiled core or pure Python)."""
    return HARD_NODES_CORE if _core.core_available() else HARD_NODES_PYTHON


def _round_of(state: Round | Match) -> Round:
    if isinstance(state, Match):
        if state.is_over:
            raise IllegalMoveError("the match is over: there is no action to choose", rule="E1")
        if state.phase == "choosing_layout":
            raise IllegalMoveError("round 2's layout must be chosen first", rule="M1")
        return state.current_round
    if isinstance(state, Round):
        if state.is_over:
            raise IllegalMoveError("the round is over: there is no action to choose", rule="E1")
        return state
    raise InvalidInputError(f"choose_move needs a Round or a Match, not {type(state).__name__}", reason="internal")


def _gain(rnd: Round, code: int) -> int:
    """Tower difference change for the mover if they play ``code`` (placements never change it)."""
    if code < 36:
        return 0
    p = rnd.current_player
    rnd.apply_code(code)
    a, b = rnd.score()
    rnd.undo_code()
    a0, b0 = rnd.score()
    return (a - b - a0 + b0) * (1 if p == 0 else -1)


# ---- public API ----------------------------------------------------------------------------
def choose_move(
    state: Round | Match,
    level: Level | str = "easy",
    seed: int = 0,
    budget_s: float | None = None,
    max_nodes: int | None = None,
) -> Move:
    """Pick a legal action for the player to move in ``state`` (a Round, or a Match's current round).

    Args:
        level: ``"easy"``, ``"medium"``, ``"hard"`` or ``"perfect"`` (see the module docstring).
        seed: seeds a ``random.Random`` (tie breaks and easy's choices): same seed, same answer.
        budget_s: optional wall-clock cap in seconds for ``hard`` (``None`` or ``<= 0``, the default: none). With a
            cap the move depends on the machine's speed and load; the bot never passes one.
        max_nodes: node budget for ``hard`` and ``perfect``'s fallback (``None``: :func:`hard_nodes`, ~2 M nodes
            with the compiled core).
            A node budget alone makes the move depend only on the position and ``seed``.

    Returns: a :class:`Move` that is legal in the current position (never mutates ``state``).

    Raises:
        IllegalMoveError: rule ``E1`` if the round or match is over, ``M1`` while round 2's layout is
            to be chosen.
        InvalidInputError: unknown level or state type.
    """
    rnd = _round_of(state)
    rng = random.Random(seed)
    if level == "easy":
        return _easy(rnd, rng)
    if level == "medium":
        return _medium(rnd, rng)
    if level == "hard":
        if max_nodes is None:
            max_nodes = hard_nodes()  # never an unbounded search: the whole round is far too big to solve
        cap = budget_s if budget_s is not None and budget_s > 0 else None
        return search(rnd, budget_s=cap, max_nodes=max_nodes, seed=seed).move
    if level == "perfect":
        return perfect_choice(rnd, seed, fallback_nodes=hard_nodes() if max_nodes is None else max_nodes).move
    raise InvalidInputError(
        f"unknown AI level {quoted(level)}: use easy, medium, hard or perfect",
        reason="unknown_level",
        level=str(level),
        levels="easy, medium, hard, perfect",
    )


def _easy(rnd: Round, rng: random.Random) -> Move:
    codes = list(rnd.legal_codes())
    scoring = [c for c in codes if c >= 36 and _gain(rnd.copy(), c) > 0]
    if scoring and rng.random() < 0.3:
        return MOVE_BY_CODE[rng.choice(scoring)]  # type: ignore[return-value]
    return MOVE_BY_CODE[rng.choice(codes)]  # type: ignore[return-value]


def _medium(rnd: Round, rng: random.Random) -> Move:
    work = rnd.copy()
    p = work.current_player
    sign = 1 if p == 0 else -1
    best: list[int] = []
    best_val = -_INF
    for code in list(work.legal_codes()):
        work.apply_code(code)
        replies = list(work.legal_codes())
        if not replies:
            a, b = work.score()
            val = (a - b) * sign * 10  # the round ends: final
        else:
            val = _INF
            for r in replies:
                work.apply_code(r)
                a, b = work.score()
                val = min(val, (a - b) * sign * 10)
                work.undo_code()
        work.undo_code()
        if val > best_val:
            best_val, best = val, [code]
        elif val == best_val:
            best.append(code)
    return MOVE_BY_CODE[rng.choice(best)]  # type: ignore[return-value]


def choose_layout(match: Match, player: int, seed: int = 0, max_nodes: int = 4000) -> Layout:
    """Round 2's layout for ``player`` (the chooser, M1): the recommended layout a short search
    likes best for the player who starts round 2 (the chooser), keeping round 1's layout on ties.

    Raises:
        IllegalMoveError: rule ``M1`` when no layout is to be chosen now.
        NotYourTurnError: ``player`` is not the chooser (M1).
    """
    if match.phase != "choosing_layout":
        raise IllegalMoveError("round 2's layout is chosen only once round 1 is over", rule="M1")
    if player != match.chooser:
        raise NotYourTurnError("the player who did not start round 1 chooses the layout of round 2")
    rng = random.Random(seed)
    current = match.rounds[0].layout
    scored: list[tuple[int, int, str]] = []
    for name in RECOMMENDED:
        res = search(Round(LAYOUTS[name], player), budget_s=None, max_nodes=max_nodes, seed=seed)
        keep = 1 if LAYOUTS[name] == current else 0
        scored.append((res.value, keep, name))
    top = max(v for v, _, _ in scored)
    best = [(k, n) for v, k, n in scored if v == top]
    if any(k for k, _ in best):
        return current
    return LAYOUTS[rng.choice([n for _, n in best])]
