"""Connection plumbing of ``Storage`` (aiosqlite over one SQLite file).

Connection model: one **writer** connection, whose transactions are serialised by an
``asyncio.Lock`` and opened with ``BEGIN IMMEDIATE`` (so the write lock is taken up front and a
busy database makes us wait, via ``busy_timeout``, instead of failing half-way), and one
**reader** connection (``query_only``) that sees committed data only. WAL journal, foreign keys on,
``synchronous=FULL`` by default (a committed action survives a crash or power loss). Every
multi-row read is one SQL statement, hence one consistent snapshot. Parameters are always bound.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import aiosqlite

from .errors import (
    InvalidDataError,
    StorageError,
)
from .migrate import migrate
from .paths import default_db_path

T = TypeVar("T")


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


class Connection:
    """The two aiosqlite connections and the write-transaction plumbing shared by ``Storage``'s parts."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection, schema: int) -> None:
        self.path = path
        self.schema_version = schema
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._clock: Callable[[], float] = time.time

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, busy_timeout_ms: int = 5000, synchronous: str = "FULL"
    ) -> Self:
        """Open (creating if needed) the database at ``path`` (default ``default_db_path()``) and
        apply pending migrations.

        Raises ``SchemaTooNewError`` if the file comes from a newer bot, ``NotOurDatabaseError`` if it
        belongs to another program, ``OSError``/``sqlite3.DatabaseError`` if it cannot be opened."""
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise InvalidDataError(f"unknown synchronous mode {synchronous!r}", field="synchronous")
        db = Path(path) if path is not None else default_db_path()
        db.parent.mkdir(parents=True, exist_ok=True)
        timeout = int(busy_timeout_ms)
        writer = await aiosqlite.connect(db, isolation_level=None, timeout=timeout / 1000)
        reader: aiosqlite.Connection | None = None
        try:
            # PRAGMAs take no bound parameters: values here are validated constants/ints.
            await writer.execute(f"PRAGMA busy_timeout = {timeout}")
            await writer.execute("PRAGMA journal_mode = WAL")
            await writer.execute(f"PRAGMA synchronous = {synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            schema = await migrate(writer, str(db))
            reader = await aiosqlite.connect(db, isolation_level=None, timeout=timeout / 1000)
            await reader.execute(f"PRAGMA busy_timeout = {timeout}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(db, writer, reader, schema)

    async def close(self) -> None:
        """Wait for the write in progress, then close both connections."""
        async with self._lock:
            await self._reader.close()
            await self._writer.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing
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

    async def _transaction(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        async with self._lock:
            await self._begin()
            try:
                out = await body(self._writer)
                await self._writer.execute("COMMIT")
                return out
            except BaseException:
                if self._writer.in_transaction:
                    try:
                        await self._writer.execute("ROLLBACK")
                    except sqlite3.OperationalError:
                        pass
                raise

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        # Shielded: if the caller is cancelled (interaction timed out...), the transaction still
        # runs to COMMIT or ROLLBACK; it is never abandoned half-way on the writer connection.
        return await asyncio.shield(self._transaction(body))

    # Each read runs to completion in ONE call on the reader thread (execute + fetchall): a statement left open
    # across awaits would pin the reader's WAL snapshot, and a read interleaved with it would miss a write just
    # committed on the writer connection (stale record right after apply_action/create_game).
    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = list(await self._reader.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(await self._reader.execute_fetchall(sql, params))
