"""The tutorials' work on the event loop (``bot/services/tutorial.py``): ``reached(state, learner)`` runs for every
board on which a tutorial's learner is to act, and Constructo's gentle ``steer`` before every AI move of a tutorial;
both run on the loop (no CPU seam), so both must stay far below a millisecond or so.

Positions: every position of ``--games`` random tutorial games per game (Constructo: the learner random, the AI the
steer else easy; CONEX: both seats the easy AI on the small table, goal 20), each function timed on each position.

Run: ``.venv/bin/python bench/bench_learn.py [--games 20]`` (prints a Markdown table and the load average; figures go
to BENCHMARKS.md, "Tutorials on the event loop").
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.conex.tutorial import reached as cn_reached
from bot.games.constructo.tutorial import reached as cx_reached
from bot.games.constructo.tutorial import steer
from engine.conex import Game
from engine.conex.ai_levels import decide_level
from engine.constructo import Match, ai


def timed(fn: Callable[[], Any], out: list[float]) -> Any:
    """Call ``fn`` and append its CPU time in µs (the thread's own: a loaded machine's preemptions excluded; the
    wall time on an idle loop is about the same)."""
    started = time.thread_time_ns()
    result = fn()
    out.append((time.thread_time_ns() - started) / 1e3)
    return result


def constructo(games: int) -> tuple[list[float], list[float]]:
    reach: list[float] = []
    steers: list[float] = []
    for seed in range(games):
        rng = random.Random(seed)
        match = Match.new({"layout": "rombo", "first": 0})
        while not match.is_over:
            seat = match.current_player
            assert seat is not None
            if match.phase == "choosing_layout":
                match.apply(match.legal_actions(seat)[0])
                continue
            if seat == 0:
                timed(lambda m=match: cx_reached(m, 0), reach)
                match.play(rng.choice(match.current_round.legal_moves()), 0)
            else:
                steered = timed(lambda m=match: steer(m, 1, 0), steers)
                match.play(steered or ai.choose_move(match, "easy", seed), 1)
    return reach, steers


def conex(games: int) -> list[float]:
    reach: list[float] = []
    for seed in range(games):
        game = Game.new({"players": 2, "seed": seed, "table": "small", "goal": 20, "bots": [0, 1]})
        for _ in range(200):
            if game.is_over:
                break
            timed(lambda g=game: cn_reached(g, 0), reach)
            seat = game.awaiting()[0]
            game.play(decide_level(game, seat, "easy", seed).action)
    return reach


def row(name: str, values: list[float]) -> str:
    q = statistics.quantiles(values, n=100)
    return f"| {name} | {len(values)} | {statistics.median(values):.0f} | {q[98]:.0f} | {max(values):.0f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    cx_reach, cx_steer = constructo(args.games)
    cn_reach = conex(args.games)
    print("| function (per call, CPU time) | calls | median µs | p99 µs | max µs |")
    print("|---|---|---|---|---|")
    print(row("Constructo `reached`", cx_reach))
    print(row("Constructo `steer`", cx_steer))
    print(row("CONEX `reached`", cn_reach))
    print(f"\nload average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
