"""Post-round analysis of Constructo (issue 16.4): how much each action changed the round's value.

:func:`analyse_round` replays a round and values every position of it for the player to move: the exact
final tower difference (S2, E2) where the solver proves it within the node budget, else the ``hard`` search's
estimate (flagged ``exact=False``). An action's *loss* is the value before it minus the value after it, both
from the mover's point of view; the analysis classifies it by codes (never English sentences, the bot
translates them) and names the **turning point** and the action from which the result was **decided**.

Deterministic: budgets are node counts (no wall clock unless ``budget_s`` is given), the search's tie breaks
are seeded. Positions are valued from the last to the first, sharing the compiled core's transposition table,
so the exact values of the end of the round speed up the earlier positions. CPU-bound and pure: the bot runs
it in a worker, never on the event loop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from engine.constructo import core as _core
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.pysearch import shuffled_codes
from engine.constructo.round import Round
from engine.constructo.search import MAX_DEPTH, SCALE, search, solve
from engine.errors import InvalidInputError

__all__ = ["CODES", "OUTCOME_CODES", "MoveAnalysis", "Outcome", "RoundAnalysis", "analyse_round"]

Outcome = Literal["win", "draw", "loss"]

CODES: tuple[str, ...] = (
    "forced",
    "best",
    "good",
    "inaccuracy",
    "lost_tower",
    "lost_towers",
    "win_to_draw",
    "draw_to_loss",
    "win_to_loss",
)
"""Action classifications. A **change of outcome** comes first: an action that makes its mover's result worse
(S2, E2: the round's winner is who has more towers) is named by that change, whatever the number of towers:

* ``win_to_draw``: a won round let go to a draw ("lost the win").
* ``draw_to_loss``: a drawn round turned into a loss.
* ``win_to_loss``: a won round turned into a loss.

An estimate (inexact values) only counts as a change when it also lost half a tower or more. Otherwise, by the
towers the action cost while the result stays the same:

* ``forced``: the only legal action.
* ``best``: no loss (the action keeps the best value; it may differ from :attr:`MoveAnalysis.best` on ties).
* ``good`` / ``inaccuracy``: a loss under a quarter of a tower / under one tower; only estimates (inexact
  values) have such fractions.
* ``lost_tower``: the value dropped by at least one tower (and less than two), the result unchanged.
* ``lost_towers``: the value dropped by two towers or more, the result unchanged.
"""

OUTCOME_CODES: tuple[str, ...] = ("win_to_draw", "draw_to_loss", "win_to_loss")
"""The codes of an action that changed its mover's result (see :data:`CODES`)."""

DEFAULT_NODES_CORE = 250_000
DEFAULT_NODES_PYTHON = 15_000


@dataclass(frozen=True)
class MoveAnalysis:
    """One action of the round, valued from its mover's point of view.

    Attributes:
        index: 0-based position of the action in the round.
        player: the mover (0/1).
        move: the action played.
        value_before: the position's value before the action (towers times :data:`SCALE`).
        value_after: the value after the action (the opponent's value of the next position, negated).
        exact: both values are proven (the remaining tree was solved); otherwise one is the search's estimate.
        best: the best action found in the position before (one of several on ties).
        loss: ``value_before - value_after`` (towers times :data:`SCALE`; never below 0 when exact).
        code: the classification, one of :data:`CODES`.
        outcome_before / outcome_after: the round's result the values point to for the mover
            (``"win"``/``"draw"``/``"loss"``; estimates are rounded to whole towers).
    """

    index: int
    player: int
    move: Move
    value_before: int
    value_after: int
    exact: bool
    best: Move
    loss: int
    code: str
    outcome_before: Outcome
    outcome_after: Outcome

    @property
    def loss_towers(self) -> float:
        """The loss in towers."""
        return self.loss / SCALE

    @property
    def changed_outcome(self) -> bool:
        """True when the action made the mover's result worse (a win thrown to a draw or a loss, a draw to a
        loss)."""
        order = {"loss": 0, "draw": 1, "win": 2}
        return order[self.outcome_after] < order[self.outcome_before]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: every field, moves in notation, values in towers times ``SCALE``."""
        return {
            "index": self.index,
            "player": self.player,
            "move": str(self.move),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "exact": self.exact,
            "best": str(self.best),
            "loss": self.loss,
            "code": self.code,
            "outcome_before": self.outcome_before,
            "outcome_after": self.outcome_after,
        }


@dataclass(frozen=True)
class RoundAnalysis:
    """The analysis of one round.

    Attributes:
        record: the round's record (section 8), e.g. ``"rombo: L5 M4 4-5"``.
        first: the player who started the round.
        moves: one :class:`MoveAnalysis` per action, in order.
        start_value: the value of the starting position for ``first`` (towers times :data:`SCALE`).
        start_exact: whether ``start_value`` is proven.
        final_score: towers of player 0 and player 1 after the last action (S2).
        turning_point: index of the **first** action that made its mover's result worse (a code of
            :data:`OUTCOME_CODES`, an estimated change included: its ``exact`` says so), else the largest loss of at
            least one tower (proven first, ties to the earliest), or ``None`` when no action lost a tower.
        decided_at: the first position index (0 = before the first action, ``len(moves)`` = after the last)
            from which every position is proven to end with the round's actual result.
        scale: :data:`SCALE` (values are towers times ``scale``).
        nodes: search nodes spent.
        seconds: wall-clock time spent (informative only; never changes the result).
    """

    record: str
    first: int
    moves: tuple[MoveAnalysis, ...]
    start_value: int
    start_exact: bool
    final_score: tuple[int, int]
    turning_point: int | None
    decided_at: int
    scale: int
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form (codes and numbers only): ``{"record", "first", "moves": [MoveAnalysis.to_dict()...],
        "start_value", "start_exact", "final_score", "turning_point", "decided_at", "scale", "nodes"}``."""
        return {
            "record": self.record,
            "first": self.first,
            "moves": [m.to_dict() for m in self.moves],
            "start_value": self.start_value,
            "start_exact": self.start_exact,
            "final_score": list(self.final_score),
            "turning_point": self.turning_point,
            "decided_at": self.decided_at,
            "scale": self.scale,
            "nodes": self.nodes,
        }


def _outcome(value: int) -> Outcome:
    towers = round(value / SCALE)
    return "win" if towers > 0 else "loss" if towers < 0 else "draw"


_ORDER = {"loss": 0, "draw": 1, "win": 2}


def _classify(loss: int, forced: bool, before: Outcome = "draw", after: Outcome = "draw", exact: bool = True) -> str:
    """The code of an action (see :data:`CODES`): a worse result first, then the towers lost."""
    if forced:
        return "forced"
    if _ORDER[after] < _ORDER[before] and (exact or loss >= SCALE // 2):
        return f"{before}_to_{after}"
    if loss <= 0:
        return "best"
    if loss < SCALE // 4:
        return "good"
    if loss < SCALE:
        return "inaccuracy"
    return "lost_tower" if loss < 2 * SCALE else "lost_towers"


class _Valuer:
    """Values positions of one round, last to first, with one shared table when the compiled core is built."""

    def __init__(self, rnd: Round, max_nodes: int, deadline: float | None, seed: int) -> None:
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.seed = seed
        self.shared = _core.new_core(rnd, tt_bits=19) if _core.core_available() else None
        self.exact_possible = True  # once a position is not solved, earlier (larger) ones are only estimated
        self.nodes = 0

    def value(self, pos: Round) -> tuple[int, bool, int]:
        """(value for the player to move, exact, best action code) of a position that is not over."""
        if self.shared is not None:
            codes = shuffled_codes(pos, self.seed)
            if self.exact_possible:
                solver = _core.CoreSearcher(pos, codes, self.max_nodes, self.deadline, core=self.shared)
                code, val, _, exact = solver.solve()
                self.nodes += solver.nodes
                if exact:
                    return val, True, code
                self.exact_possible = False
            engine = _core.CoreSearcher(pos, codes, self.max_nodes, self.deadline, core=self.shared)
            code, val, _, exact = engine.run(MAX_DEPTH)
            self.nodes += engine.nodes
            return val, exact, code
        budget = None if self.deadline is None else max(0.001, self.deadline - time.perf_counter())
        if self.exact_possible:
            res = solve(pos, max_nodes=self.max_nodes, budget_s=budget, core=False)
            if res is not None:
                self.nodes += res.nodes
                return res.value, True, res.move.code
            self.exact_possible = False
        found = search(pos, budget_s=budget, max_nodes=self.max_nodes, seed=self.seed, core=False)
        self.nodes += found.nodes
        return found.value, found.exact, found.move.code


def analyse_round(
    rnd: Round,
    *,
    max_nodes: int | None = None,
    budget_s: float | None = None,
    seed: int = 0,
) -> RoundAnalysis:
    """Analyse every action of ``rnd`` (finished or not; e.g. ``match.rounds[i]``); ``rnd`` is not changed.

    Args:
        max_nodes: search nodes per position (default 250,000 with the compiled core, 15,000 without: a
            full round in a few seconds either way). A position is solved exactly when the solver finishes
            within it, else valued by the ``hard`` search within it.
        budget_s: optional wall-clock cap for the whole analysis (the result then depends on the machine's
            speed); ``None`` (default) keeps it deterministic.
        seed: tie breaks of the search.

    Returns: a :class:`RoundAnalysis`.

    Raises:
        InvalidInputError: ``rnd`` is not a Round.
    """
    if not isinstance(rnd, Round):
        raise InvalidInputError(f"analyse_round needs a Round, not {type(rnd).__name__}", reason="internal")
    start = time.perf_counter()
    if max_nodes is None:
        max_nodes = DEFAULT_NODES_CORE if _core.core_available() else DEFAULT_NODES_PYTHON
    deadline = start + budget_s if budget_s is not None and budget_s > 0 else None
    codes = list(rnd.codes)
    positions = [Round(rnd.layout, rnd.first)]
    for code in codes:
        nxt = positions[-1].copy()
        nxt.apply_code(code)
        positions.append(nxt)
    valuer = _Valuer(rnd, max_nodes, deadline, seed)
    values: list[tuple[int, bool, int]] = [(0, True, -1)] * len(positions)
    for i in range(len(positions) - 1, -1, -1):
        pos = positions[i]
        if pos.is_over:
            a, b = pos.score()
            values[i] = ((a - b) * SCALE * (1 if pos.current_player == 0 else -1), True, -1)
        else:
            values[i] = valuer.value(pos)
    moves: list[MoveAnalysis] = []
    for i, code in enumerate(codes):
        before, ex_b, best = values[i]
        after, ex_a = -values[i + 1][0], values[i + 1][1]
        exact = ex_b and ex_a
        loss = before - after
        if best == code:
            loss = max(loss, 0)
        move, best_move = MOVE_BY_CODE[code], MOVE_BY_CODE[best]
        assert move is not None and best_move is not None
        forced = len(positions[i].legal_codes()) == 1
        moves.append(
            MoveAnalysis(
                index=i,
                player=positions[i].current_player,
                move=move,
                value_before=before,
                value_after=after,
                exact=exact,
                best=best_move,
                loss=loss,
                code=_classify(loss, forced, _outcome(before), _outcome(after), exact),
                outcome_before=_outcome(before),
                outcome_after=_outcome(after),
            )
        )
    final = positions[-1].score()
    return RoundAnalysis(
        record=rnd.record(),
        first=rnd.first,
        moves=tuple(moves),
        start_value=values[0][0],
        start_exact=values[0][1],
        final_score=final,
        turning_point=_turning_point(moves),
        decided_at=_decided_at(positions, values, final),
        scale=SCALE,
        nodes=valuer.nodes,
        seconds=time.perf_counter() - start,
    )


def _turning_point(moves: list[MoveAnalysis]) -> int | None:
    """The **first** action that changed its mover's result (an estimated change counts: it is marked as such),
    else the costliest action that lost at least one tower (proven first; ties to the earliest), else ``None``."""
    changed = [m.index for m in moves if m.code in OUTCOME_CODES]
    if changed:
        return min(changed)
    costly = [m for m in moves if m.loss >= SCALE and m.code != "forced"]
    for pool in ([m for m in costly if m.exact], costly):
        if pool:
            return max(pool, key=lambda m: (m.loss, -m.index)).index
    return None


def _decided_at(positions: list[Round], values: list[tuple[int, bool, int]], final: tuple[int, int]) -> int:
    result0 = (final[0] > final[1]) - (final[0] < final[1])  # player 0's view: 1 win, 0 draw, -1 loss
    decided = len(positions) - 1
    for i in range(len(positions) - 1, -1, -1):
        value, exact, _ = values[i]
        v0 = value if positions[i].current_player == 0 else -value
        if not exact or (v0 > 0) - (v0 < 0) != result0:
            break
        decided = i
    return decided
