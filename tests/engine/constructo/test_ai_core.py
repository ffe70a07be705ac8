"""Differential tests: the compiled search core against the Python engine (the rules are defined once).

Random positions from random play (named and random custom layouts): the core's legal actions are the rules'
(``Round.legal_codes``), its horizon heuristic and its depth-limited values are the pure-Python search's, its
solved values are the Python solver's, and symmetric positions (a layout automorphism plus a colour swap) share
one table key.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.constructo import LAYOUTS, Layout, Round
from engine.constructo import core as core_mod
from engine.constructo.layout import DIRECTIONS
from engine.constructo.pysearch import PySearcher
from engine.constructo.search import search, solve
from engine.constructo.symmetry import automorphisms, canonical_stacks
from engine.constructo.tables import STACK_ID, board_of, reserves_of

pytestmark = pytest.mark.skipif(not core_mod.core_available(), reason="compiled search core not built")

ROOT = Path(__file__).resolve().parents[3]


def random_layout(rng: random.Random) -> Layout:
    cells = {(0, 0)}
    while len(cells) < 9:
        q, r = rng.choice(sorted(cells))
        dq, dr = rng.choice(DIRECTIONS)
        cells.add((q + dq, r + dr))
    return Layout.parse(" ".join(f"({q},{r})" for q, r in cells))


def random_position(seed: int, plies: int) -> Round:
    rng = random.Random(seed)
    names = sorted(LAYOUTS)
    layout = LAYOUTS[rng.choice(names)] if rng.random() < 0.75 else random_layout(rng)
    rnd = Round(layout, rng.randrange(2))
    for _ in range(plies):
        if rnd.is_over:
            break
        rnd.play(rng.choice(rnd.legal_moves()))
    return rnd


positions = st.builds(random_position, st.integers(0, 2**32 - 1), st.integers(0, 34))
common = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@common
@given(positions)
def test_core_legal_actions_are_the_rules_legal_actions(rnd: Round) -> None:
    core = core_mod.new_core(rnd, tt_bits=8)
    codes = core.legal(board_of(rnd), reserves_of(rnd), rnd.current_player)
    assert len(codes) == len(set(codes))
    assert sorted(codes) == sorted(m.code for m in rnd.legal_moves())


@common
@given(positions)
def test_core_heuristic_is_the_python_heuristic(rnd: Round) -> None:
    core = core_mod.new_core(rnd, tt_bits=8)
    py = PySearcher(rnd, [0], None, None)
    for p in (0, 1):
        assert core.evaluate(board_of(rnd), reserves_of(rnd), p) == py.evaluate(p, py.score)


@common
@given(positions, st.integers(1, 3))
def test_core_values_equal_python_values_at_small_depth(rnd: Round, depth: int) -> None:
    if rnd.is_over:
        return
    fast = search(rnd, budget_s=None, max_depth=depth, iterative=False, core=True, tt_bits=12)
    slow = search(rnd, budget_s=None, max_depth=depth, iterative=False, core=False)
    assert fast.value == slow.value, rnd.record()
    assert fast.move in rnd.legal_moves()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(14, 24))
def test_core_solves_like_the_python_solver(seed: int, plies: int) -> None:
    rnd = random_position(seed, plies)
    if rnd.is_over:
        return
    slow = solve(rnd, max_nodes=60_000, core=False)
    if slow is None:
        return  # too big for the reference in a test
    fast = solve(rnd, core=True, tt_bits=14)
    assert fast is not None and fast.value == slow.value, rnd.record()
    child = rnd.copy()
    child.play(fast.move)  # the core's move keeps the value
    if child.is_over:
        a, b = child.score()
        assert (a - b) * (1 if rnd.current_player == 0 else -1) * 100 == slow.value
    else:
        again = solve(child, max_nodes=200_000, core=False)
        assert again is not None and -again.value == slow.value, rnd.record()


def transformed(rnd: Round, perm: tuple[int, ...], swap: bool) -> tuple[list[int], list[int], int]:
    """The position moved by the automorphism ``perm`` (tile t goes to perm[t]), colours swapped if asked."""
    stacks = [()] * 9
    for t, st_ in enumerate(rnd.stacks):
        stacks[perm[t]] = tuple(c ^ 4 for c in st_) if swap else st_
    res = reserves_of(rnd)
    if swap:
        res = res[4:] + res[:4]
    return [STACK_ID[s] for s in stacks], res, rnd.current_player ^ int(swap)


@common
@given(positions, st.integers(0, 1000), st.booleans())
def test_symmetric_positions_share_one_key_and_one_value(rnd: Round, pick: int, swap: bool) -> None:
    autos = automorphisms(rnd.layout)
    perm = autos[pick % len(autos)]
    core = core_mod.new_core(rnd, tt_bits=8)
    board, res, turn = transformed(rnd, perm, swap)
    assert core.key(board, res, turn) == core.key(board_of(rnd), reserves_of(rnd), rnd.current_player)
    # the Python reference canonical form agrees, and the transformed position is really a position of the layout
    moved = [()] * 9
    for t, st_ in enumerate(rnd.stacks):
        moved[perm[t]] = tuple(c ^ 4 for c in st_) if swap else st_
    assert canonical_stacks(rnd.layout, moved, turn) == canonical_stacks(rnd.layout, rnd.stacks, rnd.current_player)


def play_on(layout: Layout, seed: int, plies: int) -> Round:
    rng = random.Random(seed)
    rnd = Round(layout, 0)
    for _ in range(plies):
        if rnd.is_over:
            break
        rnd.play(rng.choice(rnd.legal_moves()))
    return rnd


@common
@given(st.sampled_from(sorted(LAYOUTS)), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_core_keys_are_equal_exactly_for_equivalent_positions(name: str, s1: int, s2: int, plies: int) -> None:
    # few plies, so that equivalent pairs (same position, or a mirror image) are common
    a, b = play_on(LAYOUTS[name], s1, plies), play_on(LAYOUTS[name], s2, plies)
    core = core_mod.new_core(a, tt_bits=8)
    same_key = core.key(board_of(a), reserves_of(a), a.current_player) == core.key(
        board_of(b), reserves_of(b), b.current_player
    )
    same_form = canonical_stacks(a.layout, a.stacks, a.current_player) == canonical_stacks(
        b.layout, b.stacks, b.current_player
    )
    assert same_key == same_form


def test_automorphisms_of_the_named_layouts() -> None:
    counts = {name: len(automorphisms(layout)) for name, layout in LAYOUTS.items()}
    assert counts["rombo"] == 4 and counts["flor"] == 4 and counts["cinta"] == 2 and counts["corona"] == 18
    for layout in LAYOUTS.values():
        autos = automorphisms(layout)
        assert autos[0] == tuple(range(9))
        for perm in autos:
            for a in range(9):
                for b in range(9):
                    assert (b in layout.adjacency[a]) == (perm[b] in layout.adjacency[perm[a]])


def test_pure_python_fallback_when_the_core_is_disabled() -> None:
    env = dict(os.environ, TABLEBOT_PURE_PYTHON_AI="1")
    code = (
        "from engine.constructo import core, Round; from engine.constructo.ai import choose_move;"
        "r = Round('rombo'); m = choose_move(r, 'hard', budget_s=None, max_nodes=300);"
        "print(core.CORE, m in r.legal_moves())"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["python", "True"]
