"""The hard AI's budget is counted in search nodes, never in seconds: the same position gets the same move on an
idle or a busy machine (the clock is replaced by one that races, as a loaded machine's would seem to)."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from engine.constructo import LAYOUTS, Round
from engine.constructo import core as _core
from engine.constructo.ai import HARD_NODES_CORE, HARD_NODES_PYTHON, choose_move, hard_nodes, search


def racing_clock(monkeypatch: pytest.MonkeyPatch, step_s: float = 5.0) -> None:
    """Every ``time.perf_counter()`` read is ``step_s`` later than the one before (a machine too busy to search)."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * step_s)


def midgame(plies: int, seed: int) -> Round:
    rnd = Round(LAYOUTS["rombo"])
    rng = random.Random(seed)
    for _ in range(plies):
        rnd.play(rng.choice(rnd.legal_moves()))
    return rnd


def test_hard_plays_the_same_move_whatever_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = midgame(4, seed=21)
    calm = search(rnd, budget_s=None, max_nodes=hard_nodes(), seed=11)
    assert calm.depth >= 6 and calm.nodes >= hard_nodes()  # a real search, ended by its node budget
    racing_clock(monkeypatch)
    assert choose_move(rnd, "hard", seed=11) == calm.move  # the default budget: the same nodes, the same move


def test_a_wall_clock_budget_would_weaken_the_hard_ai_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The contrast (the old 1-s budget): on the racing clock the search stops after a sliver of its nodes."""
    rnd = midgame(4, seed=21)
    racing_clock(monkeypatch)
    weak = search(rnd, budget_s=1.0, seed=11)
    assert weak.nodes < hard_nodes() // 20 and weak.depth < 6


def test_the_pure_python_search_is_clock_free_too(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = midgame(6, seed=5)
    calm = search(rnd, budget_s=None, max_nodes=8_000, seed=3, core=False)
    racing_clock(monkeypatch)
    busy = search(rnd, budget_s=None, max_nodes=8_000, seed=3, core=False)
    assert (busy.move, busy.value, busy.depth) == (calm.move, calm.value, calm.depth)


def test_the_hard_budget_fits_the_search_in_use() -> None:
    assert hard_nodes() == (HARD_NODES_CORE if _core.core_available() else HARD_NODES_PYTHON)
