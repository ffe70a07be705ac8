"""Property tests: random legal play on any layout (named or random custom)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.constructo import LAYOUTS, Layout, Match, Round, stack_is_possible
from engine.constructo.layout import DIRECTIONS


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    if draw(st.booleans()):
        return LAYOUTS[draw(st.sampled_from(sorted(LAYOUTS)))]
    # grow a random connected polyhex of 9 cells from the origin
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cells = [(0, 0)]
    while len(cells) < 9:
        q, r = rng.choice(cells)
        dq, dr = rng.choice(DIRECTIONS)
        if (q + dq, r + dr) not in cells:
            cells.append((q + dq, r + dr))
    return Layout.from_cells(cells)


ALLOWED_SIZES = {(3, 2), (2, 1), (1, 3), (3, 2, 1), (1, 3, 2), (1, 3, 2, 1)}  # bottom to top, S=1 M=2 L=3


def check_invariants(rnd: Round) -> None:
    chips = [chip for n in range(1, 10) for chip in rnd.tile(n)]
    for p in (0, 1):
        for size, left in rnd.reserve(p).items():
            on_board = sum(1 for chip in chips if chip == (p, size))
            assert on_board + left == 3  # C2: 18 chips conserved
    for n in range(1, 10):
        stack = rnd.tile(n)
        assert len(stack) <= 4 and stack_is_possible(stack)
        # independent of the engine: the only size patterns K1-K5 allow, owners alternating
        assert len(stack) <= 1 or tuple(int(sz) for _, sz in stack) in ALLOWED_SIZES
        assert all(stack[i][0] != stack[i + 1][0] for i in range(len(stack) - 1))
        if rnd.is_swallow(n):
            assert rnd.tower_owner(n) is None


@settings(max_examples=40, deadline=None)
@given(layout=layouts(), seed=st.integers(0, 2**32 - 1), first=st.integers(0, 1))
def test_random_play_terminates_conserves_and_round_trips(layout: Layout, seed: int, first: int) -> None:
    rng = random.Random(seed)
    rnd = Round(layout, first)
    actions = 0
    while not rnd.is_over:
        moves = rnd.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        rnd.play(rng.choice(moves))
        actions += 1
        assert actions <= 36
        check_invariants(rnd)
        again = Round.from_dict(rnd.to_dict())
        assert again.key() == rnd.key() and again.to_dict() == rnd.to_dict()
        replayed = Round.from_record(rnd.record(), first)
        assert replayed.key() == rnd.key() and replayed.history == rnd.history
    assert rnd.legal_moves() == []
    a, b = rnd.score()
    assert 0 <= a + b <= 9


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(sorted(LAYOUTS)))
def test_apply_undo_restores_every_position(seed: int, name: str) -> None:
    rng = random.Random(seed)
    rnd = Round(LAYOUTS[name])
    keys = [rnd.key()]
    while not rnd.is_over:
        rnd.apply_code(rng.choice(rnd.legal_codes()))
        keys.append(rnd.key())
    while rnd.codes:
        assert rnd.key() == keys.pop()
        rnd.undo_code()
    assert rnd.key() == keys.pop() and rnd.reserve(0) == rnd.reserve(1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_round_trip_and_keep_totals(seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(LAYOUTS[rng.choice(sorted(LAYOUTS))], first=rng.randrange(2))
    steps = 0
    while not match.is_over:
        if match.phase == "choosing_layout":
            assert match.chooser == 1 - match.first
            match.choose_layout(match.chooser, rng.choice(sorted(LAYOUTS)))
        elif rng.random() < 0.01:
            match.resign(match.current_player)  # type: ignore[arg-type]
        else:
            match.play(rng.choice(match.current_round.legal_moves()), player=match.current_player)
        steps += 1
        again = Match.from_dict(match.to_dict())
        assert again.to_dict() == match.to_dict()
        assert again.totals() == tuple(map(sum, zip(*match.round_scores(), strict=True)))
    assert steps <= 2 * 36 + 1
    if match.resigned is None:
        a, b = match.totals()
        assert match.winner == (0 if a > b else 1 if b > a else None)
    else:
        assert match.winner == 1 - match.resigned
