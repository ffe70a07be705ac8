"""CPU of one Constructo placement's parts, measured alone (issue 22, "halve the CPU per placement").

Usage: .venv/bin/python bench/bench_placement_cpu.py [--root CHECKOUT] [--n 300] [--pg URL | --no-pg]

``--root``: the checkout to measure (its ``bot``, ``render``, ``engine`` are imported), so the same script compares
a branch with the main it came from (an exported copy of it) in one session, alternately. Parts:

- **storage**: what a placement asks of storage, in the bot's order: the channel's game (no state), the game
  (state), ``apply_action`` (state, log, one owed ``board`` effect), the recorded board (no state),
  ``set_messages`` (board + its version, the effect done). CPU = ``time.process_time()`` of the whole process
  (every thread: aiosqlite's and the transaction thread's hand-offs included), per placement; SQLite (a temp file,
  ``synchronous=FULL``) and PostgreSQL (a schema of its own; the server's own CPU is not counted). Also the thread
  hops (SQLite: calls into a connection's thread) or statements sent (PostgreSQL) per placement.
- **picture**: ``render_board`` + ``to_png`` of a board after 5 placements (the long lines' glyph-mask cache warm,
  as in a worker after its first boards), and the two apart.

Prints ``uptime``'s load average first, then the best of ``--runs`` runs of each figure (CPU time is what these parts
cost, wall time would be the machine's load; other jobs on the cores still inflate CPU time through caches, the best
run is the least disturbed one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1], help="the checkout to measure")
PARSER.add_argument("--n", type=int, default=300, help="placements per storage run, boards per picture run")
PARSER.add_argument("--runs", type=int, default=5, help="runs of each part (the best is printed)")
PARSER.add_argument(
    "--pg", default=os.environ.get("TEST_DATABASE_URL", "") or "postgresql://postgres@127.0.0.1:5432/test"
)
PARSER.add_argument("--no-pg", action="store_true")
ARGS = PARSER.parse_args()
sys.path.insert(0, str(ARGS.root.resolve()))

import asyncpg  # noqa: E402

from bot.storage import Storage  # noqa: E402
from bot.storage.effects import Owed  # noqa: E402
from engine.constructo import Match  # noqa: E402
from render import to_png  # noqa: E402
from render.constructo import render_board  # noqa: E402

GUILD = 10


class Hops:
    """Counts calls handed to a thread (``Thread``-based executors and aiosqlite's queue) or statements sent to
    PostgreSQL, by wrapping the entry points (no change to what they do)."""

    def __init__(self) -> None:
        self.count = 0

    def install(self) -> None:
        import concurrent.futures.thread as cft

        import aiosqlite.core as aio

        hops = self
        submit = cft.ThreadPoolExecutor.submit

        def counted_submit(self: Any, *args: Any, **kwargs: Any) -> Any:
            hops.count += 1
            return submit(self, *args, **kwargs)

        cft.ThreadPoolExecutor.submit = counted_submit  # type: ignore[method-assign]
        original = aio.Connection._execute

        async def counted_execute(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            hops.count += 1
            return await original(self, fn, *args, **kwargs)

        aio.Connection._execute = counted_execute  # type: ignore[method-assign]
        get_statement = asyncpg.connection.Connection._get_statement
        execute = asyncpg.connection.Connection.execute

        async def counted_statement(self: Any, *args: Any, **kwargs: Any) -> Any:
            hops.count += 1
            return await get_statement(self, *args, **kwargs)

        async def counted_simple(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
            if not args:  # the simple-query protocol (BEGIN, COMMIT, the pool's reset): one round trip each
                hops.count += 1
            return await execute(self, query, *args, **kwargs)

        asyncpg.connection.Connection._get_statement = counted_statement  # type: ignore[method-assign]
        asyncpg.connection.Connection.execute = counted_simple  # type: ignore[method-assign]


HOPS = Hops()
HOPS.install()


async def placements(storage: Storage, n: int) -> tuple[float, float]:
    """(CPU ms per placement, hops per placement) over ``n`` placements spread over 10 games."""
    games = []
    for i in range(10):
        match = Match.new("rombo")
        gid = await storage.create_game("constructo", GUILD, 1000 + i, {"engine": match.to_dict()}, [1, 2], "active")
        await storage.set_messages(gid, {"board": 1, "board.version": 0})
        games.append([gid, match, 0, 1000 + i])
    hops0, cpu0 = HOPS.count, time.process_time()
    for k in range(n):
        game = games[k % len(games)]
        gid, match, version, channel = game
        if match.current_round.is_over or not match.current_round.legal_moves():
            match = game[1] = Match.new("rombo")
        await storage.active_game_in_channel(channel, state=False)
        await storage.get_game(gid)
        move = match.current_round.legal_moves()[0]
        match.play(move, player=match.current_player)
        version = await storage.apply_action(
            gid, version, {"engine": match.to_dict()}, player=1, action=str(move), owed=[Owed("board", delay_s=2.0)]
        )
        await storage.get_game(gid, state=False)
        await storage.set_messages(gid, {"board": 100 + k, "board.version": version}, done=[("board", version)])
        game[2] = version
    return 1000 * (time.process_time() - cpu0) / n, (HOPS.count - hops0) / n


async def storage_part(kind: str, n: int) -> tuple[float, float]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            storage = await Storage.open(Path(tmp) / "bench.sqlite3")
            try:
                return await placements(storage, n)
            finally:
                await storage.close()
    from tests.storage.conftest import create_schema, drop_schema, with_schema

    schema = await create_schema(ARGS.pg)
    try:
        storage = await Storage.open(with_schema(ARGS.pg, schema))
        try:
            return await placements(storage, n)
        finally:
            await storage.close()
    finally:
        await drop_schema(ARGS.pg, schema)


def picture_part(n: int) -> tuple[float, float, float, int]:
    """(CPU ms of render_board + to_png, of render_board alone, of to_png alone, PNG bytes) per board."""
    match = Match.new("rombo")
    for _ in range(5):
        match.apply(match.legal_actions(match.current_player)[0])
    names = ("Alice", "Bob")
    png = to_png(render_board(match, names=names))  # warm-up: fonts, the palette, the long lines' masks
    t0 = time.process_time()
    for _ in range(n):
        png = to_png(render_board(match, names=names))
    t1 = time.process_time()
    img = render_board(match, names=names)
    for _ in range(n):
        render_board(match, names=names)
    t2 = time.process_time()
    for _ in range(n):
        to_png(img)
    t3 = time.process_time()
    return 1000 * (t1 - t0) / n, 1000 * (t2 - t1) / n, 1000 * (t3 - t2) / n, len(png)


def best_of(runs: list[tuple[float, ...]]) -> tuple[float, ...]:
    """The smallest of each figure over the runs: on a shared machine, the run least disturbed by other jobs."""
    return tuple(min(r[i] for r in runs) for i in range(len(runs[0])))


def load_average() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip().split("load average:")[-1]


async def main() -> None:
    load = load_average()
    print(f"code: {ARGS.root.resolve()}; load average {load.strip()}; best of {ARGS.runs} runs of {ARGS.n}")
    print("| part | CPU ms per placement | hand-offs or round trips per placement |")
    print("|---|---:|---:|")
    kinds = ["sqlite"] if ARGS.no_pg else ["sqlite", "postgresql"]
    for kind in kinds:
        cpu, hops = best_of([await storage_part(kind, ARGS.n) for _ in range(ARGS.runs)])
        unit = "thread hops" if kind == "sqlite" else "statements"
        print(f"| storage, {kind} | {cpu:.2f} | {hops:.1f} {unit} |")
    both, draw, png, size = best_of([picture_part(max(20, ARGS.n // 5)) for _ in range(ARGS.runs)])
    print(f"| picture: render_board + to_png ({size / 1024:.0f} KB) | {both:.2f} | - |")
    print(f"| picture: render_board | {draw:.2f} | - |")
    print(f"| picture: to_png | {png:.2f} | - |")


if __name__ == "__main__":
    asyncio.run(main())
