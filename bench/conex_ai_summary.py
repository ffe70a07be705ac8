"""Summarise ``bench/bench_conex_ai.py --out FILE`` runs (JSON lines, one per game), even while they still run.

For each (level, against) pair in the files: games, the seeds covered, wins including ties (E3) and sole wins with
their 95 % Wilson intervals, mean scores, the mean margin over the best other seat (with its standard error), the
level's time per decision (p50/p99/max, ms; they depend on the machine's load, the results do not) and its finder
calls per turn decision (the work bound). A game seed present twice (a run repeated) counts once.

``--base BASE.jsonl`` (paired runs, the same game seeds and seats): also, for each pair, the mean over the seeds in
both of (margin here - margin in BASE) with its standard error, the wins on those seeds in each, and how many games are
identical (same scores and action counts).

Usage: ``python bench/conex_ai_summary.py [--base BASE.jsonl] runs.jsonl [more.jsonl ...]``
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


def _margin(r: dict[str, object]) -> int:
    s, sc = int(r["ai"]), list(r["scores"])  # type: ignore[call-overload]
    return int(sc[s]) - max(int(x) for i, x in enumerate(sc) if i != s)


def paired(rows: dict[int, dict[str, object]], base: dict[int, dict[str, object]]) -> str:
    """The paired comparison of ``rows`` with ``base`` (by game seed) as one line (module docstring)."""
    seeds = sorted(set(rows) & set(base))
    if len(seeds) < 2:
        return "paired with base: fewer than 2 common seeds"
    diffs = [_margin(rows[k]) - _margin(base[k]) for k in seeds]
    wins = sum(1 for k in seeds if rows[k]["ai"] in rows[k]["winners"])  # type: ignore[operator]
    bwins = sum(1 for k in seeds if base[k]["ai"] in base[k]["winners"])  # type: ignore[operator]
    same = sum(1 for k in seeds if (rows[k]["scores"], rows[k]["kinds"]) == (base[k]["scores"], base[k]["kinds"]))
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    return (
        f"paired with base on {len(seeds)} seeds: margin diff {statistics.mean(diffs):+.2f} (standard error "
        f"{se:.2f}); wins {wins} vs base {bwins}; identical games {same}"
    )


def load(names: list[str]) -> dict[tuple[str, str], dict[int, dict[str, object]]]:
    """The games of ``names`` by (level, against) and game seed (a seed present twice counts once: the last)."""
    groups: dict[tuple[str, str], dict[int, dict[str, object]]] = {}
    for name in names:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                groups.setdefault((r["level"], r["against"]), {})[int(r["seed"])] = r
    return groups


def main() -> None:
    args = sys.argv[1:]
    base: dict[tuple[str, str], dict[int, dict[str, object]]] = {}
    if args[:1] == ["--base"]:
        base, args = load(args[1:2]), args[2:]
    for (level, against), by_seed in sorted(load(args).items()):
        print(f"== {level} against two {against} seats ==")
        for text in summarise(list(by_seed.values())):
            print(text)
        if (level, against) in base:
            print(paired(by_seed, base[(level, against)]))


if __name__ == "__main__":
    main()
