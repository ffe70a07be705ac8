"""Constructo AI strength and solving figures (issue 8 evidence; record in BENCHMARKS.md).

1. ``hard`` vs ``easy`` and ``hard`` vs ``medium``: full 2-round matches on the four recommended
   layouts (round 2 on the same layout, so each player starts one round), hard in both seats.
   ``hard`` is bounded by a node budget (``--nodes``) so the figures do not depend on machine load;
   the script prints the wall-clock time per hard move that budget cost.
2. Solved positions: for each recommended layout, positions from random play with exactly ``k``
   empty tiles, solved exactly (``solve``) under a per-position budget, for k = 0, 1, 2, ...
   until a position is not solved; N = the largest k with every sampled position solved.

Usage: .venv/bin/python bench/bench_constructo_ai.py [--matches 104] [--nodes 5000] [--jobs 2]
       [--solve-positions 6] [--solve-nodes 3000000] [--skip-matches] [--skip-solve]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.constructo import LAYOUTS, RECOMMENDED, Match, Round
from engine.constructo.ai import SCALE, choose_move, solve


def play_match(args: tuple[str, str, int, int, int]) -> dict[str, float]:
    """One match: layout, opponent level, hard's seat, who starts round 1, seed."""
    layout, opp, hard_seat, first, seed = args
    match = Match.new(LAYOUTS[layout], first=first)
    hard_time = 0.0
    hard_moves = 0
    i = 0
    while not match.is_over:
        if match.phase == "choosing_layout":
            match.choose_layout(match.chooser, layout)  # type: ignore[arg-type]
            continue
        p = match.current_player
        level = "hard" if p == hard_seat else opp
        t0 = time.perf_counter()
        move = choose_move(match, level, seed=seed * 1000 + i, budget_s=None, max_nodes=NODES)
        if level == "hard":
            hard_time += time.perf_counter() - t0
            hard_moves += 1
        match.play(move)
        i += 1
    totals = match.totals()
    rounds = match.round_scores()
    mine = totals[hard_seat]
    theirs = totals[1 - hard_seat]
    round_w = sum(1 for r in rounds if r[hard_seat] > r[1 - hard_seat])
    round_d = sum(1 for r in rounds if r[hard_seat] == r[1 - hard_seat])
    return {
        "win": float(mine > theirs),
        "draw": float(mine == theirs),
        "loss": float(mine < theirs),
        "margin": float(mine - theirs),
        "round_w": float(round_w),
        "round_d": float(round_d),
        "hard_time": hard_time,
        "hard_moves": float(hard_moves),
    }


NODES = 5000


def _init(nodes: int) -> None:
    global NODES
    NODES = nodes


def run_matches(opp: str, matches: int, jobs: int, nodes: int) -> None:
    tasks = []
    for g in range(matches):
        layout = RECOMMENDED[g % 4]
        hard_seat = (g // 4) % 2
        first = (g // 8) % 2
        tasks.append((layout, opp, hard_seat, first, g))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(jobs, initializer=_init, initargs=(nodes,)) as pool:
        results = list(pool.map(play_match, tasks))
    elapsed = time.perf_counter() - t0
    w = sum(r["win"] for r in results)
    d = sum(r["draw"] for r in results)
    loss = sum(r["loss"] for r in results)
    rw = sum(r["round_w"] for r in results)
    rd = sum(r["round_d"] for r in results)
    margin = statistics.mean(r["margin"] for r in results)
    per_move = sum(r["hard_time"] for r in results) / max(1.0, sum(r["hard_moves"] for r in results))
    n = len(results)
    print(
        f"hard vs {opp}: {n} matches: W {w:.0f} / D {d:.0f} / L {loss:.0f} (win {100 * w / n:.1f}%), "
        f"rounds won {rw:.0f}/{2 * n} drawn {rd:.0f}, mean match margin {margin:+.2f} towers, "
        f"hard {nodes} nodes/move = {1000 * per_move:.0f} ms/move, {elapsed:.0f} s",
        flush=True,
    )
    for layout in RECOMMENDED:
        sub = [r for t, r in zip(tasks, results, strict=True) if t[0] == layout]
        print(
            f"    {layout:7s}: W {sum(r['win'] for r in sub):.0f} D {sum(r['draw'] for r in sub):.0f} "
            f"L {sum(r['loss'] for r in sub):.0f}, margin {statistics.mean(r['margin'] for r in sub):+.2f}",
            flush=True,
        )


def sample_positions(layout: str, empties: int, count: int, seed: int) -> list[Round]:
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


def solve_one(args: tuple[str, int, int, int]) -> tuple[bool, int, float, int]:
    layout, k, seed, max_nodes = args
    rnd = sample_positions(layout, k, 1, seed)
    if not rnd:
        return (True, 0, 0.0, 0)
    t0 = time.perf_counter()
    res = solve(rnd[0], max_nodes=max_nodes)
    dt = time.perf_counter() - t0
    if res is None:
        return (False, max_nodes, dt, 0)
    return (True, res.nodes, dt, res.value // SCALE)


def run_solve(per_k: int, max_nodes: int, jobs: int) -> None:
    print(f"solved positions (random play, exactly k empty tiles; {per_k} per k; budget {max_nodes:,} nodes each)")
    print("| layout | k empty | solved | mean nodes | max nodes | mean s | max s | values (mover's view) |")
    print("|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(jobs) as pool:
        for layout in RECOMMENDED:
            reached = -1
            for k in range(0, 10):
                tasks = [(layout, k, 1000 * k + j, max_nodes) for j in range(per_k)]
                res = list(pool.map(solve_one, tasks))
                ok = [r for r in res if r[0]]
                nodes = [r[1] for r in ok]
                secs = [r[2] for r in ok]
                vals = sorted(r[3] for r in ok)
                print(
                    f"| {layout} | {k} | {len(ok)}/{len(res)} | {statistics.mean(nodes) if nodes else 0:,.0f} | "
                    f"{max(nodes) if nodes else 0:,} | {statistics.mean(secs) if secs else 0:.2f} | "
                    f"{max(secs) if secs else 0:.2f} | {vals} |",
                    flush=True,
                )
                if len(ok) < len(res):
                    break
                reached = k
            print(f"    {layout}: every sampled position solved up to N = {reached} empty tiles", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=104)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--solve-positions", type=int, default=6)
    ap.add_argument("--solve-nodes", type=int, default=3_000_000)
    ap.add_argument("--skip-matches", action="store_true")
    ap.add_argument("--skip-solve", action="store_true")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, jobs {args.jobs}", flush=True)
    if not args.skip_matches:
        for opp in ("easy", "medium"):
            run_matches(opp, args.matches, args.jobs, args.nodes)
    if not args.skip_solve:
        run_solve(args.solve_positions, args.solve_nodes, args.jobs)


if __name__ == "__main__":
    main()
