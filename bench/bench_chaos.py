"""Chaos (issue 20): many games (humans and the AI), duplicate clicks, the bot SIGKILLed/SIGTERMed again and again,
then what players were told compared with the logs; then calm play while the main process's memory is sampled.

Usage: .venv/bin/python bench/bench_chaos.py [--humans 40] [--ai 20] [--chaos-min 5] [--kill-every 20 40]
                                              [--memory-min 10] [--backend sqlite|postgresql] [--pg URL] [--seed 20]

Phase 1 (``--chaos-min``): ``--humans`` games between two players and ``--ai`` games against the easy AI, one channel
each (``tests/e2e/chaos_play.py``): every player moves as soon as it is their turn (think 0.3-1 s), a quarter of the
moves clicked twice, games resigned after 8 moves and challenged again; the bot killed every ``--kill-every`` s
(uniform; 30 % SIGTERM, else SIGKILL) and started again at once. Then the bot runs in peace until nothing is owed
and the verdict is printed: lost, doubled, finished games without a result card, stored actions without a board,
players told "nothing was changed" about a saved move (all must be 0).

Phase 2 (``--memory-min``): the same games played on without kills by a fresh process; the RSS and PSS
(``/proc/<pid>/smaps_rollup``) of the bot's **main process** are sampled every 30 s; printed: the samples, the
growth over the phase and the least-squares slope after the first two minutes (MB per minute).

Prints the ``uptime`` load average; record the figures in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devserver import DevServer
from devserver.process import BotProcess
from tests.e2e.chaos_play import Chaos, verdict
from tests.e2e.outage_kit import Stored
from tests.storage.conftest import create_schema, drop_schema, with_schema

TOKEN = "bench-chaos-token"
DEFAULT_PG = os.environ.get("TEST_DATABASE_URL", "").strip() or "postgresql://postgres@127.0.0.1:5432/test"


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of one process in MB (``smaps_rollup``)."""
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of ``(minute, MB)`` points (MB per minute)."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den if den else 0.0


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def run(args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    schema = None
    extra: dict[str, str] = {}
    if args.backend == "postgresql":
        schema = await create_schema(args.pg)
        url = with_schema(args.pg, schema)
        extra["DATABASE_URL"] = url
        stored = Stored(pg_url=url)
    else:
        stored = Stored(db=tmp / "data" / "tablebot.sqlite3")
    server = await DevServer(token=TOKEN).start()
    proc = BotProcess(server, tmp / "data", tmp / "bot.log", token=TOKEN, extra_env=extra)
    try:
        await proc.start()
        chaos = Chaos(server, proc, stored, seed=args.seed)
        t0 = time.monotonic()
        await chaos.open_games(humans=args.humans, ai=args.ai)
        print(f"opened {len(chaos.channels)} games in {time.monotonic() - t0:.0f} s; load {load_average()}", flush=True)
        await chaos.run(args.chaos_min * 60, kill_every=tuple(args.kill_every), moves_before_resign=8, think=1.0)
        t1 = time.monotonic()
        await chaos.settle(timeout=300)
        settled_s = time.monotonic() - t1
        v = await verdict(chaos)
        tally = chaos.tally
        print(
            f"## chaos ({args.backend}, {args.humans} human + {args.ai} AI games, {args.chaos_min} min, kill every "
            f"{args.kill_every[0]:.0f}-{args.kill_every[1]:.0f} s)"
        )
        print(
            f"kills {dict(tally.kills)}; intents {len(tally.intents)} ({tally.duplicates} clicked twice); answers "
            f"{dict(tally.answers)}; resigned {tally.finished_by_resign}"
        )
        print(
            f"games {v.games}, finished {v.finished}, logged actions {v.actions}; settled {settled_s:.0f} s after "
            f"the last kill"
        )
        print(
            f"lost {len(v.lost)}, doubled {len(v.doubled)}, finished without result card "
            f"{len(v.finished_without_card)}, stored actions without a board {len(v.without_board)}, told "
            f"'nothing was changed' about a saved move {len(v.lied)}"
        )
        for what in (v.lost, v.doubled, v.finished_without_card, v.without_board, v.lied):
            for item in what[:10]:
                print(f"  - {item}")
        print(f"load average {load_average()}", flush=True)

        if args.memory_min > 0:
            await proc.stop()
            await proc.start()
            assert proc.proc is not None
            pid = proc.proc.pid
            calm = Chaos(server, proc, stored, seed=args.seed + 1)
            calm.channels = chaos.channels
            task = asyncio.create_task(
                calm.run(args.memory_min * 60, kill_every=None, moves_before_resign=8, think=1.0)
            )
            samples: list[tuple[float, float, float]] = []
            start = time.monotonic()
            while not task.done():
                minute = (time.monotonic() - start) / 60
                rss, pss = memory_mb(pid)
                samples.append((minute, rss, pss))
                print(f"  t={minute:5.1f} min  RSS {rss:6.1f} MB  PSS {pss:6.1f} MB", flush=True)
                await asyncio.wait([task], timeout=30)
            rss, pss = memory_mb(pid)
            samples.append(((time.monotonic() - start) / 60, rss, pss))
            later = [(m, r) for m, r, _p in samples if m >= 2.0]
            later_pss = [(m, p) for m, _r, p in samples if m >= 2.0]
            print(f"## memory of the main process over {args.memory_min} min of play ({len(chaos.channels)} games)")
            print(
                f"RSS {samples[0][1]:.1f} -> {samples[-1][1]:.1f} MB, PSS {samples[0][2]:.1f} -> {samples[-1][2]:.1f}"
                f" MB; slope after 2 min: RSS {slope(later):+.2f} MB/min, PSS {slope(later_pss):+.2f} MB/min; "
                f"moves answered {calm.tally.answers['saved']}"
            )
            print(f"load average {load_average()}", flush=True)
    finally:
        await proc.stop()
        await server.stop()
        if schema is not None:
            await drop_schema(args.pg, schema)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--humans", type=int, default=40)
    ap.add_argument("--ai", type=int, default=20)
    ap.add_argument("--chaos-min", type=float, default=5.0)
    ap.add_argument("--kill-every", type=float, nargs=2, default=[20.0, 40.0])
    ap.add_argument("--memory-min", type=float, default=10.0)
    ap.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--pg", default=DEFAULT_PG)
    ap.add_argument("--seed", type=int, default=20)
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
