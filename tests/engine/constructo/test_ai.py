"""Constructo AI: legality, exactness against a naive minimax, determinism, strength."""

from __future__ import annotations

import functools
import random

import pytest

from engine.constructo import LAYOUTS, RECOMMENDED, IllegalMoveError, Match, NotYourTurnError, Round
from engine.constructo.ai import SCALE, choose_layout, choose_move, search, solve
from engine.errors import InvalidInputError


class TooBig(Exception):
    pass


def naive_value(rnd: Round, budget: list[int]) -> int:
    """Plain minimax over the public API: final tower difference for the player to move."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    moves = rnd.legal_moves()
    if not moves:
        a, b = rnd.score()
        return (a - b) if rnd.current_player == 0 else (b - a)
    best = -99
    for m in moves:
        child = rnd.copy()
        child.play(m)
        best = max(best, -naive_value(child, budget))
    return best


@functools.cache
def small_positions(count: int = 16, limit: int = 5000) -> list[tuple[Round, int]]:
    """Deterministic endgame positions from random play whose full tree has < ``limit`` nodes."""
    out: list[tuple[Round, int]] = []
    rng = random.Random(12345)
    while len(out) < count:
        rnd = Round(LAYOUTS[rng.choice(RECOMMENDED)], rng.randrange(2))
        target = rng.randrange(10, 16)
        while not rnd.is_over and len(rnd.history) < target:
            rnd.play(rng.choice(rnd.legal_moves()))
        if rnd.is_over:
            continue
        try:
            value = naive_value(rnd, [limit])
        except TooBig:
            continue
        out.append((rnd, value))
    return out


def child_value(rnd: Round, move: object) -> int:
    child = rnd.copy()
    child.play(move)  # type: ignore[arg-type]
    return -naive_value(child, [10**7])


def test_hard_solves_small_positions_exactly_like_naive_minimax() -> None:
    values = set()
    for rnd, value in small_positions():
        res = solve(rnd, max_nodes=200_000)
        assert res is not None, rnd.record()
        assert res.value == value * SCALE, rnd.record()
        assert child_value(rnd, res.move) == value  # the chosen move keeps the exact value
        values.add(value)
    assert len(values) >= 2  # the sample is not trivially all-equal


def test_hard_finds_the_forced_win_where_other_moves_do_not_win() -> None:
    checked = 0
    for rnd, value in small_positions():
        if value <= 0:
            continue
        worse = [m for m in rnd.legal_moves() if child_value(rnd, m) < value]
        if not worse:
            continue
        move = choose_move(rnd, "hard", seed=1, budget_s=None, max_nodes=200_000)  # type: ignore[arg-type]
        assert child_value(rnd, move) == value, rnd.record()
        checked += 1
    assert checked >= 2


def test_hard_never_plays_an_illegal_move_and_leaves_state_untouched() -> None:
    rng = random.Random(7)
    for name in ("rombo", "corona", "estrella"):
        rnd = Round(LAYOUTS[name])
        while not rnd.is_over:
            if rnd.current_player == 0:
                before = rnd.to_dict()
                move = choose_move(rnd, "hard", seed=3, budget_s=None, max_nodes=1500)  # type: ignore[arg-type]
                assert rnd.to_dict() == before
                assert move in rnd.legal_moves()
            else:
                move = rng.choice(rnd.legal_moves())
            rnd.play(move)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_ai_is_deterministic_given_a_seed(level: str) -> None:
    rng = random.Random(99)
    for _ in range(4):
        rnd = Round(LAYOUTS["flor"])
        for _ in range(rng.randrange(0, 10)):
            rnd.play(rng.choice(rnd.legal_moves()))
        picks = {
            str(choose_move(rnd, level, seed=5, budget_s=None, max_nodes=3000))  # type: ignore[arg-type]
            for _ in range(3)
        }
        assert len(picks) == 1
    # easy really is random across seeds from the empty board
    empty = Round(LAYOUTS["rombo"])
    assert len({str(choose_move(empty, "easy", seed=s)) for s in range(12)}) > 3


def test_medium_takes_an_immediate_tower_and_avoids_giving_one() -> None:
    rnd = Round.from_record("rombo: L5 M4 S1")  # player 1 can make a tower with 4-5
    assert choose_move(rnd, "medium", seed=0) == choose_move(rnd, "medium", seed=1)
    assert str(choose_move(rnd, "medium", seed=0)) == "4-5"


def play_game(layout: str, levels: tuple[str, str], seed: int, max_nodes: int) -> tuple[int, int]:
    rnd = Round(LAYOUTS[layout])
    i = 0
    while not rnd.is_over:
        lvl = levels[rnd.current_player]
        rnd.play(choose_move(rnd, lvl, seed=seed * 100 + i, budget_s=None, max_nodes=max_nodes))  # type: ignore[arg-type]
        i += 1
    return rnd.score()


def test_hard_beats_easy_with_a_small_node_budget() -> None:
    margin = 0
    wins = 0
    games = 0
    for seed, layout in enumerate(("rombo", "flor", "cinta", "corona")):
        for hard_seat in (0, 1):
            levels = ("hard", "easy") if hard_seat == 0 else ("easy", "hard")
            a, b = play_game(layout, levels, seed, max_nodes=2000)
            mine, theirs = (a, b) if hard_seat == 0 else (b, a)
            margin += mine - theirs
            wins += mine > theirs
            games += 1
    assert wins >= games - 1 and margin >= games


def test_choose_move_on_a_match_and_refusals() -> None:
    match = Match.new("cinta", first=1)
    move = choose_move(match, "hard", seed=0, budget_s=None, max_nodes=500)
    assert move in match.current_round.legal_moves()
    with pytest.raises(InvalidInputError):
        choose_move(match, "grandmaster")
    with pytest.raises(InvalidInputError):
        choose_move("rombo")  # type: ignore[arg-type]
    over = Round.from_record("rombo: L2 S3 L7 M6 S4 S5 M9 L8 M1")
    with pytest.raises(IllegalMoveError) as info:
        choose_move(over, "hard")
    assert info.value.rule == "E1"
    with pytest.raises(IllegalMoveError):
        search(over)


def test_choose_layout_for_round_two() -> None:
    match = Match.new("rombo", first=0)
    with pytest.raises(IllegalMoveError):
        choose_layout(match, 1)
    for t in "L2 S3 L7 M6 S4 S5 M9 L8 M1".split():
        match.play(t)
    with pytest.raises(NotYourTurnError):
        choose_layout(match, 0)
    layout = choose_layout(match, 1, seed=2, max_nodes=500)
    assert layout.name in RECOMMENDED
    assert choose_layout(match, 1, seed=2, max_nodes=500) is layout
    match.choose_layout(1, layout)
    assert match.phase == "playing"


def test_solve_reports_failure_when_budget_is_too_small_and_exact_otherwise() -> None:
    rnd = Round(LAYOUTS["rombo"])
    assert solve(rnd, max_nodes=2000) is None  # the empty board is far beyond 2000 nodes
    res = search(rnd, budget_s=None, max_nodes=2000)
    assert not res.exact and res.depth >= 1 and res.move in rnd.legal_moves()
    late, value = small_positions()[0]
    res = search(late, budget_s=None, max_nodes=200_000)
    assert res.exact and res.value == value * SCALE
