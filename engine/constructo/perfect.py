"""The ``perfect`` Constructo level (issue 25): the opening book, then exact search, else hard search.

For the player to move in a round, in this order:

1. **book**: the position (up to symmetry) is in the opening book (:mod:`engine.constructo.book`): its proven
   best action.
2. **kept**: the round's latest position held by the book gives a target (its exact value, from this player's
   side); a null-window search of the remaining tree within :data:`KEPT_NODES_CORE` nodes looks for an action
   proven to reach it (:func:`book_floor`, :func:`prove_at_least`). Within :data:`EDGE_PLIES` plies of the book
   this comes first (the exact search seldom fits there); later it comes after the exact search. Proven, though
   it may not exploit an opponent's slip to the full.
3. **solved**: :func:`engine.constructo.search.solve` proves the remaining tree within :data:`PERFECT_NODES_CORE`
   nodes (about 2-2.5 s of one idle core with the compiled core): a proven best action.
4. **fallback**: none of these: the ``hard`` level's search (:func:`engine.constructo.ai.hard_nodes` nodes, heuristic
   below its horizon), so the move is strong but not proven. Every fallback is counted in :data:`COUNTS` (and
   logged), and the bench (``bench/bench_perfect.py``) reports how often it happens per layout.

Where the book, the solver or the kept bound answered, the action keeps the round's proven value (S2, E2): the
level never loses a round it can draw or win from such a position. Deterministic: node budgets only, never the clock.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from engine.constructo import core as _core
from engine.constructo.book import Book, load_book
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.pysearch import Abort, PySearcher, shuffled_codes
from engine.constructo.round import Round
from engine.constructo.search import MAX_DEPTH, search, solve
from engine.errors import IllegalMoveError

__all__ = [
    "COUNTS",
    "EDGE_PLIES",
    "KEPT_NODES_CORE",
    "KEPT_NODES_PYTHON",
    "PERFECT_NODES_CORE",
    "PERFECT_NODES_PYTHON",
    "PerfectChoice",
    "book_floor",
    "perfect_choice",
    "perfect_nodes",
    "prove_at_least",
]

log = logging.getLogger("engine.constructo")

PERFECT_NODES_CORE = 8_000_000
"""Node budget of the exact search with the compiled core (~3-4 M nodes/s of one idle core here: ~2-2.5 s). It
proves most positions from ply 3-5 of the recommended layouts (BENCHMARKS.md, "Perfect Constructo level")."""
PERFECT_NODES_PYTHON = 200_000
"""The same with the pure-Python search (~130 k nodes/s): proves only the last plies, then falls back."""
KEPT_NODES_CORE = 32_000_000
"""Node budget of the ``kept`` null-window proof with the compiled core (~10 s of one idle core): spent only at the
book's edge (the first one or two moves of a round past the book), where rombo's first reply needs ~25 M nodes."""
KEPT_NODES_PYTHON = 400_000
"""The same with the pure-Python search."""
EDGE_PLIES = 1
"""Up to this many plies past the book's last position in the round (right past its edge, where the target is a
strict lower bound and the tree is the largest), the ``kept`` proof comes before the exact search, which seldom
fits its budget there; further on, the exact search first (it also exploits a slip of the opponent)."""

Source = Literal["book", "solved", "kept", "fallback"]

COUNTS: Counter[str] = Counter()
"""Moves chosen by this process's ``perfect`` level, by source: ``"book"``, ``"solved"``, ``"kept"``, ``"fallback"``."""


def perfect_nodes() -> int:
    """The exact search's node budget for the search in use (compiled core or pure Python)."""
    return PERFECT_NODES_CORE if _core.core_available() else PERFECT_NODES_PYTHON


@dataclass(frozen=True)
class PerfectChoice:
    """The ``perfect`` level's answer.

    Attributes:
        move: a legal action of the player to move.
        source: ``"book"``, ``"solved"`` (both proven optimal), ``"kept"`` (proven to reach ``value``) or
            ``"fallback"`` (hard search, not proven).
        value: the position's exact value for the player to move (tower difference times ``SCALE``); for ``kept``
            the proven lower bound the action keeps; ``None`` after a fallback.
        nodes: search nodes spent (0 for a book move; a fallback counts the budgets of the proofs tried in full).
    """

    move: Move
    source: Source
    value: int | None
    nodes: int


def perfect_choice(
    rnd: Round,
    seed: int = 0,
    *,
    fallback_nodes: int,
    max_nodes: int | None = None,
    kept_nodes: int | None = None,
    book: Book | None = None,
) -> PerfectChoice:
    """The ``perfect`` level's action for ``rnd``'s player to move (the module docstring).

    Args:
        seed: the fallback search's tie breaks (the book and the exact search do not depend on it).
        max_nodes: the exact search's budget (``None``: :func:`perfect_nodes`).
        kept_nodes: the ``kept`` proof's budget (``None``: :data:`KEPT_NODES_CORE`, or :data:`KEPT_NODES_PYTHON`
            without the compiled core).
        fallback_nodes: the fallback's node budget (:func:`engine.constructo.ai.choose_move` passes the
            ``hard`` level's, :func:`engine.constructo.ai.hard_nodes`).
        book: the opening book (``None``: the shipped one, :func:`engine.constructo.book.load_book`).

    Raises:
        IllegalMoveError: rule ``E1`` if the round is over.
        StateError: an unreadable shipped book.
    """
    if rnd.is_over:
        raise IllegalMoveError("the round is over: there is no action to choose", rule="E1")
    book = book if book is not None else load_book()
    hit = book.lookup(rnd)
    if hit is not None:
        COUNTS["book"] += 1
        return PerfectChoice(hit.move, "book", hit.value, 0)
    budget = perfect_nodes() if max_nodes is None else max_nodes
    target = book_floor(rnd, book)
    if kept_nodes is None:
        kept_nodes = KEPT_NODES_CORE if _core.core_available() else KEPT_NODES_PYTHON
    if target is not None and target[1] <= EDGE_PLIES:  # at the book's edge: the tree is rarely small enough
        kept = prove_at_least(rnd, target[0], kept_nodes)
        if kept is not None:
            COUNTS["kept"] += 1
            return PerfectChoice(kept[0], "kept", target[0], kept[1])
    proved = solve(rnd, max_nodes=budget, tt_bits=18)
    if proved is not None:
        COUNTS["solved"] += 1
        return PerfectChoice(proved.move, "solved", proved.value, proved.nodes)
    if target is not None and target[1] > EDGE_PLIES:  # deeper: the exact search had its chance first
        kept = prove_at_least(rnd, target[0], kept_nodes)
        if kept is not None:
            COUNTS["kept"] += 1
            return PerfectChoice(kept[0], "kept", target[0], kept[1])
    found = search(rnd, budget_s=None, max_nodes=fallback_nodes, seed=seed)
    COUNTS["fallback"] += 1
    log.info(
        "Constructo perfect level: no proof within %d nodes on %s at ply %d; fell back to hard search",
        budget,
        rnd.layout.name or "a custom layout",
        len(rnd.codes),
    )
    return PerfectChoice(found.move, "fallback", None, budget + found.nodes)


def book_floor(rnd: Round, book: Book) -> tuple[int, int] | None:
    """The value the book proved for this round, seen from ``rnd``'s player to move, and how many plies back.

    Walks back to the latest position of the round held by the book: its exact value ``v`` for its mover is this
    player's target when that mover is this player (an even distance) and ``-v`` otherwise. One ply back the
    target is a proven lower bound (every reply leaves at least ``-v``); further back it is what the book's line
    promises, proven only by :func:`prove_at_least` (which fails when the line has lost value). ``None`` when no
    position of the round is in the book. Returns ``(target times SCALE, distance in plies)``."""
    work = rnd.copy()
    for distance in range(1, len(rnd.codes) + 1):
        work.undo_code()
        hit = book.lookup(work)
        if hit is not None:
            return (hit.value if distance % 2 == 0 else -hit.value), distance
    return None


def prove_at_least(rnd: Round, floor: int, max_nodes: int) -> tuple[Move, int] | None:
    """An action of ``rnd``'s player to move proven, by a null-window search of the whole remaining tree, to reach a
    final value of at least ``floor`` (tower difference times ``SCALE``), and the nodes spent; ``None`` when no
    action reaches it or ``max_nodes`` runs out first."""
    codes = shuffled_codes(rnd, 0)
    if _core.core_available():
        engine = _core.CoreSearcher(rnd, codes, max_nodes, None, tt_bits=18)
        aborted, code, value, _, nodes, _ = engine.core.root(
            engine.board, engine.res, engine.turn, codes, engine.plies_left + 1, floor - 1, floor, max_nodes, -1.0
        )
        if aborted or value < floor:
            return None
        spent = int(nodes)
    else:
        searcher = PySearcher(rnd, codes, max_nodes, None)
        searcher.start_depth = MAX_DEPTH  # budgets apply from the first node
        try:
            code, value = searcher._root(MAX_DEPTH, codes[0], floor - 1, floor)
        except Abort:
            return None
        if value < floor:
            return None
        spent = searcher.nodes
    move = MOVE_BY_CODE[code]
    assert move is not None  # a legal action code
    return move, spent
