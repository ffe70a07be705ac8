"""The shipped Constructo puzzle set (``engine/data/puzzles_constructo.json``) and the check of an answer.

The file is written by ``python -m tools.make_puzzles`` (:func:`engine.constructo.puzzles.generate`); its shape:
``{"version": 1, "command": str, "count": int, "seed": int, "puzzles": [{"id": int, **Puzzle.to_dict()}]}``.
Ids run 1..count in the file's order (easy puzzles first). Pure: reads package data, no other I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.constructo.move import Move
from engine.constructo.puzzles import Puzzle
from engine.data import DATA_DIR
from engine.errors import InvalidInputError

__all__ = ["PUZZLES_FILE", "Verdict", "check_answer", "load_puzzles", "puzzle_by_id"]

PUZZLES_FILE: Path = DATA_DIR / "puzzles_constructo.json"
"""The shipped puzzle set."""


@cache
def load_puzzles(path: Path = PUZZLES_FILE) -> tuple[tuple[int, Puzzle], ...]:
    """``(id, puzzle)`` pairs of the set at ``path`` (the shipped one by default), in the file's order.

    Raises InvalidInputError on a file of another version or a malformed entry; OSError if it cannot be read."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("version") != 1:
        raise InvalidInputError(f"{path.name}: not a version 1 puzzle set", reason="internal")
    out: list[tuple[int, Puzzle]] = []
    for entry in data["puzzles"]:
        out.append((int(entry["id"]), Puzzle.from_dict(entry)))
    return tuple(out)


def puzzle_by_id(pid: int) -> Puzzle | None:
    """The shipped puzzle ``pid``, or None when there is none with that id."""
    for i, p in load_puzzles():
        if i == pid:
            return p
    return None


@dataclass(frozen=True)
class Verdict:
    """The check of an answer.

    Attributes:
        right: the answer is the solution.
        move: the answer in notation (normalised, e.g. ``"l5"`` -> ``"L5"``).
        value: the answer's proven final tower difference for the solver (whole towers).
        best: the solution's value.
        margin: towers the solution gains over the best other action (>= 1).
    """

    right: bool
    move: str
    value: int
    best: int
    margin: int


def check_answer(puzzle: Puzzle, answer: str | Move) -> Verdict:
    """Check ``answer`` (an action in notation, section 8) against ``puzzle``.

    Raises InvalidInputError when the text is no action or not a legal action of the position (T1-T5, K1-K5)."""
    move = str(Move.parse(answer))
    if move not in puzzle.values:
        raise InvalidInputError(f"{move} is not a legal action in this position", reason="internal")
    return Verdict(move == puzzle.solution, move, puzzle.values[move], puzzle.best, puzzle.margin)
