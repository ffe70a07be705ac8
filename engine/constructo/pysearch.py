"""Pure-Python negamax of the Constructo AI: the reference the compiled core is tested against, and the search
used when the core is not built (see :mod:`engine.constructo.core`).

Negamax alpha-beta (principal variation search) with an exact-keyed transposition table, move ordering (table
move, tower captures, history heuristic) and iterative deepening. A value whose subtree never met the depth
horizon is exact. Values are tower differences times ``SCALE`` for the player to move; leaves at the horizon get
a heuristic (tower difference plus a bonus for tower-making moves available).
"""

from __future__ import annotations

import random
import time

from engine.constructo.layout import TILES
from engine.constructo.round import Round
from engine.constructo.tables import LAND, LONE, NS, SINGLE, STACK_ID, TOWER

__all__ = ["EXACT", "INF", "SCALE", "Abort", "PySearcher"]

SCALE = 100
"""Search values are tower differences times ``SCALE`` (heuristic terms are smaller than one tower)."""

EXACT = 1000  # TT depth marking a value that did not depend on the horizon
INF = 1 << 30

_POW = [NS**t for t in range(TILES)]
_TURN = NS**TILES

# decoded action codes: placement (size, tile) or step (src, dst), tile indices 0..8
_CODE_A = [0] * 117
_CODE_B = [0] * 117
for _c in range(9, 117):
    _CODE_A[_c], _CODE_B[_c] = divmod(_c, 9) if _c < 36 else divmod(_c - 36, 9)


class Abort(Exception):
    """Raised inside the search when the node or time budget is spent."""


class PySearcher:
    """Negamax state: board of stack ids, reserves, TT, history; key/score travel as arguments.

    The key is exact (no hashing collisions): ``sum(stack_id[t] * 19**t) + turn * 19**9``.
    ``root_codes`` is the root actions' order (the caller shuffles it with its seed).
    """

    def __init__(self, rnd: Round, root_codes: list[int], max_nodes: int | None, deadline: float | None) -> None:
        self.board = [STACK_ID[st] for st in rnd.stacks]
        r0, r1 = rnd.reserves
        self.res = [0, r0[1], r0[2], r0[3], 0, r1[1], r1[2], r1[3]]
        self.turn = rnd.current_player
        self.nbrs = rnd.adjacency
        self.key = sum(i * _POW[t] for t, i in enumerate(self.board)) + self.turn * _TURN
        self.score = sum(TOWER[i] for i in self.board)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.next_check = 1024
        self.horizon = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * 128
        self.root_codes = root_codes
        self.armed = False  # budgets apply only after depth 1 completed
        self.start_depth = 1  # solve() starts deep: one iteration over the whole remaining tree

    def _check(self) -> None:
        self.next_check = self.nodes + 1024
        if not self.armed and self.start_depth == 1:
            return
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise Abort
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise Abort

    def run(self, max_depth: int) -> tuple[int, int, int, bool]:
        """Iterate depths ``start_depth .. max_depth``: (best code, value, deepest finished depth, exact)."""
        best_code = self.root_codes[0]
        best_val = 0
        done_depth = 0
        exact = False
        for depth in range(self.start_depth, max_depth + 1):
            h0 = self.horizon
            try:
                code, val = self._root(depth, best_code, -INF, INF)
            except Abort as stop:
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
        best_code, best = codes[0], -INF
        b, res, p = self.board, self.res, self.turn
        for i, code in enumerate(codes):
            saved = list(b)
            key, score = self.key, self.score
            if code < 36:
                s, t = _CODE_A[code], _CODE_B[code]
                nid = SINGLE[(p << 2) | s]
                b[t] = nid
                res[(p << 2) | s] -= 1
                key += nid * _POW[t]
            else:
                src, dst = _CODE_A[code], _CODE_B[code]
                old = b[dst]
                nid = LAND[old * 8 + LONE[b[src]]]
                key += (nid - old) * _POW[dst] - b[src] * _POW[src]
                score += TOWER[nid] - TOWER[old]
                b[src] = 0
                b[dst] = nid
            key += _TURN if p == 0 else -_TURN
            try:
                v = -self._negamax(depth - 1, -beta, -alpha, key, score, 1 - p)
            except Abort:
                b[:] = saved
                if code < 36:
                    res[(p << 2) | _CODE_A[code]] += 1
                raise Abort((best_code, best) if i > 0 else None) from None
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

    def evaluate(self, p: int, score: int) -> int:
        """Heuristic for the player ``p`` to move: tower difference plus tower-making moves available."""
        b = self.board
        mine = theirs = 0
        nbrs = self.nbrs
        for t in range(TILES):
            c = LONE[b[t]]
            if c:
                for d in nbrs[t]:
                    nid = LAND[b[d] * 8 + c]
                    if nid >= 0 and TOWER[nid]:
                        if (c >> 2) == p:
                            mine += 1
                        else:
                            theirs += 1
                        break
        diff = score if p == 0 else -score
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
                if e_depth < EXACT:
                    self.horizon += 1
                return e_val
            tt_move = e_move
        b = self.board
        # -- move generation: tower captures, other steps, then placements (history order)
        caps: list[int] = []
        steps: list[int] = []
        nbrs = self.nbrs
        for t in range(TILES):
            c = LONE[b[t]]
            if c and (c >> 2) == p:
                for d in nbrs[t]:
                    dst = b[d]
                    if LAND[dst * 8 + c] >= 0:
                        if TOWER[dst]:
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
            tt[key] = (EXACT, 0, v, -1)
            return v
        if depth <= 0:
            self.horizon += 1
            return self.evaluate(p, score)
        if tt_move >= 0 and tt_move != moves[0] and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        h0 = self.horizon
        a0 = alpha
        best = -INF
        best_move = moves[0]
        negamax = self._negamax
        turn = _TURN if p == 0 else -_TURN
        q = 1 - p
        first = True
        for code in moves:
            # principal variation search: full window for the first move, null window for the rest
            if code < 36:
                s, t = _CODE_A[code], _CODE_B[code]
                nid = SINGLE[base | s]
                b[t] = nid
                res[base | s] -= 1
                k2, s2 = key + nid * _POW[t] + turn, score
            else:
                src, dst = _CODE_A[code], _CODE_B[code]
                old = b[dst]
                sid = b[src]
                nid = LAND[old * 8 + LONE[sid]]
                b[src] = 0
                b[dst] = nid
                k2 = key + (nid - old) * _POW[dst] - sid * _POW[src] + turn
                s2 = score + TOWER[nid] - TOWER[old]
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
        tt[key] = (EXACT if self.horizon == h0 else depth, flag, best, best_move)
        return best


def shuffled_codes(rnd: Round, seed: int) -> list[int]:
    """The root actions of ``rnd`` in the order a search with ``seed`` tries them (ties go to the earliest)."""
    codes = list(rnd.legal_codes())
    random.Random(seed).shuffle(codes)
    return codes
