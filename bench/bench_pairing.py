"""Tournament pairing benchmark: CPU seconds of one Swiss round (``bot.services.pairing.swiss_round``, networkx's
maximum-weight matching) by field size, over a whole tournament with random results, and of the standings.

Run: ``.venv/bin/python bench/bench_pairing.py [--sizes 8 16 32 64] [--rounds 7] [--seed 1]`` (prints a Markdown
table and the ``uptime`` load average; figures go to BENCHMARKS.md, "Tournament pairings").
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.services.pairing import Game, standings, swiss_round  # noqa: E402


def run(n: int, rounds: int, seed: int) -> tuple[float, float, float, int]:
    """``(median s, worst s)`` of a round's pairing, the worst standings time, repeats over the tournament."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    games: list[Game] = []
    times: list[float] = []
    table = 0.0
    for r in range(1, rounds + 1):
        t0 = time.process_time()
        pairs = swiss_round(players, games, r)
        times.append(time.process_time() - t0)
        games += [g if g.outcome else Game(r, g.a, g.b, rng.choice(["a", "b", "draw"])) for g in pairs]
        t0 = time.process_time()
        standings(players, games)
        table = max(table, time.process_time() - t0)
    met = [frozenset((g.a, g.b)) for g in games if g.b is not None]
    times.sort()
    return times[len(times) // 2], times[-1], table, len(met) - len(set(met))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 32, 64])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("| players | rounds | pairing a round: median | worst | standings (worst) | repeats |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        med, worst, table, repeats = run(n, min(args.rounds, n - 1), args.seed)
        print(f"| {n} | {min(args.rounds, n - 1)} | {med * 1000:.1f} ms | {worst * 1000:.1f} ms |"
              f" {table * 1000:.1f} ms | {repeats} |")  # fmt: skip
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"\nload: {load} (pid {os.getpid()}, one core, CPU seconds)")


if __name__ == "__main__":
    main()
