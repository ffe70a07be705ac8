"""Constructo puzzles (issue 25.3): every shipped puzzle has exactly one right answer, proven by the solver;
the generator is deterministic; answers are checked against the proven values."""

from __future__ import annotations

import json

import pytest

from engine.constructo.move import MOVE_BY_CODE, Move
from engine.constructo.puzzle_set import PUZZLES_FILE, check_answer, load_puzzles, puzzle_by_id
from engine.constructo.puzzles import (
    DIFFICULTIES,
    Puzzle,
    difficulty_of,
    generate,
    move_values,
    puzzle_at,
    symmetric_twins,
)
from engine.constructo.round import Round
from engine.errors import InvalidInputError

SHIPPED = load_puzzles()


def test_shipped_set_has_every_difficulty_and_unique_ids() -> None:
    ids = [i for i, _ in SHIPPED]
    assert ids == list(range(1, len(SHIPPED) + 1))
    assert {p.difficulty for _, p in SHIPPED} == set(DIFFICULTIES)
    data = json.loads(PUZZLES_FILE.read_text(encoding="utf-8"))
    assert data["count"] == len(SHIPPED) and data["command"].startswith("python -m tools.make_puzzles")


@pytest.mark.parametrize(("pid", "puzzle"), SHIPPED, ids=[f"p{i}" for i, _ in SHIPPED])
def test_shipped_puzzle_has_exactly_one_solution(pid: int, puzzle: Puzzle) -> None:
    rnd = puzzle.round()  # the record replays with every action validated
    assert rnd.current_player == puzzle.to_move and not rnd.is_over
    values = move_values(rnd, max_nodes=20_000_000)  # a fresh table: an independent proof
    assert values is not None, "the solver could not prove every action"
    named = {str(MOVE_BY_CODE[c]): v for c, v in values.items()}
    assert named == puzzle.values  # every legal action, each with its proven value
    best = max(named.values())
    assert [m for m, v in named.items() if v == best] == [puzzle.solution]
    assert symmetric_twins(rnd, Move.parse(puzzle.solution).code) == []
    assert puzzle.margin >= 1
    assert puzzle.kind == ("save" if best == 0 else "win" if puzzle.best - puzzle.margin <= 0 else "more")
    assert best >= 0
    assert puzzle.line[0] == puzzle.solution and len(puzzle.line) == puzzle.depth
    assert set(puzzle.tempting) <= set(named) - {puzzle.solution}


def test_the_line_replays_to_the_proven_result() -> None:
    for _, puzzle in SHIPPED[:: max(1, len(SHIPPED) // 10)]:
        rnd = puzzle.round()
        for token in puzzle.line:
            rnd.play(token)
        assert rnd.is_over
        a, b = rnd.score()
        assert (a - b if puzzle.to_move == 0 else b - a) == puzzle.best


def test_generator_is_deterministic_and_seeded() -> None:
    one = [p.to_dict() for p in generate(4, seed=7)]
    two = [p.to_dict() for p in generate(4, seed=7)]
    assert one == two and len(one) == 4
    other = [p.to_dict() for p in generate(4, seed=8)]
    assert other != one


def test_symmetric_twins_are_rejected() -> None:
    # empty rombo: every placement has a twin under the layout's symmetries, and no position with a tie is a puzzle
    rnd = Round("rombo")
    assert symmetric_twins(rnd, Move.parse("L1").code)  # a corner tile has images
    assert symmetric_twins(rnd, Move.parse("L5").code) == []  # the centre is fixed by every symmetry
    # a position reached by symmetric play keeps the symmetry: the twin of a best action is best too
    rnd = Round.from_record("rombo: L5 S1 M3 S9 M7 L2 S4 L8 S6")  # symmetric under the half turn
    values = move_values(rnd)
    assert values is not None
    for code, v in values.items():
        for twin in symmetric_twins(rnd, code):
            assert values[twin] == v
    assert symmetric_twins(rnd, Move.parse("2-4").code) == [Move.parse("8-6").code]
    assert puzzle_at(rnd) is None  # two symmetric best actions: never a puzzle


def test_difficulty_points() -> None:
    assert difficulty_of(3, 0, True) == "easy"
    assert difficulty_of(6, 1, True) == "medium"
    assert difficulty_of(10, 3, False) == "hard"


def test_check_answer_right_wrong_and_bad() -> None:
    puzzle = puzzle_by_id(1)
    assert puzzle is not None
    right = check_answer(puzzle, puzzle.solution.lower())
    assert right.right and right.move == puzzle.solution and right.value == puzzle.best
    wrong_move = next(m for m in puzzle.values if m != puzzle.solution)
    wrong = check_answer(puzzle, wrong_move)
    assert not wrong.right and wrong.value <= wrong.best - wrong.margin
    with pytest.raises(InvalidInputError):
        check_answer(puzzle, "zz")
    illegal = next(f"{s}{t}" for s in "SML" for t in range(1, 10) if f"{s}{t}" not in puzzle.values)
    with pytest.raises(InvalidInputError):
        check_answer(puzzle, illegal)
    assert puzzle_by_id(10_000) is None


def test_every_shipped_puzzle_fits_the_answer_selects() -> None:
    # the bot offers every legal action: one select per size (at most 9 tiles), one of moves (at most 25 options)
    for _, puzzle in SHIPPED:
        steps = [m for m in puzzle.values if not Move.parse(m).is_place]
        assert len(steps) <= 25


@pytest.mark.slow
def test_the_shipped_file_is_what_the_documented_command_writes() -> None:
    from tools.make_puzzles import render

    data = json.loads(PUZZLES_FILE.read_text(encoding="utf-8"))
    assert data["command"] == f"python -m tools.make_puzzles --count {data['count']} --seed {data['seed']}"
    assert render(data["count"], data["seed"]) == PUZZLES_FILE.read_text(encoding="utf-8")
