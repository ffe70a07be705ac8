"""Constructo puzzles from the solver (issue 25.3): positions where exactly one legal action keeps the best result.

A **puzzle** is a position of one round, reached by plausible play (seeded games of the ``medium`` AI, with now
and then an ``easy`` action, on the recommended layouts), in which the exact solver (:mod:`engine.constructo.search`,
the compiled core when built) proves the value of **every** legal action -- the final tower difference (S2, E2)
for the player to move under perfect play -- and exactly one action reaches the best value. Every other action
is proven worse by at least one tower.

Never two right answers: an action that a symmetry of the layout (:mod:`engine.constructo.symmetry`) maps to
another legal action leads to a position of the same value, so both would reach the best value and the position
is rejected by the "exactly one" rule itself. The shipped answer is therefore the one legal action with the best
value, not one of a family of symmetric twins (the test suite re-checks this, and the stabiliser, per puzzle).

Kinds (the sentence the bot shows): ``win`` (the only action that wins the round: every other draws or loses),
``save`` (the only action that does not lose: it draws), ``more`` (every good action wins, this one by more
towers). Positions whose best result is a loss are not kept.

Difficulty (``easy`` / ``medium`` / ``hard``) from points: the solution's depth (the plies left in the round
along the solver's line: +1 at 6 or more, +1 at 10 or more), tempting wrong actions (actions the ``medium`` AI
ranks best, when it prefers some actions to others, or that make a tower at once, yet proven worse: +1 for one
or more, +1 for three or more), and +1 when the ``medium`` AI would not find the answer. 0-1 points: easy, 2-3:
medium, 4 or more: hard.

Pure and deterministic: budgets are node counts, the games are seeded. CPU-bound.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.constructo import core as _core
from engine.constructo.layout import RECOMMENDED
from engine.constructo.move import MOVE_BY_CODE
from engine.constructo.pysearch import shuffled_codes
from engine.constructo.round import Round
from engine.constructo.search import SCALE, solve
from engine.constructo.symmetry import automorphisms, canonical_stacks
from engine.errors import InvalidInputError

__all__ = [
    "DIFFICULTIES",
    "KINDS",
    "Puzzle",
    "difficulty_of",
    "generate",
    "greedy_best",
    "move_values",
    "puzzle_at",
    "symmetric_twins",
]

Kind = Literal["win", "save", "more"]
KINDS: tuple[str, ...] = ("win", "save", "more")
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")

SOLVE_NODES = 3_000_000
"""Node budget of the exact solve of one child position (a position whose children do not all solve within it
is skipped)."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle.

    Attributes:
        record: the round so far (section 8 notation), e.g. ``"rombo: L5 M4 4-5"``; replay it with
            ``Round.from_record(record, first)``.
        first: the player who started the round (0/1).
        to_move: the player to move, who solves the puzzle (0/1).
        solution: the one best action, in notation (``"L5"``, ``"3-4"``).
        kind: ``"win"``, ``"save"`` or ``"more"`` (module docstring).
        values: every legal action (notation) -> its proven final tower difference for ``to_move`` (whole towers).
        difficulty: ``"easy"``, ``"medium"`` or ``"hard"``.
        depth: plies left in the round after the position along the solver's line (the solution included).
        tempting: wrong actions the ``medium`` AI ranks best (unless it ranks every action alike) or that make a
            tower at once (notation).
        line: the solver's line from the solution to the end of the round (notation, the solution first).
    """

    record: str
    first: int
    to_move: int
    solution: str
    kind: str
    values: dict[str, int]
    difficulty: str
    depth: int
    tempting: tuple[str, ...]
    line: tuple[str, ...] = field(default=())

    @property
    def layout_name(self) -> str:
        """The layout's name (the record's head)."""
        return self.record.partition(":")[0]

    @property
    def best(self) -> int:
        """The solution's value (towers for ``to_move``)."""
        return self.values[self.solution]

    @property
    def margin(self) -> int:
        """How many towers the solution gains over the best other action (>= 1)."""
        return self.best - max(v for m, v in self.values.items() if m != self.solution)

    def round(self) -> Round:
        """The puzzle's position, replayed from ``record`` (raises the record's errors if it was tampered with)."""
        return Round.from_record(self.record, self.first)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: every field; ``values`` sorted by notation."""
        return {
            "record": self.record,
            "first": self.first,
            "to_move": self.to_move,
            "solution": self.solution,
            "kind": self.kind,
            "values": dict(sorted(self.values.items())),
            "difficulty": self.difficulty,
            "depth": self.depth,
            "tempting": list(self.tempting),
            "line": list(self.line),
        }

    @classmethod
    def from_dict(cls, d: Any) -> Puzzle:
        """The inverse of :meth:`to_dict`. Raises InvalidInputError on a malformed entry."""
        try:
            p = cls(
                record=str(d["record"]),
                first=int(d["first"]),
                to_move=int(d["to_move"]),
                solution=str(d["solution"]),
                kind=str(d["kind"]),
                values={str(k): int(v) for k, v in d["values"].items()},
                difficulty=str(d["difficulty"]),
                depth=int(d["depth"]),
                tempting=tuple(str(m) for m in d["tempting"]),
                line=tuple(str(m) for m in d.get("line", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise InvalidInputError(f"malformed puzzle: {err}", reason="internal") from err
        if p.kind not in KINDS or p.difficulty not in DIFFICULTIES or p.solution not in p.values:
            raise InvalidInputError(
                f"malformed puzzle: {p.kind!r} / {p.difficulty!r} / {p.solution!r}", reason="internal"
            )
        return p


def _final(rnd: Round, player: int) -> int:
    a, b = rnd.score()
    return (a - b) if player == 0 else (b - a)


class _Solver:
    """Exact values with one shared table of the compiled core (or the pure-Python solver without it)."""

    def __init__(self, rnd: Round, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.shared = _core.new_core(rnd, tt_bits=20) if _core.core_available() else None
        self.nodes = 0

    def value(self, pos: Round) -> tuple[int, int] | None:
        """(value for the player to move in whole towers, best code), or None past the budget."""
        if self.shared is not None:
            solver = _core.CoreSearcher(pos, shuffled_codes(pos, 0), self.max_nodes, None, core=self.shared)
            code, val, _, exact = solver.solve()
            self.nodes += solver.nodes
            return (val // SCALE, code) if exact else None
        res = solve(pos, max_nodes=self.max_nodes)
        if res is None:
            return None
        self.nodes += res.nodes
        return res.value // SCALE, res.move.code


def move_values(rnd: Round, max_nodes: int = SOLVE_NODES, solver: _Solver | None = None) -> dict[int, int] | None:
    """The proven value of every legal action of ``rnd``: action code -> final tower difference for the player
    to move (whole towers, S2), or ``None`` if one child position does not solve within ``max_nodes``.

    Raises InvalidInputError if the round is over."""
    if rnd.is_over:
        raise InvalidInputError("the round is over: no action to value", reason="round_over")
    solver = solver or _Solver(rnd, max_nodes)
    p = rnd.current_player
    work = rnd.copy()
    out: dict[int, int] = {}
    for code in list(work.legal_codes()):
        work.apply_code(code)
        if work.is_over:
            out[code] = _final(work, p)
        else:
            found = solver.value(work)
            if found is None:
                work.undo_code()
                return None
            out[code] = -found[0]
        work.undo_code()
    return out


def greedy_best(rnd: Round) -> set[int]:
    """The codes the ``medium`` AI chooses among (its 2-ply worst-case tower difference is best; see
    :mod:`engine.constructo.ai`)."""
    work = rnd.copy()
    p = work.current_player
    best: set[int] = set()
    best_val: int | None = None
    for code in list(work.legal_codes()):
        work.apply_code(code)
        replies = list(work.legal_codes())
        if not replies:
            val = _final(work, p)
        else:
            val = min(_after(work, r, p) for r in replies)
        work.undo_code()
        if best_val is None or val > best_val:
            best_val, best = val, {code}
        elif val == best_val:
            best.add(code)
    return best


def _after(work: Round, code: int, p: int) -> int:
    work.apply_code(code)
    val = _final(work, p)
    work.undo_code()
    return val


def _scores_at_once(rnd: Round, code: int) -> bool:
    if code < 36:
        return False
    p = rnd.current_player
    before = _final(rnd, p)
    return _after(rnd.copy(), code, p) > before


def symmetric_twins(rnd: Round, code: int) -> list[int]:
    """Other legal codes that a symmetry of the layout fixing the position maps ``code`` to (its symmetric
    duplicates); empty when the action has none."""
    twins: set[int] = set()
    stacks = rnd.stacks
    for perm in automorphisms(rnd.layout):
        if any(stacks[perm[t]] != stacks[t] for t in range(9)):
            continue
        if code < 36:
            s, t = divmod(code, 9)
            image = s * 9 + perm[t]
        else:
            src, dst = divmod(code - 36, 9)
            image = 36 + 9 * perm[src] + perm[dst]
        if image != code:
            twins.add(image)
    return sorted(twins)


def difficulty_of(depth: int, tempting: int, greedy_finds: bool) -> str:
    """``easy`` / ``medium`` / ``hard`` from the points of the module docstring."""
    points = (depth >= 6) + (depth >= 10) + (tempting >= 1) + (tempting >= 3) + (not greedy_finds)
    return "easy" if points <= 1 else "medium" if points <= 3 else "hard"


def _line(rnd: Round, first_code: int, solver: _Solver) -> tuple[str, ...] | None:
    work = rnd.copy()
    line = [first_code]
    work.apply_code(first_code)
    while not work.is_over:
        found = solver.value(work)
        if found is None:
            return None
        line.append(found[1])
        work.apply_code(found[1])
    return tuple(str(MOVE_BY_CODE[c]) for c in line)


def puzzle_at(rnd: Round, max_nodes: int = SOLVE_NODES, solver: _Solver | None = None) -> Puzzle | None:
    """The puzzle of position ``rnd`` when it is one (exactly one best action, kind ``win``/``save``/``more``,
    at least 3 legal actions), else None (also when a child does not solve within ``max_nodes``)."""
    if rnd.is_over or len(rnd.legal_codes()) < 3:
        return None
    solver = solver or _Solver(rnd, max_nodes)
    values = move_values(rnd, max_nodes, solver)
    if values is None:
        return None
    best = max(values.values())
    right = [c for c, v in values.items() if v == best]
    if len(right) != 1:
        return None
    code = right[0]
    second = max(v for c, v in values.items() if c != code)
    if best > 0:
        kind = "win" if second <= 0 else "more"
    elif best == 0:
        kind = "save"
    else:
        return None
    line = _line(rnd, code, solver)
    if line is None:
        return None
    greedy = greedy_best(rnd)
    prefers = greedy if len(greedy) < len(values) else set()  # a tie over every action tempts nobody
    tempting = sorted(c for c in values if c != code and (c in prefers or _scores_at_once(rnd, c)))
    name = {c: str(MOVE_BY_CODE[c]) for c in values}
    return Puzzle(
        record=rnd.record(),
        first=rnd.first,
        to_move=rnd.current_player,
        solution=name[code],
        kind=kind,
        values={name[c]: v for c, v in values.items()},
        difficulty=difficulty_of(len(line), len(tempting), code in greedy),
        depth=len(line),
        tempting=tuple(name[c] for c in tempting),
        line=line,
    )


def _plausible(rnd: Round, rng: random.Random) -> int:
    """A plausible action: the ``medium`` AI's choice, a random one now and then."""
    codes = list(rnd.legal_codes())
    if rng.random() < 0.25:
        return rng.choice(codes)
    return rng.choice(sorted(greedy_best(rnd)))


def generate(
    count: int,
    seed: int = 0,
    *,
    layouts: tuple[str, ...] = RECOMMENDED,
    min_ply: int = 8,
    max_nodes: int = SOLVE_NODES,
    max_games: int = 2000,
    progress: Any = None,
) -> list[Puzzle]:
    """``count`` puzzles (a third of each difficulty as far as the games give them), from seeded games.

    Game ``i`` is played on ``layouts[i % len(layouts)]``, starting player ``i % 2``, with actions from
    ``random.Random(seed * 1_000_003 + i)``; from ply ``min_ply`` on, each position is tried (:func:`puzzle_at`)
    until the game yields one puzzle (then the next game starts). Positions equal up to the layout's symmetries
    and the colours are kept once. Stops after ``max_games`` games even if fewer puzzles were found.
    ``progress``: optional callable ``(games, found)`` called after each game.

    Returns the puzzles in a stable order: by difficulty (easy first), then generation order.
    Raises InvalidInputError if ``count`` < 1.
    """
    if count < 1:
        raise InvalidInputError("count must be at least 1", reason="bad_count", count=count)
    quota = {d: count // 3 + (1 if i < count % 3 else 0) for i, d in enumerate(DIFFICULTIES)}
    found: dict[str, list[Puzzle]] = {d: [] for d in DIFFICULTIES}
    seen: set[tuple[str, Any]] = set()
    solvers: dict[str, _Solver] = {}  # one table per layout, shared by its games (values are exact either way)
    for i in range(max_games):
        if all(len(found[d]) >= quota[d] for d in DIFFICULTIES):
            break
        rng = random.Random(seed * 1_000_003 + i)
        rnd = Round(layouts[i % len(layouts)], i % 2)
        while not rnd.is_over:
            if len(rnd.codes) >= min_ply:
                key = (rnd.layout.to_text(), canonical_stacks(rnd.layout, rnd.stacks, rnd.current_player))
                if key not in seen:
                    seen.add(key)
                    if key[0] not in solvers:
                        solvers[key[0]] = _Solver(rnd, max_nodes)
                    solver = solvers[key[0]]
                    puzzle = puzzle_at(rnd, max_nodes, solver)
                    if puzzle is not None and len(found[puzzle.difficulty]) < quota[puzzle.difficulty]:
                        found[puzzle.difficulty].append(puzzle)
                        break
            rnd.apply_code(_plausible(rnd, rng))
        if progress is not None:
            progress(i + 1, sum(len(v) for v in found.values()))
    return [p for d in DIFFICULTIES for p in found[d]]
