"""Replay stepper and analysis pictures (``bot/ui/stepper.py``, ``bot/games/constructo/analysis.py``): CPU of one
**Step through** / ◀ ▶ click (the CPU job: replay the record, caption the jump select's moves, draw the still) at the
start, the middle and the end of a game, and of the Analysis pictures (value graph + board after each turning
point) of a whole match, with the PNG sizes.

Games: the longest two-round Constructo match of ``--seeds`` random matches and a CONEX game played by first_fit to
the end (``bench/bench_replay.py``). Run: ``.venv/bin/python bench/bench_stepper.py [--seeds 100] [--runs 3]``
(prints a Markdown table and the load average; figures go to BENCHMARKS.md, "Replay stepper").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_replay import NAMES, conex_game, constructo_longest  # noqa: E402

from bot.games.constructo.analysis import analyse_match, analysis_pictures  # noqa: E402
from bot.ui.stepper import _step_job  # noqa: E402
from engine.record import export_record  # noqa: E402
from render.conex_replay import REPLAY as CONEX  # noqa: E402
from render.constructo_replay import REPLAY as CONSTRUCTO  # noqa: E402


def timed(fn, *args, runs: int):  # type: ignore[no-untyped-def]
    out, times = None, []
    for _ in range(runs):
        start = time.process_time()
        out = fn(*args)
        times.append(time.process_time() - start)
    return out, statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    match = constructo_longest(args.seeds)
    conex = conex_game(2, 7, False, 0.0)
    print("| game | actions | move | CPU ms per click | still KB |")
    print("|---|---:|---:|---:|---:|")
    for label, state, renderer, names in (
        ("Constructo, longest 2-round match", match, CONSTRUCTO, NAMES[:2]),
        ("CONEX 2 seats, first_fit to the end", conex, CONEX, NAMES[:2]),
    ):
        record = export_record(state, names=names)
        total = len(record["history"])
        for move in (0, total // 2, total):
            (png, _cap, _n, _caps), cpu = timed(_step_job, record, renderer, move, runs=args.runs)
            print(f"| {label} | {total} | {move} | {cpu * 1000:.0f} | {len(png) / 1024:.0f} |")
    rounds = analyse_match(match, None)
    titles = [f"Round {r['round']}" for r in rounds]
    pictures, cpu = timed(analysis_pictures, match, rounds, NAMES[:2], titles, runs=args.runs)
    sizes = ", ".join(f"{name} {len(png) / 1024:.0f} KB" for name, png in pictures)
    print(f"\nAnalysis pictures of that match ({len(rounds)} rounds): {cpu * 1000:.0f} ms CPU; {sizes}")
    print("load average:", ", ".join(f"{v:.2f}" for v in os.getloadavg()))


if __name__ == "__main__":
    main()
