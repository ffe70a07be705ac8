"""Constructo engine speed: random full rounds per second and legal_moves() calls per second.

Usage: .venv/bin/python bench/bench_constructo.py [--seconds 3] [--layout rombo]
Prints one line per figure; record them in BENCHMARKS.md ("Constructo engine").
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.constructo import LAYOUTS, Round


def bench_rounds(layout: str, seconds: float, checked: bool) -> tuple[float, float]:
    """Random full rounds per second (public validated play(), or the search's apply_code path)."""
    rng = random.Random(1)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rnd = Round(LAYOUTS[layout])
        if checked:
            while not rnd.is_over:
                rnd.play(rng.choice(rnd.legal_moves()))
                actions += 1
        else:
            codes = rnd.legal_codes()
            while codes:
                rnd.apply_code(rng.choice(codes))
                actions += 1
                codes = rnd.legal_codes()
        rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / rounds


def bench_legal(layout: str, seconds: float) -> float:
    """legal_moves() calls per second over positions sampled from random rounds (cache defeated)."""
    rng = random.Random(2)
    positions: list[Round] = []
    while len(positions) < 500:
        rnd = Round(LAYOUTS[layout])
        while not rnd.is_over:
            positions.append(rnd.copy())
            rnd.play(rng.choice(rnd.legal_moves()))
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for pos in positions:
            pos._legal = None
            pos.legal_moves()
        calls += len(positions)
    return calls / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--layout", default="rombo", choices=sorted(LAYOUTS))
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, layout {args.layout}, {args.seconds:.0f} s per figure")
    rps, avg = bench_rounds(args.layout, args.seconds, checked=True)
    print(f"random full rounds/s (validated play + legal_moves): {rps:,.0f}  (avg {avg:.1f} actions/round)")
    rps, avg = bench_rounds(args.layout, args.seconds, checked=False)
    print(f"random full rounds/s (search path apply_code/legal_codes): {rps:,.0f}")
    print(f"legal_moves() calls/s: {bench_legal(args.layout, args.seconds):,.0f}")


if __name__ == "__main__":
    main()
