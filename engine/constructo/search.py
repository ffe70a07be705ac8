"""Search and exact solving of a Constructo round: the ``hard`` AI level and the analysis (issue 16).

:func:`search` runs iterative-deepening negamax under a node and/or time budget; :func:`solve` proves the
exact outcome. Both use the compiled core when it is built (:mod:`engine.constructo.core`), else the
pure-Python search (:mod:`engine.constructo.pysearch`); both give the same values (the core is
differential-tested against the Python search). Deterministic given ``seed`` and a node budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.constructo import core as _core
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.pysearch import SCALE, PySearcher, shuffled_codes
from engine.constructo.round import Round
from engine.errors import IllegalMoveError

__all__ = ["SCALE", "SearchResult", "search", "solve"]

MAX_DEPTH = 40
"""Deeper than any round can last (36 actions), so a search to this depth never meets the horizon."""


@dataclass(frozen=True)
class SearchResult:
    """Outcome of :func:`search`.

    Attributes:
        move: the chosen action.
        value: its value for the player to move, in towers times :data:`SCALE` (exact if ``exact``).
        depth: the deepest fully searched iteration (plies).
        exact: True when the value is the game-theoretic final tower difference (remaining tree solved).
        nodes: nodes visited.
        seconds: wall-clock time spent.
    """

    move: Move
    value: int
    depth: int
    exact: bool
    nodes: int
    seconds: float


def _use_core(core: bool | None) -> bool:
    if core is None:
        return _core.core_available()
    if core and not _core.core_available():
        raise RuntimeError("the compiled search core is not available")
    return core


def search(
    rnd: Round,
    budget_s: float | None = 1.0,
    max_nodes: int | None = None,
    seed: int = 0,
    max_depth: int = MAX_DEPTH,
    iterative: bool = True,
    *,
    core: bool | None = None,
    tt_bits: int = 18,
) -> SearchResult:
    """Negamax alpha-beta (principal variation search) with a transposition table: the ``hard`` level.

    With ``iterative`` (the default) it deepens 1, 2, 3... plies: depth 1 always completes; later
    iterations stop when ``budget_s`` seconds or ``max_nodes`` nodes are spent (the best action of
    the last finished iteration, or a better one found by the interrupted iteration, is returned).
    It stops early when the value is exact (the remaining tree was solved). Without ``iterative``
    it searches ``max_depth`` plies at once (``max_depth`` >= 36 solves the round) and returns an
    inexact result with ``depth == 0`` if a budget runs out.

    ``core``: ``None`` uses the compiled core when built, ``False`` forces the pure-Python search, ``True``
    requires the core (RuntimeError without it). ``tt_bits``: the core's table holds ``4 * 2**tt_bits``
    entries of 16 bytes (18: 16 MiB).

    Raises IllegalMoveError (E1) if the round is over.
    """
    if rnd.is_over:
        raise IllegalMoveError("the round is over: there is no action to choose", rule="E1")
    start = time.perf_counter()
    deadline = start + budget_s if budget_s and budget_s > 0 else None
    codes = shuffled_codes(rnd, seed)
    engine: PySearcher | _core.CoreSearcher
    if _use_core(core):
        engine = _core.CoreSearcher(rnd, codes, max_nodes, deadline, tt_bits=tt_bits)
    else:
        engine = PySearcher(rnd, codes, max_nodes, deadline)
    if not iterative:
        engine.start_depth = max_depth
    code, value, depth, exact = engine.run(max_depth)
    move = MOVE_BY_CODE[code]
    assert move is not None
    return SearchResult(move, value, depth, exact, engine.nodes, time.perf_counter() - start)


def solve(
    rnd: Round,
    max_nodes: int | None = None,
    budget_s: float | None = None,
    *,
    core: bool | None = None,
    tt_bits: int | None = None,
) -> SearchResult | None:
    """The exact outcome of ``rnd`` under perfect play by both sides, or ``None`` if the budgets run out.

    Returns a :class:`SearchResult` whose ``value`` is the final tower difference (S2, E2) for the
    player to move times :data:`SCALE`, and whose ``move`` is an optimal action. ``core`` and ``tt_bits`` as in
    :func:`search` (``tt_bits`` defaults to 20, 64 MiB, for the core).

    Raises IllegalMoveError (E1) if the round is over.
    """
    res = search(
        rnd,
        budget_s=budget_s,
        max_nodes=max_nodes,
        max_depth=MAX_DEPTH,
        iterative=False,
        core=core,
        tt_bits=20 if tt_bits is None else tt_bits,
    )
    return res if res.exact else None
