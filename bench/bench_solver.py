"""Constructo exact solver figures (issue 16.5; record in BENCHMARKS.md with ``uptime``).

1. **N per layout**: positions from random play at the first moment they have exactly ``k`` empty tiles
   (chips usually remain in both reserves, so the remaining tree is much deeper than ``k``), ``--positions``
   samples per ``k`` (same seeds as ``bench_constructo_ai.py``), each solved by ``solve(rnd, budget_s=...)``.
   N = the largest ``k`` with every sample solved within the budget (default 1 s of wall time).
2. **nodes/s**: a fixed node-bounded search (``search(..., max_nodes=...)``) from fixed positions.
3. ``--analysis R``: time of ``analyse_round`` on R hard-vs-medium rounds per layout.
4. ``--empty``: the solved value of each recommended layout from the empty board (no budget unless
   ``--empty-budget``), with the time it took.

Usage: .venv/bin/python bench/bench_solver.py [--positions 6] [--budget 1.0] [--layouts rombo,flor]
       [--skip-n] [--skip-speed] [--analysis 6] [--empty] [--empty-budget 1800] [--empty-tt-bits 24] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.constructo import LAYOUTS, RECOMMENDED, Round
from engine.constructo.ai import SCALE, search, solve


def sample_positions(layout: str, empties: int, count: int, seed: int) -> list[Round]:
    """Same sampler as ``bench_constructo_ai.py``: random play until exactly ``empties`` tiles are empty."""
    rng = random.Random(seed)
    out: list[Round] = []
    tries = 0
    while len(out) < count and tries < 200 * count:
        tries += 1
        rnd = Round(LAYOUTS[layout], rng.randrange(2))
        while not rnd.is_over:
            empty = sum(1 for n in range(1, 10) if not rnd.tile(n))
            if empty == empties and len(rnd.history) >= 9 - empties:
                out.append(rnd.copy())
                break
            rnd.play(rng.choice(rnd.legal_moves()))
    return out


def solve_one(args: tuple[str, int, int, float]) -> tuple[bool, int, float, int]:
    layout, k, seed, budget = args
    rnd = sample_positions(layout, k, 1, seed)
    if not rnd:
        return (True, 0, 0.0, 0)
    t0 = time.perf_counter()
    res = solve(rnd[0], budget_s=budget)
    dt = time.perf_counter() - t0
    if res is None:
        return (False, 0, dt, 0)
    return (True, res.nodes, dt, res.value // SCALE)


def run_n(layouts: list[str], per_k: int, budget: float, jobs: int) -> None:
    print(f"N per layout: exactly k empty tiles from random play; {per_k} per k; solve() within {budget} s each")
    print("| layout | k empty | solved | mean nodes | mean s | max s | values (mover's view) |")
    print("|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(jobs) as pool:
        for layout in layouts:
            reached = -1
            for k in range(0, 10):
                count = 1 if k == 9 else per_k  # k = 9 is the empty board: one position
                tasks = [(layout, k, 1000 * k + j, budget) for j in range(count)]
                res = list(pool.map(solve_one, tasks))
                ok = [r for r in res if r[0]]
                nodes = [r[1] for r in ok]
                secs = [r[2] for r in ok]
                vals = sorted(r[3] for r in ok)
                print(
                    f"| {layout} | {k} | {len(ok)}/{len(res)} | {statistics.mean(nodes) if nodes else 0:,.0f} | "
                    f"{statistics.mean(secs) if secs else 0:.3f} | {max(secs) if secs else 0:.3f} | {vals} |",
                    flush=True,
                )
                if len(ok) < len(res):
                    break
                reached = k
            print(f"    {layout}: N = {reached} (every sample solved within {budget} s)", flush=True)


def run_speed(nodes: int) -> None:
    print(f"nodes/s: search(..., max_nodes={nodes:,}, budget_s=None), best of 3")
    for layout in RECOMMENDED:
        rnd = Round(LAYOUTS[layout])
        mid = sample_positions(layout, 4, 1, 4000)[0]
        for label, pos in (("empty", rnd), ("4 empty", mid)):
            best = 0.0
            for _ in range(3):
                t0 = time.perf_counter()
                res = search(pos, budget_s=None, max_nodes=nodes)
                dt = time.perf_counter() - t0
                best = max(best, res.nodes / dt)
            print(
                f"    {layout:7s} {label:8s}: {best:,.0f} nodes/s (depth {res.depth}, {res.nodes:,} nodes)", flush=True
            )


def run_empty(layouts: list[str], budget: float | None, tt_bits: int) -> None:
    print(f"empty board, first player to move (budget {budget} s, table of {(64 << tt_bits) >> 20} MiB)")
    for layout in layouts:
        t0 = time.perf_counter()
        res = solve(Round(LAYOUTS[layout]), budget_s=budget, tt_bits=tt_bits)
        dt = time.perf_counter() - t0
        if res is None:
            print(f"    {layout:7s}: not solved in {dt:.0f} s", flush=True)
        else:
            print(
                f"    {layout:7s}: value {res.value // SCALE:+d} for the first player (best first action "
                f"{res.move}), {res.nodes:,} nodes, {dt:.1f} s",
                flush=True,
            )


def run_analysis(rounds: int) -> None:
    from engine.constructo.ai import choose_move
    from engine.constructo.analysis import analyse_round

    print(f"analyse_round (default node budget), {rounds} rounds per layout: hard (5,000 nodes) vs medium")
    print("| layout | rounds | actions mean | exact actions mean | mean s | max s | mean nodes |")
    print("|---|---|---|---|---|---|---|")
    for layout in RECOMMENDED:
        secs, acts, exact, nodes = [], [], [], []
        for g in range(rounds):
            rnd = Round(LAYOUTS[layout], g % 2)
            i = 0
            while not rnd.is_over:
                level = "hard" if rnd.current_player == g % 2 else "medium"
                rnd.play(choose_move(rnd, level, seed=1000 * g + i, budget_s=None, max_nodes=5000))
                i += 1
            a = analyse_round(rnd)
            secs.append(a.seconds)
            acts.append(len(a.moves))
            exact.append(sum(m.exact for m in a.moves))
            nodes.append(a.nodes)
        print(
            f"| {layout} | {rounds} | {statistics.mean(acts):.1f} | {statistics.mean(exact):.1f} | "
            f"{statistics.mean(secs):.2f} | {max(secs):.2f} | {statistics.mean(nodes):,.0f} |",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--layouts", default=",".join(RECOMMENDED))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--speed-nodes", type=int, default=200_000)
    ap.add_argument("--skip-n", action="store_true")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--empty", action="store_true")
    ap.add_argument("--analysis", type=int, default=0, help="time analyse_round on this many rounds per layout")
    ap.add_argument("--empty-budget", type=float, default=None)
    ap.add_argument("--empty-tt-bits", type=int, default=24, help="table of 64 << bits bytes (24: 1 GiB)")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"python {sys.version.split()[0]}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    try:
        from engine.constructo import core

        print(f"search core: {core.CORE}", flush=True)
    except ImportError:
        print("search core: python (before the compiled core)", flush=True)
    layouts = args.layouts.split(",")
    if not args.skip_speed:
        run_speed(args.speed_nodes)
    if not args.skip_n:
        run_n(layouts, args.positions, args.budget, args.jobs)
    if args.analysis:
        run_analysis(args.analysis)
    if args.empty:
        run_empty(layouts, args.empty_budget, args.empty_tt_bits)
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


if __name__ == "__main__":
    main()
