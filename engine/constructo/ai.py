"""Constructo AI (issue 8): pick an action for a round or a match, and round 2's layout.

Levels:

* ``easy``   -- mostly random among the legal actions, with a light preference for an action that
  scores a tower at once.
* ``medium`` -- 2-ply greedy on the tower count: the action whose worst case after the opponent's
  best immediate reply leaves the best tower difference.
* ``hard``   -- negamax alpha-beta (principal variation search) with a transposition table, move
  ordering (table move, tower captures, history heuristic) and iterative deepening under a time
  budget and/or a node budget. Whenever the remaining tree is searched without reaching the depth
  horizon (at most 36 actions per round), the result is exact and the search stops: the AI then
  plays perfectly.

The value of a round is its final tower difference (S2, E2) for the player to move; non-terminal
leaves get a heuristic (tower difference plus a small bonus for available tower-making moves).

Pure Python, no asyncio: the bot runs it in a thread. Deterministic given ``seed`` when the search is
bounded by ``max_nodes`` (the time budget alone depends on the machine's speed).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Literal

from engine.constructo.layout import LAYOUTS, RECOMMENDED, TILES, Layout
from engine.constructo.match import Match
from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.round import Round, stack_is_possible
from engine.errors import IllegalMoveError, InvalidInputError, NotYourTurnError

__all__ = ["LEVELS", "Level", "SearchResult", "choose_layout", "choose_move", "search", "solve"]

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

SCALE = 100
"""Search values are tower differences times ``SCALE`` (heuristic terms are smaller than one tower)."""

_EXACT = 1000  # TT depth marking a value that did not depend on the horizon
_INF = 1 << 30


# ---- stack tables: every stack the rules can build, as a small id ------------------------------
def _build_tables() -> tuple[list[tuple[int, ...]], list[int], list[int], list[int], list[int]]:
    chips = [(p << 2) | s for p in (0, 1) for s in (1, 2, 3)]
    stacks: list[tuple[int, ...]] = [()]
    index: dict[tuple[int, ...], int] = {(): 0}
    todo: list[tuple[int, ...]] = [(c,) for c in chips]
    while todo:
        st = todo.pop(0)
        if st in index:
            continue
        index[st] = len(stacks)
        stacks.append(st)
        for c in chips:
            cand = (*st, c)
            if stack_is_possible([(x >> 2, x & 3) for x in cand]):
                todo.append(cand)
    n = len(stacks)
    lone = [st[0] if len(st) == 1 else 0 for st in stacks]
    land = [-1] * (n * 8)
    for i, st in enumerate(stacks):
        if st:
            for c in chips:
                cand = (*st, c)
                if cand in index:
                    land[i * 8 + c] = index[cand]
    tower = [0] * n
    for i, st in enumerate(stacks):
        if len(st) >= 2 and not (len(st) == 2 and (st[0] & 3) == 1):
            tower[i] = 1 if (st[-1] >> 2) == 0 else -1
    single = [0] * 8
    for c in chips:
        single[c] = index[(c,)]
    return stacks, lone, land, tower, single


_STACKS, _LONE, _LAND, _TOWER, _SINGLE = _build_tables()
_STACK_ID = {st: i for i, st in enumerate(_STACKS)}
_NS = len(_STACKS)  # 19 stacks, empty included
_POW = [_NS**t for t in range(TILES)]
_TURN = _NS**TILES


class _Abort(Exception):
    """Raised inside the search when the node or time budget is spent."""


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


def _round_of(state: Round | Match) -> Round:
    if isinstance(state, Match):
        if state.is_over:
            raise IllegalMoveError("the match is over: there is no action to choose", rule="E1")
        if state.phase == "choosing_layout":
            raise IllegalMoveError("round 2's layout must be chosen first (M1)", rule="M1")
        return state.current_round
    if isinstance(state, Round):
        if state.is_over:
            raise IllegalMoveError("the round is over: there is no action to choose", rule="E1")
        return state
    raise InvalidInputError(f"choose_move needs a Round or a Match, not {type(state).__name__}")


def _gain(rnd: Round, code: int) -> int:
    """Tower difference change for the mover if they play ``code`` (placements never change it)."""
    if code < 36:
        return 0
    p = rnd.current_player
    rnd._apply(code)
    a, b = rnd.score()
    rnd._undo()
    a0, b0 = rnd.score()
    return (a - b - a0 + b0) * (1 if p == 0 else -1)


# ---- public API ----------------------------------------------------------------------------
def choose_move(
    state: Round | Match,
    level: Level | str = "easy",
    seed: int = 0,
    budget_s: float | None = 1.0,
    max_nodes: int | None = None,
) -> Move:
    """Pick a legal action for the player to move in ``state`` (a Round, or a Match's current round).

    Args:
        level: ``"easy"``, ``"medium"`` or ``"hard"`` (see the module docstring).
        seed: seeds a ``random.Random`` (tie breaks and easy's choices): same seed, same answer.
        budget_s: wall-clock budget in seconds for ``hard`` (``None`` or ``<= 0``: no time limit, if
            ``max_nodes`` is given; with neither, 1 s).
        max_nodes: node budget for ``hard``; with it (and a generous ``budget_s``) the result does not
            depend on the machine's speed -- use it in tests.

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
        if (budget_s is None or budget_s <= 0) and max_nodes is None:
            budget_s = 1.0  # never an unbounded search: the whole round is far too big to solve
        return search(rnd, budget_s=budget_s, max_nodes=max_nodes, seed=seed).move
    raise InvalidInputError(f"unknown AI level {level!r}: use easy, medium or hard")


def _easy(rnd: Round, rng: random.Random) -> Move:
    codes = list(rnd._legal_codes())
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
    for code in list(work._legal_codes()):
        work._apply(code)
        replies = list(work._legal_codes())
        if not replies:
            a, b = work.score()
            val = (a - b) * sign * 10  # the round ends: final
        else:
            val = _INF
            for r in replies:
                work._apply(r)
                a, b = work.score()
                val = min(val, (a - b) * sign * 10)
                work._undo()
        work._undo()
        if val > best_val:
            best_val, best = val, [code]
        elif val == best_val:
            best.append(code)
    return MOVE_BY_CODE[rng.choice(best)]  # type: ignore[return-value]


def search(
    rnd: Round,
    budget_s: float | None = 1.0,
    max_nodes: int | None = None,
    seed: int = 0,
    max_depth: int = 40,
    iterative: bool = True,
) -> SearchResult:
    """Negamax alpha-beta (principal variation search) with a transposition table: the ``hard`` level.

    With ``iterative`` (the default) it deepens 1, 2, 3... plies: depth 1 always completes; later
    iterations stop when ``budget_s`` seconds or ``max_nodes`` nodes are spent (the best action of
    the last finished iteration, or a better one found by the interrupted iteration, is returned).
    It stops early when the value is exact (the remaining tree was solved). Without ``iterative``
    it searches ``max_depth`` plies at once (``max_depth`` >= 36 solves the round) and returns an
    inexact result with ``depth == 0`` if a budget runs out.

    Raises IllegalMoveError (E1) if the round is over.
    """
    if rnd.is_over:
        raise IllegalMoveError("the round is over: there is no action to choose", rule="E1")
    start = time.perf_counter()
    deadline = start + budget_s if budget_s and budget_s > 0 else None
    engine = _Searcher(rnd, random.Random(seed), max_nodes, deadline)
    if not iterative:
        engine.start_depth = max_depth
    code, value, depth, exact = engine.run(max_depth)
    return SearchResult(MOVE_BY_CODE[code], value, depth, exact, engine.nodes, time.perf_counter() - start)  # type: ignore[arg-type]


def solve(rnd: Round, max_nodes: int | None = None, budget_s: float | None = None) -> SearchResult | None:
    """The exact outcome of ``rnd`` under perfect play by both sides, or ``None`` if the budgets run out.

    Returns a :class:`SearchResult` whose ``value`` is the final tower difference (S2, E2) for the
    player to move times :data:`SCALE`, and whose ``move`` is an optimal action.
    """
    res = search(rnd, budget_s=budget_s, max_nodes=max_nodes, max_depth=40, iterative=False)
    return res if res.exact else None


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
        raise NotYourTurnError("the player who did not start round 1 chooses the layout of round 2 (M1)")
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


# ---- the search ----------------------------------------------------------------------------
# decoded action codes: placement (size, tile) or step (src, dst), tile indices 0..8
_CODE_A = [0] * 117
_CODE_B = [0] * 117
for _c in range(9, 117):
    _CODE_A[_c], _CODE_B[_c] = divmod(_c, 9) if _c < 36 else divmod(_c - 36, 9)


class _Searcher:
    """Negamax state: board of stack ids, reserves, TT, history; key/score travel as arguments.

    The key is exact (no hashing collisions): ``sum(stack_id[t] * 19**t) + turn * 19**9``.
    """

    plain_eval = False  # experiments only: tower difference alone at the horizon

    def __init__(self, rnd: Round, rng: random.Random, max_nodes: int | None, deadline: float | None) -> None:
        self.board = [_STACK_ID[st] for st in rnd._stacks]
        r0, r1 = rnd._res
        self.res = [0, r0[1], r0[2], r0[3], 0, r1[1], r1[2], r1[3]]
        self.turn = rnd.current_player
        self.nbrs = rnd._nbrs
        self.key = sum(i * _POW[t] for t, i in enumerate(self.board)) + self.turn * _TURN
        self.score = sum(_TOWER[i] for i in self.board)
        self.rng = rng
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.next_check = 1024
        self.horizon = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * 128
        self.root_codes = list(rnd._legal_codes())
        rng.shuffle(self.root_codes)
        self.armed = False  # budgets apply only after depth 1 completed
        self.start_depth = 1  # solve() starts deep: one iteration over the whole remaining tree

    def _check(self) -> None:
        self.next_check = self.nodes + 1024
        if not self.armed and self.start_depth == 1:
            return
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Abort
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Abort

    def run(self, max_depth: int) -> tuple[int, int, int, bool]:
        best_code = self.root_codes[0]
        best_val = 0
        done_depth = 0
        exact = False
        for depth in range(self.start_depth, max_depth + 1):
            h0 = self.horizon
            try:
                code, val = self._root(depth, best_code, -_INF, _INF)
            except _Abort as stop:
                partial = stop.args[0] if stop.args else None
                if partial is not None:
                    best_code, best_val = partial
                break
            best_code, best_val, done_depth = code, val, depth
            self.armed = True
            if self.horizon == h0:
                exact = True
                break
        return best_code, best_val, done_depth, exact

    def _root(self, depth: int, first: int, alpha: int, beta: int) -> tuple[int, int]:
        """Search every root action with window ``(alpha, beta)`` (fail-soft); best action and value."""
        codes = [first] + [c for c in self.root_codes if c != first]
        best_code, best = codes[0], -_INF
        b, res, p = self.board, self.res, self.turn
        for i, code in enumerate(codes):
            saved = list(b)
            key, score = self.key, self.score
            if code < 36:
                s, t = _CODE_A[code], _CODE_B[code]
                nid = _SINGLE[(p << 2) | s]
                b[t] = nid
                res[(p << 2) | s] -= 1
                key += nid * _POW[t]
            else:
                src, dst = _CODE_A[code], _CODE_B[code]
                old = b[dst]
                nid = _LAND[old * 8 + _LONE[b[src]]]
                key += (nid - old) * _POW[dst] - b[src] * _POW[src]
                score += _TOWER[nid] - _TOWER[old]
                b[src] = 0
                b[dst] = nid
            key += _TURN if p == 0 else -_TURN
            try:
                v = -self._negamax(depth - 1, -beta, -alpha, key, score, 1 - p)
            except _Abort:
                b[:] = saved
                if code < 36:
                    res[(p << 2) | _CODE_A[code]] += 1
                raise _Abort((best_code, best) if i > 0 else None) from None
            b[:] = saved
            if code < 36:
                res[(p << 2) | _CODE_A[code]] += 1
            if v > best:
                best, best_code = v, code
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best_code, best

    def _evaluate(self, p: int, score: int) -> int:
        """Heuristic for the player ``p`` to move: tower difference plus tower-making moves available."""
        b = self.board
        mine = theirs = 0
        nbrs = self.nbrs
        for t in range(TILES):
            c = _LONE[b[t]]
            if c:
                for d in nbrs[t]:
                    nid = _LAND[b[d] * 8 + c]
                    if nid >= 0 and _TOWER[nid]:
                        if (c >> 2) == p:
                            mine += 1
                        else:
                            theirs += 1
                        break
        diff = score if p == 0 else -score
        if self.plain_eval:
            return diff * SCALE
        return diff * SCALE + (40 if mine else 0) + 10 * mine - 10 * theirs

    def _negamax(self, depth: int, alpha: int, beta: int, key: int, score: int, p: int) -> int:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        tt = self.tt
        entry = tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_val, e_move = entry
            if e_depth >= depth and (
                e_flag == 0 or (e_flag == 1 and e_val >= beta) or (e_flag == 2 and e_val <= alpha)
            ):
                if e_depth < _EXACT:
                    self.horizon += 1
                return e_val
            tt_move = e_move
        b = self.board
        # -- move generation: tower captures, other steps, then placements (history order)
        caps: list[int] = []
        steps: list[int] = []
        nbrs = self.nbrs
        for t in range(TILES):
            c = _LONE[b[t]]
            if c and (c >> 2) == p:
                for d in nbrs[t]:
                    dst = b[d]
                    if _LAND[dst * 8 + c] >= 0:
                        if _TOWER[dst]:
                            caps.append(36 + 9 * t + d)
                        else:
                            steps.append(36 + 9 * t + d)
        res = self.res
        base = p << 2
        moves = caps + steps if caps else steps
        if res[base | 1] or res[base | 2] or res[base | 3]:
            sizes = [s * 9 for s in (1, 2, 3) if res[base | s]]
            places = [s + t for t in range(TILES) if not b[t] for s in sizes]
            if places:
                if depth > 1:
                    places.sort(key=self.history.__getitem__, reverse=True)
                moves += places
        if not moves:
            v = (score if p == 0 else -score) * SCALE
            tt[key] = (_EXACT, 0, v, -1)
            return v
        if depth <= 0:
            self.horizon += 1
            return self._evaluate(p, score)
        if tt_move >= 0 and tt_move != moves[0] and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        h0 = self.horizon
        a0 = alpha
        best = -_INF
        best_move = moves[0]
        negamax = self._negamax
        turn = _TURN if p == 0 else -_TURN
        q = 1 - p
        first = True
        for code in moves:
            # principal variation search: full window for the first move, null window for the rest
            if code < 36:
                s, t = _CODE_A[code], _CODE_B[code]
                nid = _SINGLE[base | s]
                b[t] = nid
                res[base | s] -= 1
                k2, s2 = key + nid * _POW[t] + turn, score
            else:
                src, dst = _CODE_A[code], _CODE_B[code]
                old = b[dst]
                sid = b[src]
                nid = _LAND[old * 8 + _LONE[sid]]
                b[src] = 0
                b[dst] = nid
                k2 = key + (nid - old) * _POW[dst] - sid * _POW[src] + turn
                s2 = score + _TOWER[nid] - _TOWER[old]
            try:
                if first:
                    v = -negamax(depth - 1, -beta, -alpha, k2, s2, q)
                    first = False
                else:
                    v = -negamax(depth - 1, -alpha - 1, -alpha, k2, s2, q)
                    if alpha < v < beta:
                        v = -negamax(depth - 1, -beta, -v, k2, s2, q)
            finally:
                if code < 36:
                    b[t] = 0
                    res[base | s] += 1
                else:
                    b[src] = sid
                    b[dst] = old
            if v > best:
                best = v
                best_move = code
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self.history[code] += depth * depth
                        break
        flag = 1 if best >= beta else 2 if best <= a0 else 0
        tt[key] = (_EXACT if self.horizon == h0 else depth, flag, best, best_move)
        return best
