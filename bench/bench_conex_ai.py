"""Benchmark: the CONEX AI (engine/conex/ai.py) against a greedy player, 3 players, seats rotated.

Greedy = for each hand card ``find_placements(...)[0]``, the one scoring most (``points_for``); draw when nothing
fits, pass when the pile is empty too; discards its first card. Every AI and greedy action is checked with
``game.check`` before being played. Prints win rate (ties count as wins for every tied leader, E3), mean scores,
and the AI's time per decision (p50/p99/max) and finder calls per decision.

Levels (issue 25): ``--levels easy,medium,hard`` benchmarks each level in turn (``engine/conex/ai_levels.py``) and
``--against greedy|easy|medium|hard`` chooses the two other seats (default greedy); the win rate is printed with
its 95 % Wilson interval, and the load average before and after (times depend on it, results do not).

``--out FILE`` appends each game (seed, seat, scores, winners, the AI's decision times and finder calls) as a JSON
line as soon as it ends, so a long run's figures can be read (``bench/conex_ai_summary.py``) before it finishes.

Usage: ``python bench/bench_conex_ai.py [--games 100] [--jobs 2] [--seed 0] [--levels hard] [--against medium]
[--out runs.jsonl]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.conex import Discard, Draw, Game, Pass
from engine.conex.actions import AnyAction
from engine.conex.ai import DEFAULT_WEIGHTS, Decision, Weights, decide
from engine.conex.ai_levels import LEVELS, decide_level


def greedy(game: Game, p: int) -> AnyAction:
    """The baseline: the best first finder result over the hand, by points."""
    if p in game.pending_discards:
        return Discard(p, game.hands[p][0])
    best = None
    for cid in game.hands[p]:
        found = game.find_placements(p, cid, limit=1)
        if found:
            pts = game.points_for(found[0])
            if best is None or pts > best[0]:
                best = (pts, found[0])
    if best is not None:
        return best[1]
    return Draw(p) if game.pile else Pass(p)


@dataclass
class Result:
    """One benchmark game: seed, the AI's seat, final scores, winners, the AI's decision times (s), finder calls
    per turn decision, counts of the AI's action kinds, cards on the table at the end, the AI's CPU time per decision
    (s, ``time.process_time``: independent of the machine's load)."""

    seed: int
    ai: int
    scores: list[int]
    winners: list[int]
    over: bool
    times: list[float]
    calls: list[int]
    kinds: dict[str, int]
    table: int
    cpu: list[float]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % for ``z=1.96``) of a proportion ``k / n``, as fractions."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


Job = tuple[int, int, int, Weights, str | None, str]


def _other(game: Game, p: int, against: str, ai_seed: int) -> AnyAction:
    return greedy(game, p) if against == "greedy" else decide_level(game, p, against, seed=ai_seed + 1 + p).action


def play_game(args: Job) -> Result:
    """One game: ``ai_seat`` is the AI under test (``level``, or the default AI with ``weights`` when ``None``),
    the other seats play ``against`` (greedy or a level). Returns scores, winners, AI decision times."""
    game_seed, ai_seat, ai_seed, weights, level, against = args

    def me(q: int) -> Decision:
        if level is None:
            return decide(g, q, seed=ai_seed, weights=weights)
        return decide_level(g, q, level, seed=ai_seed)

    g = Game.new(players=3, seed=game_seed)
    times: list[float] = []
    calls: list[int] = []
    kinds: dict[str, int] = {}
    cpu: list[float] = []
    actions = 0
    while not g.is_over and actions < 400:
        for q in sorted(g.pending_discards):
            if q == ai_seat:
                t, c = time.perf_counter(), time.process_time()
                d = me(q)
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                a = d.action
            else:
                a = _other(g, q, against, ai_seed)
            g.check(a)
            g.play(a)
        p = g.current_player
        if p == ai_seat:
            t, c = time.perf_counter(), time.process_time()
            d = me(p)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            calls.append(d.calls)
            a = d.action
            key = type(a).__name__.lower() + (" x2" if getattr(a, "double", False) else "")
            kinds[key] = kinds.get(key, 0) + 1
        else:
            a = _other(g, p, against, ai_seed)
        g.check(a)
        g.play(a)
        actions += 1
    return Result(game_seed, ai_seat, list(g.scores), g.winners, g.is_over, times, calls, kinds, len(g.table), cpu)


def crowded(args: tuple[int, str | None]) -> list[tuple[int, int, float, int]]:
    """Greedy play to goal 100 on the medium table; from 35 cards on the table, time the AI's decision (``level``,
    or the default AI when ``None``) for the seat to move at every turn (not played). Returns ``(table cards, hand
    size, seconds, finder calls)``."""
    game_seed, level = args
    g = Game.new(players=3, seed=game_seed, goal=100)
    out: list[tuple[int, int, float, int]] = []
    while not g.is_over:
        for q in sorted(g.pending_discards):
            g.play(greedy(g, q))
        p = g.current_player
        if len(g.table) >= 35:
            t = time.perf_counter()
            d = decide(g, p, seed=0) if level is None else decide_level(g, p, level)
            out.append((len(g.table), len(g.hands[p]), time.perf_counter() - t, d.calls))
            g.check(d.action)
        g.play(greedy(g, p))
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--weights", default="", help="tuning, e.g. threat_next=0.4,keep=0")
    ap.add_argument("--levels", default="", help="comma list of levels to benchmark in turn, e.g. easy,medium,hard")
    ap.add_argument("--against", default="greedy", choices=("greedy", *LEVELS), help="the two other seats")
    ap.add_argument("--crowded", type=int, default=0, help="also time decisions on crowded tables of N games")
    ap.add_argument("--out", default="", help="also append each game's result as a JSON line to this file")
    ns = ap.parse_args()
    levels: list[str | None] = [lv for lv in ns.levels.split(",") if lv] or [None]
    for level in levels:
        if level is not None and level not in LEVELS:
            ap.error(f"unknown level {level!r}")
    if ns.crowded:
        for level in levels:
            crowded_report(ns, level)
        if ns.games == 0:
            return
    changes = dict(kv.split("=") for kv in ns.weights.split(",") if kv)
    weights = Weights(**{k: type(getattr(DEFAULT_WEIGHTS, k))(v) for k, v in changes.items()})
    if changes:
        print(f"weights: {weights}")
    for level in levels:
        run(ns, weights, level)


def crowded_report(ns: argparse.Namespace, level: str | None) -> None:
    """Time ``level``'s decisions on crowded tables of ``ns.crowded`` games (``crowded``) and print them."""
    print(f"== {level or 'AI'} on crowded tables ==")
    with ProcessPoolExecutor(ns.jobs) as ex:
        rows = [r for rs in ex.map(crowded, [(s, level) for s in range(100, 100 + ns.crowded)]) for r in rs]
    big = [r for r in rows if r[0] >= 45]
    print(f"crowded tables: {len(rows)} decisions at 35-{max(r[0] for r in rows)} cards on the table")
    for lo, hi in ((35, 39), (40, 44), (45, 52)):
        ts = [r[2] for r in rows if lo <= r[0] <= hi]
        if ts:
            print(
                f"  {lo}-{hi} cards: {len(ts)} decisions, p50 {pct(ts, 0.5) * 1000:.0f} ms, "
                f"p99 {pct(ts, 0.99) * 1000:.0f} ms, max {max(ts) * 1000:.0f} ms"
            )
    if big:
        print(
            f"  >= 45 cards: hand sizes {min(r[1] for r in big)}-{max(r[1] for r in big)}, "
            f"max finder calls {max(r[3] for r in big)}"
        )
    print(f"  max finder calls over all {len(rows)} decisions: {max(r[3] for r in rows)}", flush=True)


def run(ns: argparse.Namespace, weights: Weights, level: str | None) -> None:
    """Benchmark one AI (``level``, or the default AI with ``weights``) against ``ns.against``; print figures."""
    name = level or "AI"
    jobs: list[Job] = [(ns.seed + k, k % 3, 0, weights, level, ns.against) for k in range(ns.games)]
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    results: list[Result] = []
    with ProcessPoolExecutor(ns.jobs) as ex:
        for r in ex.map(play_game, jobs):
            results.append(r)
            print(f"game {r.seed}: {name} seat {r.ai} scores {r.scores} winners {r.winners}", flush=True)
            if ns.out:
                with open(ns.out, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps({"level": name, "against": ns.against, **asdict(r)}) + "\n")
    wall = time.perf_counter() - t0
    load1 = os.getloadavg()
    n = len(results)
    wins = sum(1 for r in results if r.ai in r.winners)
    sole = sum(1 for r in results if r.winners == [r.ai])
    ai_scores = [r.scores[r.ai] for r in results]
    gr_scores = [s for r in results for i, s in enumerate(r.scores) if i != r.ai]
    gr_wins = sum(1 for r in results for i in range(3) if i != r.ai and i in r.winners) / 2
    times = [t for r in results for t in r.times]
    calls = [c for r in results for c in r.calls]
    kinds: dict[str, int] = {}
    for r in results:
        for k, v in r.kinds.items():
            kinds[k] = kinds.get(k, 0) + v
    lo, hi = wilson(wins, n)
    slo, shi = wilson(sole, n)
    print(f"== {name} against two {ns.against} seats ==")
    print(f"games {n} (3 players, seat rotated 0/1/2; wall {wall:.0f} s, {ns.jobs} processes)")
    before, after = "/".join(f"{x:.1f}" for x in load0), "/".join(f"{x:.1f}" for x in load1)
    print(f"load average (1/5/15 min) before {before}, after {after}")
    print(f"{name} wins (incl. ties) {wins}/{n} = {wins / n:.0%} (95% Wilson {lo:.0%}-{hi:.0%}); fair share 33%")
    print(f"{name} sole wins {sole}/{n} = {sole / n:.0%} (95% Wilson {slo:.0%}-{shi:.0%})")
    print(f"{ns.against} wins per seat (incl. ties) {gr_wins / n:.0%}")
    print(f"mean score: {name} {statistics.mean(ai_scores):.1f}, {ns.against} {statistics.mean(gr_scores):.1f}")
    margins = [r.scores[r.ai] - max(s for i, s in enumerate(r.scores) if i != r.ai) for r in results]
    if n > 1:
        se = statistics.stdev(margins) / n**0.5
        print(
            f"{name} score minus the best other score: mean {statistics.mean(margins):+.2f} (standard error {se:.2f})"
        )
    print(
        f"{name} time per decision: p50 {pct(times, 0.5) * 1000:.0f} ms, p99 {pct(times, 0.99) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms over {len(times)} decisions"
    )
    if calls:
        print(f"finder calls per turn decision: mean {statistics.mean(calls):.1f}, max {max(calls)}")
    print(f"{name} actions: {dict(sorted(kinds.items()))}")
    print(f"all games ended: {all(r.over for r in results)}", flush=True)


if __name__ == "__main__":
    main()
