"""Summarise ``bench/bench_conex_ai.py --out FILE`` runs (JSON lines, one per game), even while they still run.

For each (level, against) pair in the files: games, the seeds covered, wins including ties (E3) and sole wins with
their 95 % Wilson intervals, mean scores, the mean margin over the best other seat (with its standard error), the
level's time per decision (p50/p99/max, ms; they depend on the machine's load, the results do not) and its finder
calls per turn decision (the work bound). A game seed present twice (a run repeated) counts once.

Usage: ``python bench/conex_ai_summary.py runs.jsonl [more.jsonl ...]``
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_conex_ai import pct, wilson


def summarise(rows: list[dict[str, object]]) -> list[str]:
    """The report lines for the games of one (level, against) pair (``rows``: JSON objects of ``--out``)."""
    n = len(rows)
    seats = [(int(r["ai"]), list(r["scores"]), list(r["winners"])) for r in rows]  # type: ignore[call-overload]
    wins = sum(1 for s, _sc, w in seats if s in w)
    sole = sum(1 for s, _sc, w in seats if w == [s])
    margins = [sc[s] - max(x for i, x in enumerate(sc) if i != s) for s, sc, _w in seats]
    mine = [sc[s] for s, sc, _w in seats]
    others = [x for s, sc, _w in seats for i, x in enumerate(sc) if i != s]
    times = [float(t) for r in rows for t in r["times"]]  # type: ignore[attr-defined]
    calls = [int(c) for r in rows for c in r["calls"]]  # type: ignore[attr-defined]
    cpu = [float(t) for r in rows for t in r.get("cpu", [])]  # type: ignore[attr-defined]
    lo, hi = wilson(wins, n)
    slo, shi = wilson(sole, n)
    seeds = sorted(int(r["seed"]) for r in rows)  # type: ignore[call-overload]
    se = statistics.stdev(margins) / n**0.5 if n > 1 else float("nan")
    return [
        f"games {n} (seeds {seeds[0]}-{seeds[-1]}), all ended: {all(r['over'] for r in rows)}",
        f"wins (incl. ties) {wins}/{n} = {wins / n:.1%} (95% Wilson {lo:.1%}-{hi:.1%}); fair share 33%",
        f"sole wins {sole}/{n} = {sole / n:.1%} (95% Wilson {slo:.1%}-{shi:.1%})",
        f"mean score {statistics.mean(mine):.1f} vs {statistics.mean(others):.1f}; margin over the best other "
        f"{statistics.mean(margins):+.2f} (standard error {se:.2f})",
        f"time per decision: p50 {pct(times, 0.5) * 1000:.0f} ms, p99 {pct(times, 0.99) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms over {len(times)} decisions",
        f"finder calls per turn decision: mean {statistics.mean(calls):.1f}, max {max(calls)}",
    ] + (
        [
            f"CPU per decision (process_time): p50 {pct(cpu, 0.5) * 1000:.0f} ms, p99 {pct(cpu, 0.99) * 1000:.0f} ms, "
            f"max {max(cpu) * 1000:.0f} ms, mean {statistics.mean(cpu) * 1000:.0f} ms over {len(cpu)} decisions"
        ]
        if cpu
        else []
    )


def main() -> None:
    groups: dict[tuple[str, str], dict[int, dict[str, object]]] = {}
    for name in sys.argv[1:]:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                groups.setdefault((r["level"], r["against"]), {})[int(r["seed"])] = r
    for (level, against), by_seed in sorted(groups.items()):
        print(f"== {level} against two {against} seats ==")
        for text in summarise(list(by_seed.values())):
            print(text)


if __name__ == "__main__":
    main()
