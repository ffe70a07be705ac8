"""Storage benchmark: actions committed per second and leaderboard query time.

    .venv/bin/python bench/bench_storage.py [--dir DIR] [--actions N]

Prints: committed actions/s for one game (sequential: each action awaits its commit, as the bot
does), for 100 interleaved games (100 concurrent coroutines, one action each per round), for
synchronous=FULL (default) and NORMAL; then leaderboard (top 10, a deep page) and rating_of (rank)
times with 10,000 rated users in one guild. Uses a real file on disk (``--dir``, default a temp dir).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.storage import Storage
from bot.storage import ratings as rating_math

STATE_PAD = "x" * 4000  # a state of ~4 KB of JSON, between a Constructo match and a CONEX table


def state(n: int) -> dict[str, Any]:
    return {"n": n, "pad": STATE_PAD}


async def one_game(path: Path, actions: int, synchronous: str) -> float:
    s = await Storage.open(path, synchronous=synchronous)
    try:
        gid = await s.create_game("constructo", 1, 1, state(0), [1, 2], status="active")
        t0 = time.perf_counter()
        v = 0
        for i in range(actions):
            v = await s.apply_action(gid, v, state(i + 1), player=1 + i % 2, action=f"M{i % 9 + 1}")
        return actions / (time.perf_counter() - t0)
    finally:
        await s.close()


async def interleaved(path: Path, games: int, rounds: int, synchronous: str) -> float:
    s = await Storage.open(path, synchronous=synchronous)
    try:
        ids = [await s.create_game("conex", 1, 10_000 + g, state(0), [1, 2, 3], status="active") for g in range(games)]
        versions = dict.fromkeys(ids, 0)

        async def act(gid: int) -> None:
            v = versions[gid]
            versions[gid] = await s.apply_action(gid, v, state(v + 1), player=1 + v % 3, action="draw")

        t0 = time.perf_counter()
        for _ in range(rounds):
            await asyncio.gather(*(act(gid) for gid in ids))
        return games * rounds / (time.perf_counter() - t0)
    finally:
        await s.close()


async def leaderboard(path: Path, users: int, repeat: int) -> dict[str, float]:
    s = await Storage.open(path)
    rng = random.Random(5)
    rows = []
    for uid in range(1, users + 1):
        mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
        games = rng.randint(1, 60)
        wins = rng.randint(0, games)
        rows.append((7, "conex", uid, mu, sigma, rating_math.ordinal(mu, sigma), games, wins, games - wins, 0, 0.0))
    await s._writer.executemany(  # bulk load: this measures the queries, not the rating updates
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    await s._writer.execute("ANALYZE")
    board = await s.leaderboard(7, "conex", limit=100, offset=0)
    median_user = (await s.leaderboard(7, "conex", limit=1, offset=users // 2))[0].user_id
    last_user = (await s.leaderboard(7, "conex", limit=1, offset=users - 1))[0].user_id
    assert board[0].rank == 1 and (await s.rating_of(7, "conex", last_user)).rank == users  # type: ignore[union-attr]

    async def timed(coro_fn: Any) -> float:
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            await coro_fn()
            samples.append(time.perf_counter() - t0)
        return statistics.median(samples) * 1000

    out = {
        "top 10": await timed(lambda: s.leaderboard(7, "conex", limit=10)),
        "page at offset 5000 (10 rows)": await timed(lambda: s.leaderboard(7, "conex", limit=10, offset=5000)),
        "rating_of top player": await timed(lambda: s.rating_of(7, "conex", board[0].user_id)),
        "rating_of median player": await timed(lambda: s.rating_of(7, "conex", median_user)),
        "rating_of last player": await timed(lambda: s.rating_of(7, "conex", last_user)),
    }
    await s.close()
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="directory for the database files")
    parser.add_argument("--actions", type=int, default=2000, help="actions in the one-game run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"database directory: {root}")
        for sync in ("FULL", "NORMAL"):
            rate1 = await one_game(root / f"one-{sync}.sqlite3", args.actions, sync)
            rate100 = await interleaved(root / f"many-{sync}.sqlite3", 100, max(1, args.actions // 100), sync)
            print(
                f"synchronous={sync:6s}  one game: {rate1:7.0f} actions/s"
                f"   100 interleaved games: {rate100:7.0f} actions/s"
            )
        times = await leaderboard(root / "board.sqlite3", 10_000, 200)
        print("leaderboard with 10,000 rated users (median of 200, ms):")
        for name, ms in times.items():
            print(f"  {name:32s} {ms:7.3f} ms")


if __name__ == "__main__":
    asyncio.run(main())
