"""The live table's latency: from a player's drop (the page sending its confirmed placement) to the other
player's page having drawn the new table, over scripted CONEX games (2 players, small table).

Usage: .venv/bin/python bench/bench_live.py [--moves 60] [--watchers 0]

The devserver and the real bot process (``WEB_PORT`` set) run here, with two (plus ``--watchers`` spectator)
pages in one headless Debian chromium (Playwright, ``/usr/bin/chromium``). Each action is the finder's best
placement (else a draw), sent with ``Live.act`` as the page's Play button does; latency = ``Date.now()`` in the
acting page before sending -> ``Date.now()`` in the slowest other page once it drew the new state (one browser,
one clock). A new game starts when one ends. Prints p50/p90/p99/max and the 1-minute load average; record them
in BENCHMARKS.md ("The live table").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devserver.directory import CHANNEL_NAMES
from tests.e2e.live_kit import browser, live_env, open_page, play_scripted, start_conex

MAX_GAMES = 12


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def run(moves: int, watchers: int) -> list[float]:
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with live_env(Path(tmp)) as (env, base), browser() as b:
            for game_no in range(MAX_GAMES):  # a finished game frees its channel
                if len(latencies) >= moves:
                    break
                game_id = await start_conex(env, CHANNEL_NAMES[game_no % len(CHANNEL_NAMES)])
                row = env.game(game_id)
                names = [env.server.user(u).name for u in row.players]
                pages = {seat: await open_page(b, env, base, name, row.channel_id) for seat, name in enumerate(names)}
                for n in range(watchers):
                    pages[100 + n] = await open_page(b, env, base, ("carol", "dave")[n % 2], row.channel_id)
                latencies += await play_scripted(env, game_id, pages, moves - len(latencies))
                for page in pages.values():
                    await page.close()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--watchers", type=int, default=0)
    args = parser.parse_args()
    latencies = asyncio.run(run(args.moves, args.watchers))
    load = os.getloadavg()[0]
    print(
        f"moves {len(latencies)}, watchers {args.watchers}: drop -> other screen"
        f" p50 {percentile(latencies, 0.5):.0f} ms,"
        f" p90 {percentile(latencies, 0.9):.0f} ms, p99 {percentile(latencies, 0.99):.0f} ms,"
        f" max {max(latencies):.0f} ms, mean {statistics.mean(latencies):.0f} ms; load average {load:.2f}"
    )


if __name__ == "__main__":
    main()
