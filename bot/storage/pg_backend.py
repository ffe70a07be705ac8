"""The shared backend: PostgreSQL through an asyncpg connection pool (``DATABASE_URL=postgresql://...``).

Several bot processes (shards) can share one database. Reads go to the pool (``pool.fetch``: one
statement, one snapshot). A write transaction takes one pooled connection for its duration
(``async with conn.transaction()``, READ COMMITTED); rows are locked where the outcome depends on
what was read (``SELECT ... FOR UPDATE`` of the game for a version check, of the ratings before a
rating update), so concurrent processes serialise exactly where they must and nowhere else. A
deadlock or serialisation failure (possible between processes) re-runs the whole transaction, up to
three times. The SQL is the shared one with ``?`` placeholders, rewritten here to ``$1, $2...``.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from .backend import POSTGRESQL, Backend, Params, Row, UniqueViolation, redact_url
from .errors import DatabaseUnavailableError, StorageError
from .migrate import migrate_postgres

T = TypeVar("T")
RETRIES = 3
_PLACEHOLDER = re.compile(r"\?")


@functools.lru_cache(maxsize=512)
def to_dollar(sql: str) -> str:
    """Rewrite ``?`` placeholders to ``$1, $2, ...`` (our SQL has no ``?`` inside string literals)."""
    counter = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _m: f"${next(counter)}", sql)


async def keep_session(_conn: asyncpg.Connection) -> None:
    """The pool's reset of a released connection: nothing more than asyncpg's own (an open transaction rolled back).

    asyncpg's default sends ``SELECT pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`` on every release,
    i.e. one more round trip after every read and every transaction (5 of a placement's ~22), for session state
    this backend never makes: its SQL sets no setting, holds no cursor, listens to nothing and takes no
    session-level advisory lock (migrations take transaction-level ones; the shard lease has a connection of its
    own, ``bot/lease.py``)."""


class _PgTx:
    """``Tx`` over one pooled connection inside ``conn.transaction()``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(to_dollar(sql), *params))

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._conn.fetchrow(to_dollar(sql), *params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> None:
        try:
            await self._conn.execute(to_dollar(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc), exc.constraint_name) from exc

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if not rows:
            return
        try:
            await self._conn.executemany(to_dollar(sql), [tuple(r) for r in rows])
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc), exc.constraint_name) from exc


class PostgresBackend(Backend):
    """A PostgreSQL database (see the module docstring). Open with ``await PostgresBackend.open(url)``."""

    sql = POSTGRESQL

    def __init__(self, url: str, pool: asyncpg.Pool, schema: int) -> None:
        self.url = url
        self.description = redact_url(url)
        self.schema_version = schema
        self.pool = pool
        self._closed = False

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, connect_timeout_s: float = 10.0
    ) -> PostgresBackend:
        """Connect a pool to ``url`` and migrate the schema (the URL's ``search_path`` if given).

        Raises ``DatabaseUnavailableError`` when the server does not answer or refuses the connection,
        ``SchemaTooNewError``, ``NotOurDatabaseError``."""
        where = redact_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                timeout=connect_timeout_s,
                command_timeout=60,
                reset=keep_session,
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseUnavailableError(
                f"cannot connect to PostgreSQL at {where}: {type(exc).__name__}: {str(exc) or 'no answer'}",
                url=where,
            ) from exc
        try:
            async with pool.acquire() as conn:
                schema = await migrate_postgres(conn, where)
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool, schema)

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.pool.fetch(to_dollar(sql), *params))

    async def _run(self, body: Callable[[Any], Awaitable[T]]) -> T:
        if self._closed:
            raise StorageError("storage is closed", rule="Closed")
        for attempt in range(RETRIES):
            try:
                async with self.pool.acquire() as conn, conn.transaction():
                    return await body(_PgTx(conn))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
                if attempt == RETRIES - 1:
                    raise StorageError(
                        "the database kept refusing a concurrent write; try again in a moment", rule="Busy"
                    ) from exc
                await asyncio.sleep(0.02 * (attempt + 1))
        raise AssertionError("unreachable")

    async def transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        return await asyncio.shield(self._run(body))

    async def snapshot(self, queries: Sequence[str]) -> list[list[Row]]:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return [list(await conn.fetch(to_dollar(q))) for q in queries]

    async def close(self) -> None:
        """Wait until every connection is released (transactions finish), then close the pool."""
        if self._closed:
            return
        self._closed = True
        await self.pool.close()
