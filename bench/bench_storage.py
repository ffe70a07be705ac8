"""Storage benchmark: committed actions per second on SQLite and PostgreSQL, and leaderboard query time.

    .venv/bin/python bench/bench_storage.py [--dir DIR] [--actions N] [--pg URL | --no-pg]

Prints the machine's load average (``uptime``) first. Then committed actions/s for one game (sequential:
each action awaits its commit, as the bot does) and for 100 interleaved games (100 concurrent
coroutines, one action each per round): SQLite with synchronous=FULL (the default) and NORMAL, and
PostgreSQL at ``--pg`` (default ``TEST_DATABASE_URL`` or ``postgresql://postgres@127.0.0.1:5432/test``,
in a schema of its own, dropped afterwards; pool of 10 connections). Then leaderboard (top 10, a deep
page) and ``rating_of`` (rank) times with 10,000 rated users in one guild, on both. Real files on disk
(``--dir``, default a temp dir), a real server: no mocks.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage import Storage
from bot.storage import ratings as rating_math

STATE_PAD = "x" * 4000  # a state of ~4 KB of JSON, between a Constructo match and a CONEX table


def state(n: int) -> dict[str, Any]:
    return {"n": n, "pad": STATE_PAD}


def load_average() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg())


async def one_game(target: str, actions: int, **options: Any) -> float:
    s = await Storage.open(target, **options)
    try:
        gid = await s.create_game("constructo", 1, 1, state(0), [1, 2], status="active")
        t0 = time.perf_counter()
        v = 0
        for i in range(actions):
            v = await s.apply_action(gid, v, state(i + 1), player=1 + i % 2, action=f"M{i % 9 + 1}")
        return actions / (time.perf_counter() - t0)
    finally:
        await s.close()


async def interleaved(target: str, games: int, rounds: int, **options: Any) -> float:
    s = await Storage.open(target, **options)
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


async def leaderboard(target: str, users: int, repeat: int) -> dict[str, float]:
    s = await Storage.open(target)
    rng = random.Random(5)
    rows = []
    for uid in range(1, users + 1):
        mu, sigma = rng.gauss(25, 4), rng.uniform(1.5, 8.3)
        games = rng.randint(1, 60)
        wins = rng.randint(0, games)
        rows.append((7, "conex", uid, mu, sigma, rating_math.ordinal(mu, sigma), games, wins, games - wins, 0, 0.0))

    async def load(tx: Any) -> None:  # bulk load: this measures the queries, not the rating updates
        await tx.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )

    await s._write(load)
    await s._write(lambda tx: tx.execute("ANALYZE"))
    board = await s.leaderboard(7, "conex", limit=100, offset=0)
    median_user = (await s.leaderboard(7, "conex", limit=1, offset=users // 2))[0].user_id
    last_user = (await s.leaderboard(7, "conex", limit=1, offset=users - 1))[0].user_id
    assert board[0].rank == 1 and (await s.rating_of(7, "conex", last_user)).rank == users  # type: ignore[union-attr]

    async def timed(coro_fn: Callable[[], Awaitable[Any]]) -> float:
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


class PgSchemas:
    """Fresh schemas on the PostgreSQL server for each run, dropped at the end."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.made: list[str] = []

    async def new(self) -> str:
        name = f"bench_{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f'CREATE SCHEMA "{name}"')
        finally:
            await conn.close()
        self.made.append(name)
        return f"{self.url}{'&' if '?' in self.url else '?'}search_path={name}"

    async def drop_all(self) -> None:
        conn = await asyncpg.connect(self.url)
        try:
            for name in self.made:
                await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        finally:
            await conn.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None, help="directory for the database files")
    parser.add_argument("--actions", type=int, default=2000, help="actions in the one-game run")
    parser.add_argument(
        "--pg", default=os.environ.get("TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    args = parser.parse_args()
    print(f"machine: {load_average()}")
    rounds = max(1, args.actions // 100)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"database directory: {root}")
        for sync in ("FULL", "NORMAL"):
            rate1 = await one_game(str(root / f"one-{sync}.sqlite3"), args.actions, synchronous=sync)
            rate100 = await interleaved(str(root / f"many-{sync}.sqlite3"), 100, rounds, synchronous=sync)
            print(
                f"SQLite synchronous={sync:6s}  one game: {rate1:7.0f} actions/s"
                f"   100 interleaved games: {rate100:7.0f} actions/s"
            )
        times = {"SQLite": await leaderboard(str(root / "board.sqlite3"), 10_000, 200)}
        if not args.no_pg:
            schemas = PgSchemas(args.pg)
            try:
                rate1 = await one_game(await schemas.new(), args.actions)
                rate100 = await interleaved(await schemas.new(), 100, rounds)
                print(
                    f"PostgreSQL (pool 10)      one game: {rate1:7.0f} actions/s"
                    f"   100 interleaved games: {rate100:7.0f} actions/s"
                )
                times["PostgreSQL"] = await leaderboard(await schemas.new(), 10_000, 200)
            finally:
                await schemas.drop_all()
        for name, figures in times.items():
            print(f"{name}: leaderboard with 10,000 rated users (median of 200, ms):")
            for query, ms in figures.items():
                print(f"  {query:32s} {ms:7.3f} ms")
    print(f"machine after: {load_average()}")


if __name__ == "__main__":
    asyncio.run(main())
