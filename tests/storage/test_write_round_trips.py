"""Write transactions cost as few hand-offs as they can (issue 22, CPU per placement): SQLite runs a whole
transaction in one hop of its transaction thread (``bot/storage/sqlite_tx.py``), PostgreSQL's pool sends no reset
query after a release (``pg_backend.keep_session``). Behaviour stays that of a transaction: all or nothing,
UNIQUE violations as ``UniqueViolation``, a body that awaits anything else still committed exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage
from bot.storage.backend import UniqueViolation
from bot.storage.sqlite_tx import Suspended, SyncTx, TxThread, drive

GUILD, CHANNEL, ALICE, BOB = 10, 20, 1, 2


async def _count(storage: Storage, sql: str, *params: Any) -> int:
    row = await storage._one(sql, params)
    return int(row[0])


async def test_a_placement_sized_transaction_is_one_hop_on_sqlite(db_path: Path) -> None:
    """``apply_action`` and ``set_messages`` (a placement's two writes) each run as one call of the transaction
    thread, and none of their statements goes through the aiosqlite writer."""
    storage = await Storage.open(db_path)
    try:
        backend: Any = storage.backend
        hops: list[str] = []
        real_transact = backend._tx._transact
        real_execute = backend._writer.execute

        def transact(body: Any) -> Any:
            hops.append("tx")
            return real_transact(body)

        async def writer_execute(*args: Any, **kwargs: Any) -> Any:
            hops.append("writer")
            return await real_execute(*args, **kwargs)

        backend._tx._transact = transact
        backend._writer.execute = writer_execute
        game = await storage.create_game("constructo", GUILD, CHANNEL, {"n": 0}, [ALICE, BOB], status="active")
        version = await storage.apply_action(game, 0, {"n": 1}, player=ALICE, action="S5")
        await storage.set_messages(game, {"board": 555, "board.version": version})
        assert hops == ["tx", "tx", "tx"]
        record = await storage.get_game(game)
        assert record is not None and record.version == 1 and record.state == {"n": 1}
        assert record.messages == {"board": 555, "board.version": 1}
    finally:
        await storage.close()


async def test_a_failing_body_writes_nothing_and_unique_violations_keep_their_type(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        game = await storage.create_game("constructo", GUILD, CHANNEL, {"n": 0}, [ALICE, BOB], status="active")

        async def half_then_fail(tx: Any) -> None:
            await tx.execute("UPDATE games SET version = 7 WHERE id = ?", (game,))
            await tx.execute(
                "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)", (game, 0, ALICE)
            )  # seat 0 is taken: UNIQUE

        with pytest.raises(UniqueViolation):
            await storage._write(half_then_fail)
        assert await _count(storage, "SELECT version FROM games WHERE id = ?", game) == 0, "rolled back"
        # the connection is usable afterwards (no transaction left open)
        assert await storage.apply_action(game, 0, {"n": 1}, player=ALICE, action="S5") == 1
    finally:
        await storage.close()


@pytest.mark.parametrize("elsewhere", ["sleep0", "sleep", "to_thread", "event"])
async def test_a_body_that_suspends_or_needs_the_event_loop_is_committed_once_the_slow_way(
    db_path: Path, elsewhere: str
) -> None:
    """A body that suspends (``asyncio.sleep(0)``: not its Tx) cannot run in one hop: its first run is rolled back
    and it runs statement by statement on the writer (bodies are re-runnable): one row, not two.
    ``asyncio.sleep(0.01)``, ``asyncio.to_thread`` or an ``asyncio.Event`` ask for the running loop before they
    suspend; the transaction thread has none. That is a suspension too, not a ``RuntimeError: no running event
    loop`` for the player's action."""
    storage = await Storage.open(db_path)
    try:
        game = await storage.create_game("constructo", GUILD, CHANNEL, {"n": 0}, [ALICE, BOB], status="active")
        runs = []
        ready = asyncio.Event()

        async def body(tx: Any) -> int:
            runs.append(1)
            await tx.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, 1, ?, 'x', 0)", (game, ALICE)
            )
            if elsewhere == "sleep0":
                await asyncio.sleep(0)  # not the Tx: suspends
            elif elsewhere == "sleep":
                await asyncio.sleep(0.001)
            elif elsewhere == "to_thread":
                await asyncio.to_thread(len, "abc")
            else:  # an Event never waited on yet: in the thread it finds no loop to make its future with
                if len(runs) > 1:
                    ready.set()
                await ready.wait()
            row = await tx.fetchrow("SELECT count(*) FROM actions WHERE game_id = ?", (game,))
            return int(row[0])

        assert await storage._write(body) == 1
        assert len(runs) == 2, "tried in one hop, then the slow way"
        assert await _count(storage, "SELECT count(*) FROM actions WHERE game_id = ?", game) == 1
    finally:
        await storage.close()


def test_drive_runs_a_coroutine_that_never_suspends_and_refuses_one_that_does(tmp_path: Path) -> None:
    import sqlite3

    conn = sqlite3.connect(tmp_path / "x.sqlite3", isolation_level=None)
    conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")

    async def quick(tx: SyncTx) -> int:
        await tx.execute("INSERT INTO t (k) VALUES (1)")
        row = await tx.fetchrow("SELECT count(*) FROM t")
        return int(row[0]) if row else -1

    async def slow() -> None:
        await asyncio.sleep(0)

    assert drive(quick(SyncTx(conn))) == 1
    with pytest.raises(Suspended):
        drive(slow())
    conn.close()


async def test_the_transaction_thread_refuses_after_close(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.close()
    thread = TxThread(db_path, 1000, "FULL")
    await thread.open()
    await thread.close()
    await thread.close()  # twice is fine
    with pytest.raises(RuntimeError):  # the executor is shut down
        await thread.run(lambda tx: tx.execute("SELECT 1"))


async def test_postgres_pool_sends_no_reset_query_on_release(pg_url: str) -> None:
    """A read is one round trip: no ``RESET ALL``/``UNLISTEN``/``pg_advisory_unlock_all`` query after it (asyncpg's
    default reset), and a connection released inside a transaction is still rolled back before its reuse."""
    storage = await Storage.open(pg_url)
    try:
        backend: Any = storage.backend
        sent: list[str] = []

        def logger(record: Any) -> None:
            sent.append(record.query)

        async with backend.pool.acquire() as conn:
            conn.add_query_logger(logger)
            await conn.fetch("SELECT 1")
            watched = conn._con  # the connection itself (the proxy is invalid after release)
        assert sent == ["SELECT 1"], sent
        watched.remove_query_logger(logger)
        async with backend.pool.acquire() as conn:
            tx = conn.transaction()
            await tx.start()
            await conn.execute("CREATE TEMP TABLE probe (k int)")
        async with backend.pool.acquire() as conn:
            assert not conn.is_in_transaction()
        game = await storage.create_game("constructo", GUILD, CHANNEL, {"n": 0}, [ALICE, BOB], status="active")
        assert await storage.apply_action(game, 0, {"n": 1}, player=ALICE, action="S5") == 1
    finally:
        await storage.close()
