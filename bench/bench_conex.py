"""CONEX engine benchmark: placement check, finder and full random games. Prints figures for BENCHMARKS.md.

Run: ``.venv/bin/python bench/bench_conex.py [--games N]``. Targets (2-core machine): a check under 2 ms and a
full-hand search under 300 ms with 50 cards on the table.

Tables are grown by a seeded game (large table, goal 100) in which every seat plays the finder's first pose or
draws; snapshots are taken at 0, 20, 45 and 50 cards.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.conex import Game, Place, Timeout
from engine.conex.ai import first_fit


def grow(snapshots: tuple[int, ...], seed: int = 3) -> dict[int, dict[str, Any]]:
    g = Game.new(players=4, seed=seed, table="large", goal=100, timeout_forfeit=99)
    out: dict[int, dict[str, Any]] = {}
    while len(out) < len(snapshots) and not g.is_over:
        n = len(g.table)
        if n in snapshots and n not in out:
            out[n] = g.to_dict()
        for q in sorted(g.pending_discards):
            g.play(Timeout(q))
        g.play(first_fit(g, g.current_player))
    return out


def with_hand(state: dict[str, Any], size: int) -> Game:
    """The snapshot with the seat to play holding ``size`` cards (from hands and pile), no pending discards."""
    d = dict(state)
    p = d["current_player"]
    spare = [i for h in d["hands"] for i in h] + d["draw_pile"]
    d["hands"] = [[] for _ in d["hands"]]
    d["hands"][p] = spare[:size]
    d["draw_pile"] = spare[size:]
    d["pending_discards"] = []
    return Game.from_dict(d)


def timeit(fn: Any, repeat: int) -> tuple[float, float]:
    """Median and best time of ``fn()`` in ms over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)


def clear_caches(g: Game) -> None:
    g.board.cache.clear()
    g.board._grown.clear()


def bench_check(states: dict[int, dict[str, Any]]) -> None:
    print("## placement check (Game.check on one Place)")
    for n in (0, 20, 50):
        g = with_hand(states[n], 5)
        p = g.current_player
        first = first_fit(g, p)
        legal = first if isinstance(first, Place) else None
        card = g.hands[p][0]
        illegal = Place(p, card, 1, 0.0, 0.0, 0.0)  # corner on the board's score track / covered: P1
        if legal is not None:
            med, best = timeit(lambda g=g, a=legal: g.check(a), 300)
            print(f"- {n:2d} cards on the table, legal pose: median {med:.3f} ms, best {best:.3f} ms")
        else:
            print(f"- {n:2d} cards: no legal pose in this hand")

        def rejected(g: Game = g, a: Place = illegal) -> None:
            try:
                g.check(a)
            except ValueError:
                pass

        med, best = timeit(rejected, 300)
        print(f"- {n:2d} cards on the table, refused pose:  median {med:.3f} ms, best {best:.3f} ms")


def bench_finder(states: dict[int, dict[str, Any]]) -> None:
    print("## find_placements (one card, limit=10) and full-hand search (legal_counts)")
    for n, hand in ((20, 5), (45, 5), (50, 2)):
        g = with_hand(states[n], hand)
        p = g.current_player
        cold = []
        warm = []
        for card in g.hands[p]:
            for _ in range(3):
                clear_caches(g)
                t = time.perf_counter()
                g.find_placements(p, card)
                cold.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            g.find_placements(p, card)
            warm.append((time.perf_counter() - t) * 1000)
        print(
            f"- {n} cards on the table: one card cold cache median {statistics.median(cold):.0f} ms "
            f"(max {max(cold):.0f}), warm median {statistics.median(warm):.0f} ms"
        )
        hand_times = []
        cpu_times = []
        for _ in range(5):
            clear_caches(g)
            t = time.perf_counter()
            c = time.process_time()
            counts = g.legal_counts(p)
            hand_times.append((time.perf_counter() - t) * 1000)
            cpu_times.append((time.process_time() - c) * 1000)
        print(
            f"- {n} cards on the table: full-hand search of {len(g.hands[p])} cards (legal_counts, cold caches) "
            f"median {statistics.median(hand_times):.0f} ms wall / {statistics.median(cpu_times):.0f} ms CPU, "
            f"counts {sorted(counts.values(), reverse=True)}"
        )


def bench_state(states: dict[int, dict[str, Any]]) -> None:
    print("## state load/save (the bot loads the game for every interaction)")
    for n in (20, 50):
        text = json.dumps(states[n])
        g = Game.from_dict(json.loads(text))
        med, _ = timeit(lambda text=text: Game.from_dict(json.loads(text)), 20)
        med_out, _ = timeit(lambda g=g: json.dumps(g.to_dict()), 50)
        print(f"- {n} cards: from_dict(json) median {med:.1f} ms, to_dict(json) {med_out:.2f} ms, {len(text)} bytes")


def bench_games(n_games: int) -> None:
    print("## full random games (each seat plays the finder's first pose of its first placeable card, or draws)")
    t0 = time.perf_counter()
    c0 = time.process_time()
    turns = 0
    for seed in range(n_games):
        g = Game.new(players=2 + seed % 3, seed=1000 + seed, timeout_forfeit=99)
        while not g.is_over:
            for q in sorted(g.pending_discards):
                g.play(Timeout(q))
            g.play(first_fit(g, g.current_player))
            turns += 1
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(
        f"- {n_games} games, {turns} turns in {elapsed:.1f} s wall / {cpu:.1f} s CPU: "
        f"{n_games / elapsed * 60:.1f} games per minute ({n_games / cpu * 60:.1f} per CPU-minute)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} (2 cores; wall times inflate under load, CPU times less)")
    t = time.perf_counter()
    states = grow((0, 20, 45, 50))
    print(f"(grew the test tables in {time.perf_counter() - t:.1f} s)")
    bench_check(states)
    bench_finder(states)
    bench_state(states)
    bench_games(args.games)


if __name__ == "__main__":
    main()
