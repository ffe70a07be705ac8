"""Fair background work and a load-proof hard AI (``bot/core/cpu.py`` lanes, ``engine/constructo/ai.py`` budget).

Usage: ``.venv/bin/python bench/bench_lanes.py [--part wait agree] [--hard 40] [--cheap 4] [--seconds 90]
[--positions 20] [--hogs 2]``

``wait``: the bot's own ``CpuPools`` (``CPU_WORKERS``/``AI_WORKERS`` at this machine's defaults) and its AI functions.
``--hard`` coroutines play hard Constructo AI seats without pause (each submits the bot's ``ai_action`` at level
``hard`` on a mid-game position, again as soon as it returns, in the lane ``Rules.ai_lane`` names), while
``--cheap`` CONEX AI seats think 0.5-1.5 s then submit the CONEX ``ai_action`` (a turn decision on a 21-card
table, ~0.1 s of CPU: heavier than a discard) and time it from the call to its start in a worker (queue wait)
and to its answer. Run twice for ``--seconds``
each: **before** (``light=0``: every background job in one first-come, first-served lane) and **after** (the light
lane). After ``--seconds`` no new job starts; the cheap jobs already called are awaited to their answer.

``agree``: ``--positions`` mid-game Constructo positions; the hard AI's move is computed once on the machine as it is
("idle") and once beside ``--hogs`` busy-looping processes ("loaded"), with the bot's budget (2 M nodes) and with
the old one (1 s of wall clock). Prints the agreement and the CPU seconds per move (p50/max) and nodes/s.

Prints Markdown rows and the load average (``/proc/loadavg``) at start and end; record them in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.cpu import CpuPools
from bot.cpusize import default_cpu_workers
from bot.games.conex.ai import ai_action as conex_ai
from bot.games.conex.kind import ConexRules
from bot.games.constructo.kind import ConstructoRules
from bot.games.constructo.kind import ai_action as constructo_ai
from engine.conex import Game
from engine.conex.ai import first_fit
from engine.constructo import Match
from engine.constructo.ai import choose_move, hard_nodes


def timed_conex(game: Game, seat: int, level: str, seed: int) -> tuple[str, float, float]:
    """The CONEX AI seat's job as the bot runs it, plus when it started in the worker (``time.time()``: comparable
    across processes) and its CPU seconds."""
    started, cpu = time.time(), time.process_time()
    text = conex_ai(game, seat, level, seed)
    return text, started, time.process_time() - cpu


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def constructo_positions(count: int, seed: int = 0) -> list[Match]:
    """Mid-game matches (0-10 random plies of round 1), the player to move still having choices."""
    rng = random.Random(seed)
    out: list[Match] = []
    while len(out) < count:
        match = Match.new(rng.choice(["rombo", "flor", "cinta", "corona"]), first=0)
        for _ in range(rng.randrange(0, 11)):
            match.play(rng.choice(match.current_round.legal_moves()))
        if not match.current_round.is_over and len(match.current_round.legal_moves()) > 3:
            out.append(match)
    return out


def conex_midgame(seed: int) -> Game:
    game = Game.new(players=3, seed=seed, table="medium", goal=40)
    for _ in range(24):
        game.play(first_fit(game, game.current_player))
    return game


async def wait_run(light: int | None, hard: int, cheap: int, seconds: float) -> dict[str, Any]:
    workers = default_cpu_workers()
    pools = CpuPools(workers, None, light)
    await pools.warm()
    stop = time.perf_counter() + seconds
    positions = constructo_positions(hard)
    tables = [conex_midgame(s) for s in range(cheap)]
    crules, xrules = ConstructoRules(), ConexRules()
    waits: list[float] = []
    queued: list[float] = []
    cpus: list[float] = []
    hard_done = [0]

    async def hard_seat(i: int) -> None:
        match = positions[i]
        lane = crules.ai_lane(match, match.current_player, "hard")
        seed = i
        while time.perf_counter() < stop:
            await pools.run(lane, constructo_ai, match, match.current_player, "hard", seed)
            hard_done[0] += 1
            seed += 1000

    async def cheap_seat(i: int) -> None:
        rng = random.Random(i)
        game = tables[i]
        lane = xrules.ai_lane(game, game.current_player, "medium")
        while True:
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            if time.perf_counter() >= stop:
                return
            called, started = time.time(), time.perf_counter()
            _, began, cpu = await pools.run(lane, timed_conex, game, game.current_player, "medium", i)
            waits.append(time.perf_counter() - started)
            queued.append(began - called)
            cpus.append(cpu)

    tasks = [asyncio.ensure_future(hard_seat(i)) for i in range(hard)]
    await asyncio.gather(*(cheap_seat(i) for i in range(cheap)))  # the last cheap jobs are awaited to the end
    await asyncio.gather(*tasks)
    pools.close()
    workers_used = (workers, pools.background_workers)
    return {"waits": waits, "queued": queued, "cpu": cpus, "hard": hard_done[0], "workers": workers_used}


def hog(until: float) -> None:
    while time.time() < until:
        pass


def agree_run(count: int, hogs: int) -> None:
    positions = constructo_positions(count, seed=7)

    def moves(loaded: bool) -> tuple[list[str], list[str], list[float], list[float]]:
        procs = []
        if loaded:
            until = time.time() + 3600
            procs = [multiprocessing.Process(target=hog, args=(until,), daemon=True) for _ in range(hogs)]
            for p in procs:
                p.start()
        new, old, cpu, nps = [], [], [], []
        try:
            for i, match in enumerate(positions):
                t, wall = time.process_time(), time.perf_counter()
                new.append(constructo_ai(match, match.current_player, "hard", i))
                cpu.append(time.process_time() - t)
                nps.append(hard_nodes() / max(1e-9, time.perf_counter() - wall))
                old.append(str(choose_move(match, "hard", i, budget_s=1.0, max_nodes=None)))
        finally:
            for p in procs:
                p.terminate()
        return new, old, cpu, nps

    print(f"load before idle run: {load()}")
    idle_new, idle_old, cpu, nps = moves(False)
    print(f"load before loaded run ({hogs} hog processes): {load()}")
    busy_new, busy_old, cpu_busy, nps_busy = moves(True)
    print(f"load after: {load()}")
    same_new = sum(a == b for a, b in zip(idle_new, busy_new, strict=True))
    same_old = sum(a == b for a, b in zip(idle_old, busy_old, strict=True))
    print("| budget | positions | same move idle vs loaded |")
    print("|---|---:|---:|")
    print(f"| {hard_nodes():,} nodes (the bot's) | {count} | {same_new}/{count} = {100 * same_new / count:.0f} % |")
    print(f"| 1 s of wall clock (before) | {count} | {same_old}/{count} = {100 * same_old / count:.0f} % |")
    print(
        f"CPU s per hard move: idle p50 {statistics.median(cpu):.2f} max {max(cpu):.2f}; loaded p50 "
        f"{statistics.median(cpu_busy):.2f} max {max(cpu_busy):.2f}. Wall nodes/s (budget / wall time): idle p50 "
        f"{statistics.median(nps):,.0f}, loaded p50 {statistics.median(nps_busy):,.0f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", nargs="+", default=["wait", "agree"], choices=["wait", "agree"])
    ap.add_argument("--hard", type=int, default=40)
    ap.add_argument("--cheap", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=90.0)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--hogs", type=int, default=2)
    args = ap.parse_args()
    if "wait" in args.part:
        print(f"load at start: {load()}")
        print(
            "| lanes | hard AI jobs done | cheap jobs | queue wait p50 / p99 / max | call to answer p50 / p99 / max "
            "| cheap job CPU p50 |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for name, light in (("before: one background lane", 0), ("after: light lane", None)):
            r = asyncio.run(wait_run(light, args.hard, args.cheap, args.seconds))
            w, q = r["waits"], r["queued"]
            print(
                f"| {name} (workers {r['workers'][0]} + {r['workers'][1]}) | {r['hard']} | {len(w)} | "
                f"{pct(q, 0.5):.2f} / {pct(q, 0.99):.2f} / {max(q, default=float('nan')):.2f} s | "
                f"{pct(w, 0.5):.2f} / {pct(w, 0.99):.2f} / {max(w, default=float('nan')):.2f} s | "
                f"{pct(r['cpu'], 0.5) * 1000:.0f} ms |"
            )
            print(f"load: {load()}", flush=True)
    if "agree" in args.part:
        agree_run(args.positions, args.hogs)


if __name__ == "__main__":
    main()
