"""Constructo puzzles (issue 25.3; record in BENCHMARKS.md with ``uptime``): generation time, puzzles per difficulty,
kind and layout, solution depths, file size, and the time of the exhaustive re-check of the shipped set (every
legal action of every puzzle solved again with a fresh table, as ``tests/engine/constructo/test_puzzles.py`` does).

Usage: .venv/bin/python bench/bench_puzzles.py [--count 90] [--seed 1] [--skip-generate]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.constructo.puzzle_set import PUZZLES_FILE, load_puzzles
from engine.constructo.puzzles import DIFFICULTIES, move_values
from tools.make_puzzles import render


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=90)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-generate", action="store_true")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    if not args.skip_generate:
        start, cpu0 = time.perf_counter(), time.process_time()
        text = render(args.count, args.seed)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu0
        same = text == PUZZLES_FILE.read_text(encoding="utf-8")
        print(
            f"generate --count {args.count} --seed {args.seed}: {took:.1f} s wall, {cpu:.1f} s CPU, "
            f"{len(text.encode()):,} bytes, "
            f"same as the shipped file: {same}"
        )
    puzzles = [p for _, p in load_puzzles()]
    print(f"shipped: {len(puzzles)} puzzles, {PUZZLES_FILE.stat().st_size:,} bytes")
    for d in DIFFICULTIES:
        mine = [p for p in puzzles if p.difficulty == d]
        kinds = Counter(p.kind for p in mine)
        depths = [p.depth for p in mine]
        tempting = [len(p.tempting) for p in mine]
        print(
            f"  {d:6s} {len(mine):3d}  kinds {dict(kinds)}  depth median {statistics.median(depths)} "
            f"(range {min(depths)}-{max(depths)})  tempting wrong moves mean {statistics.mean(tempting):.1f}"
        )
    print(f"  layouts {dict(Counter(p.layout_name for p in puzzles))}")
    start = time.perf_counter()
    for p in puzzles:
        assert move_values(p.round(), max_nodes=20_000_000) is not None
    print(f"exhaustive re-check of the shipped set: {time.perf_counter() - start:.1f} s")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
