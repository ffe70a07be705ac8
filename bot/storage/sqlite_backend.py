"""The embedded backend: one SQLite file through aiosqlite (the default, no setting needed).

Connection model: one **writer** connection, whose transactions are serialised by an
``asyncio.Lock`` and opened with ``BEGIN IMMEDIATE`` (so the write lock is taken up front and a
busy database makes us wait, via ``busy_timeout``, instead of failing half-way), and one
**reader** connection (``query_only``) that sees committed data only. WAL journal, foreign keys on,
``synchronous=FULL`` by default (a committed action survives a crash or power loss). Every read is
one statement, hence one consistent snapshot. Write transactions run in one hop on a third connection with a
thread of its own (``sqlite_tx.TxThread``: ``BEGIN IMMEDIATE``, the body, ``COMMIT`` at once), under the same lock
as the writer, which keeps migrations, snapshots, checkpoints and the bodies that cannot run in one hop. One
process per file (``sqlite_guard.ProcessLock``); the file is checked before it is opened
(``sqlite_guard.preflight``). ``close()`` checkpoints with ``PRAGMA wal_checkpoint(TRUNCATE)`` so the main file alone
holds everything afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import sqlite_guard as guard
from .backend import SQLITE, Backend, Params, Row, UniqueViolation
from .errors import CorruptDatabaseError, InvalidDataError, StorageError
from .faults import StorageStall
from .migrate import migrate
from .sqlite_tx import BATCH_MAX, Suspended, TxThread

T = TypeVar("T")
log = logging.getLogger(__name__)


class _SqliteTx:
    """``Tx`` over the writer connection (inside ``BEGIN IMMEDIATE``)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> None:
        try:
            await self._conn.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        try:
            await self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise


class SqliteBackend(Backend):
    """One SQLite file (see the module docstring). Open with ``await SqliteBackend.open(path)``."""

    sql = SQLITE

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        schema: int,
        lock: Any,
        tx: TxThread | None = None,
    ) -> None:
        self.path = path
        self._tx = tx
        self.description = str(path)
        self.schema_version = schema
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._queued: list[tuple[Callable[[Any], Awaitable[Any]], asyncio.Future[Any]]] = []
        self._process_lock = lock
        self._closed = False
        self.installation: str | None = None

    @classmethod
    async def open(cls, path: Path, *, busy_timeout_ms: int = 5000, synchronous: str = "FULL") -> SqliteBackend:
        """Lock, check, open (creating if needed) and migrate the database at ``path``.

        Raises ``DatabaseLockedError`` (another process has it), ``CorruptDatabaseError``,
        ``DatabaseMismatchError`` (see ``sqlite_guard``), ``SchemaTooNewError``, ``NotOurDatabaseError``,
        ``InvalidDataError`` for a bad ``synchronous``, ``OSError`` if the directory cannot be created."""
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise InvalidDataError(f"unknown synchronous mode {synchronous!r}", field="synchronous")
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = guard.ProcessLock(path)
        try:
            await asyncio.to_thread(guard.preflight, path)
            for attempt in range(5):
                try:
                    writer, reader, schema = await _connect(path, int(busy_timeout_ms), synchronous)
                    break
                except sqlite3.OperationalError as exc:
                    # Another connection of this process is creating or migrating the file (changing the
                    # journal mode does not wait for busy_timeout): try again shortly.
                    if ("locked" not in str(exc) and "busy" not in str(exc)) or attempt == 4:
                        raise
                    await asyncio.sleep(0.05 * (attempt + 1))
        except sqlite3.DatabaseError as exc:
            lock.release()
            if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
                raise StorageError(f"{path} stayed locked while opening it: {exc}", rule="Busy") from exc
            raise CorruptDatabaseError(f"{path} cannot be used: {exc}", path=str(path)) from exc
        except BaseException:
            lock.release()
            raise
        stall = StorageStall.from_env()  # the e2e fault seam inside the backend (None in production)
        tx = TxThread(path, int(busy_timeout_ms), synchronous, stall.at_commit if stall is not None else None)
        try:
            await tx.open()
        except BaseException as exc:
            await tx.close()
            await _close_quietly(writer, reader)
            lock.release()
            if isinstance(exc, sqlite3.DatabaseError):
                raise CorruptDatabaseError(f"{path} cannot be used: {exc}", path=str(path)) from exc
            raise
        return cls(path, writer, reader, schema, lock, tx)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        # One call on the reader thread (execute + fetchall): a statement left open across awaits would
        # pin the reader's WAL snapshot, and a read interleaved with it would miss a write just committed.
        return list(await self._reader.execute_fetchall(sql, params))

    async def _begin(self) -> None:
        for attempt in range(3):
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == 2:
                    raise StorageError(
                        "the database stayed busy (locked by another process); try again in a moment", rule="Busy"
                    ) from exc
                await asyncio.sleep(0.1 * (attempt + 1))

    async def _run(self, body: Callable[[Any], Awaitable[T]]) -> T:
        if self._tx is not None:
            try:
                return await self._grouped(body)
            except Suspended:
                log.debug("a transaction body suspended; running it statement by statement")
        async with self._lock:
            if self._closed:
                raise StorageError("storage is closed", rule="Closed")
            return await self._statements(body)

    async def _grouped(self, body: Callable[[Any], Awaitable[T]]) -> T:
        """``body`` committed in one hop, together with the bodies queued beside it (group commit,
        ``sqlite_tx.TxThread.run_batch``): whoever gets the writer's lock first commits everything queued then,
        up to ``BATCH_MAX``; the others find their outcome waiting. Raises what the body raised, ``Suspended``, or
        the batch's error (nothing of it written)."""
        assert self._tx is not None
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append((body, done))
        async with self._lock:
            while not done.done():
                batch, self._queued = self._queued[:BATCH_MAX], self._queued[BATCH_MAX:]
                try:
                    if self._closed:
                        raise StorageError("storage is closed", rule="Closed")
                    outcomes = await self._tx.run_batch([b for b, _ in batch])
                except BaseException as exc:
                    task = asyncio.current_task()
                    if isinstance(exc, asyncio.CancelledError) and task is not None and task.cancelling():
                        for _, fut in batch:  # this task is cancelled (the loop is closing): the batch's fate is
                            fut.cancel()  # unknown, not an error
                        raise
                    for _, fut in batch:  # the batch's own error (even a BaseException a body raised as SQLite
                        fut.set_exception(exc)  # abandoned the transaction): every body gets it, none was written
                    continue
                for (_, fut), (ok, value) in zip(batch, outcomes, strict=True):
                    if ok:
                        fut.set_result(value)
                    else:
                        fut.set_exception(value)
        return done.result()  # type: ignore[no-any-return]

    async def _statements(self, body: Callable[[Any], Awaitable[T]]) -> T:
        """``body`` through the aiosqlite writer, one hop per statement (a body that awaits other things)."""
        await self._begin()
        try:
            out = await body(_SqliteTx(self._writer))
            if self._tx is not None and self._tx.before_commit is not None:
                self._tx.before_commit()
            await self._writer.execute("COMMIT")
            return out
        except BaseException:
            if self._writer.in_transaction:
                with contextlib.suppress(sqlite3.OperationalError):
                    await self._writer.execute("ROLLBACK")
            raise

    async def transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        # Shielded: if the caller is cancelled (interaction timed out...), the transaction still
        # runs to COMMIT or ROLLBACK; it is never abandoned half-way on the writer connection.
        return await asyncio.shield(self._run(body))

    async def snapshot(self, queries: Sequence[str]) -> list[list[Row]]:
        async with self._lock:
            await self._writer.execute("BEGIN")
            try:
                return [list(await self._writer.execute_fetchall(q)) for q in queries]
            finally:
                await self._writer.execute("COMMIT")

    async def checkpoint(self) -> tuple[int, int, int]:
        """``PRAGMA wal_checkpoint(TRUNCATE)``: copy the whole ``-wal`` into the main file and empty it.
        Returns SQLite's ``(busy, wal pages, checkpointed pages)``; ``busy == 0`` means complete."""
        async with self._lock:
            rows = list(await self._writer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
        busy, pages, done = rows[0]
        return int(busy), int(pages), int(done)

    async def after_commit_game(self, game_id: int) -> None:
        if self.installation:
            await asyncio.to_thread(guard.write_guard, self.path, self.installation, game_id)

    async def max_game_id(self) -> int:
        rows = await self.fetch("SELECT coalesce(max(id), 0) FROM games")
        return int(rows[0][0])

    async def close(self) -> None:
        """Wait for the write in progress, checkpoint (TRUNCATE), record the guard, close both
        connections and release the process lock. Safe to call twice."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            try:
                if self.installation:
                    top = await self.max_game_id()
                    await asyncio.to_thread(guard.write_guard, self.path, self.installation, top)
                if self._tx is not None:
                    await self._tx.close()
                await self._reader.close()
                rows = list(await self._writer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
                if rows and rows[0][0]:
                    log.warning("the final checkpoint of %s was incomplete (busy): %s", self.path, tuple(rows[0]))
            finally:
                await _close_quietly(self._writer, self._reader)
        finally:
            self._process_lock.release()


async def _connect(
    path: Path, busy_ms: int, synchronous: str
) -> tuple[aiosqlite.Connection, aiosqlite.Connection, int]:
    """The writer (WAL, foreign keys, migrated) and the reader (``query_only``) connections."""
    writer: aiosqlite.Connection | None = None
    reader: aiosqlite.Connection | None = None
    try:
        writer = await aiosqlite.connect(path, isolation_level=None, timeout=busy_ms / 1000)
        # PRAGMAs take no bound parameters: values here are validated constants/ints.
        await writer.execute(f"PRAGMA busy_timeout = {busy_ms}")
        await writer.execute("PRAGMA journal_mode = WAL")
        await writer.execute(f"PRAGMA synchronous = {synchronous}")
        await writer.execute("PRAGMA foreign_keys = ON")
        schema = await migrate(writer, str(path))
        reader = await aiosqlite.connect(path, isolation_level=None, timeout=busy_ms / 1000)
        await reader.execute(f"PRAGMA busy_timeout = {busy_ms}")
        await reader.execute("PRAGMA query_only = ON")
    except BaseException:
        await _close_quietly(writer, reader)
        raise
    return writer, reader, schema


async def _close_quietly(*conns: aiosqlite.Connection | None) -> None:
    for conn in conns:
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
