"""The ``perfect`` Constructo level against ``hard`` on every recommended layout (issue 25 evidence; BENCHMARKS.md).

One round per (layout, seat of the perfect player, seed of the hard player): rounds are independent (S2, E2), so a
round is the unit the claim is about. For every round it records:

* the **proven value** of the first position the perfect player faced (the book's or the solver's exact value, or
  the lower bound a ``kept`` move proved, in towers, for the perfect player; ``None`` when that first move was
  already a fallback);
* the final tower difference for the perfect player, and whether it is below the proven value (a **violation**:
  what the level must never do where a proof exists) or a loss where the proof said draw or better;
* every perfect move's source (``book``, ``kept``, ``solved``, ``fallback``) and its time (wall clock, this
  machine's load).

Deterministic (node budgets only). Usage::

    .venv/bin/python bench/bench_perfect.py [--seeds 2] [--layouts rombo flor cinta corona] [--jobs 1] [--book F]
        [--opponent hard|medium|easy]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.constructo import LAYOUTS, RECOMMENDED, Round
from engine.constructo.ai import SCALE, choose_move, hard_nodes
from engine.constructo.book import load_book
from engine.constructo.perfect import perfect_choice


def play_round(args: tuple[str, int, int, str | None, str]) -> dict[str, Any]:
    """One round: ``layout``, the perfect player's seat (0 starts), the opponent's seed, the book file (``None``:
    the shipped one), the opponent's level (``hard`` by default)."""
    layout, seat, seed, book_path, opponent = args
    book = load_book(Path(book_path)) if book_path else load_book()
    rnd = Round(LAYOUTS[layout], 0)
    proven: int | None = None
    first = True
    sources: list[str] = []
    times: dict[str, list[float]] = {"book": [], "kept": [], "solved": [], "fallback": []}
    hard_times: list[float] = []
    i = 0
    while rnd.legal_codes():
        started = time.perf_counter()
        if rnd.current_player == seat:
            choice = perfect_choice(rnd, seed, fallback_nodes=hard_nodes(), book=book)
            took = time.perf_counter() - started
            sources.append(choice.source)
            times[choice.source].append(took)
            if first:
                proven = choice.value
                first = False
            code = choice.move.code
        else:
            code = choose_move(rnd, opponent, seed=seed * 1000 + i).code
            hard_times.append(time.perf_counter() - started)
        rnd.apply_code(code)
        i += 1
    a, b = rnd.score()
    final = (a - b) if seat == 0 else (b - a)
    return {
        "layout": layout,
        "seat": seat,
        "seed": seed,
        "proven": None if proven is None else proven // SCALE,
        "final": final,
        "sources": sources,
        "times": times,
        "hard_times": hard_times,
        "plies": len(rnd.codes),
    }


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Per layout: rounds, results, violations, fallback rate, seconds per move by source."""
    out: dict[str, Any] = {}
    for layout in dict.fromkeys(r["layout"] for r in rounds):
        mine = [r for r in rounds if r["layout"] == layout]
        count = Counter(s for r in mine for s in r["sources"])
        moves = sum(count.values())
        per: dict[str, Any] = {}
        for source in ("book", "kept", "solved", "fallback"):
            ts = [t for r in mine for t in r["times"][source]]
            if ts:
                per[source] = {"moves": len(ts), "mean_s": round(statistics.fmean(ts), 3), "max_s": round(max(ts), 3)}
        out[layout] = {
            "rounds": len(mine),
            "wins": sum(r["final"] > 0 for r in mine),
            "draws": sum(r["final"] == 0 for r in mine),
            "losses": sum(r["final"] < 0 for r in mine),
            "losses_where_proven_draw_or_better": sum(
                r["final"] < 0 and r["proven"] is not None and r["proven"] >= 0 for r in mine
            ),
            "below_proven_value": sum(r["proven"] is not None and r["final"] < r["proven"] for r in mine),
            "unproven_first_move": sum(r["proven"] is None for r in mine),
            "rounds_with_a_fallback": sum("fallback" in r["sources"] for r in mine),
            "fallback_moves": count["fallback"],
            "perfect_moves": moves,
            "fallback_rate": round(count["fallback"] / moves, 3) if moves else 0.0,
            "seconds_per_move": per,
            "hard_mean_s": round(statistics.fmean(t for r in mine for t in r["hard_times"]), 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=2, help="hard seeds per layout and seat")
    parser.add_argument("--layouts", nargs="+", default=list(RECOMMENDED), choices=list(RECOMMENDED))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the rounds and summary as JSON")
    parser.add_argument("--book", default=None, help="another book file (default: the shipped one)")
    parser.add_argument("--opponent", default="hard", choices=["easy", "medium", "hard"], help="the other level")
    args = parser.parse_args()
    book = load_book(Path(args.book)) if args.book else load_book()
    jobs = [
        (layout, seat, seed, args.book, args.opponent)
        for layout in args.layouts
        for seat in (0, 1)
        for seed in range(args.seeds)
    ]
    load_before = os.getloadavg()
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rounds = list(pool.map(play_round, jobs))
    else:
        rounds = [play_round(j) for j in jobs]
    for r in rounds:
        print(
            f"{r['layout']:7s} perfect seat {r['seat']} {args.opponent} seed {r['seed']}: proven {r['proven']}, final "
            f"{r['final']:+d}, sources {dict(Counter(r['sources']))}"
        )
    result = {
        "opponent": args.opponent,
        "book_plies": {name: book.plies(LAYOUTS[name]) for name in args.layouts},
        "summary": summary(rounds),
        "seconds": round(time.perf_counter() - started),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps({"rounds": rounds, **result}, indent=1))


if __name__ == "__main__":
    main()
