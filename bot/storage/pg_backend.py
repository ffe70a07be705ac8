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
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from .backend import POSTGRESQL, Backend, Params, Row, UniqueViolation, redact_url
from .errors import DatabaseUnavailableError, StorageError
from .migrate import migrate_postgres

T = TypeVar("T")
log = logging.getLogger(__name__)
RETRIES = 3
CLOSE_HANDSHAKE_S = 1.0
"""How long a closing connection waits for the server to hang up after its ``Terminate`` (nothing is in flight)."""
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
        self._busy = 0
        self._idle = asyncio.Event()
        """Set while no write transaction or snapshot holds a connection (:meth:`close` waits for it)."""
        self._idle.set()

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
                async with self._holding(), self.pool.acquire() as conn, conn.transaction():
                    return await body(_PgTx(conn))
            except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
                if attempt == RETRIES - 1:
                    raise StorageError(
                        "the database kept refusing a concurrent write; try again in a moment", rule="Busy"
                    ) from exc
                await asyncio.sleep(0.02 * (attempt + 1))
        raise AssertionError("unreachable")

    @contextlib.asynccontextmanager
    async def _holding(self) -> AsyncIterator[None]:
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def transaction(self, body: Callable[[Any], Awaitable[T]]) -> T:
        return await asyncio.shield(self._run(body))

    async def snapshot(self, queries: Sequence[str]) -> list[list[Row]]:
        async with (
            self._holding(),
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return [list(await conn.fetch(to_dollar(q))) for q in queries]

    async def close(self) -> None:
        """Wait until every connection is released (transactions finish; the caller bounds the wait), then close
        the pool: each connection sends PostgreSQL its goodbye (``Terminate``) and waits at most
        :data:`CLOSE_HANDSHAKE_S` for the server to hang up, then is dropped. A peer that never hangs up (a proxy
        or load balancer that does not pass the server's close on, a network gone silent) otherwise held
        ``pool.close()`` until the stop's deadline (8 s, "storage did not close"), with nothing left to save."""
        if self._closed:
            return
        self._closed = True
        pool = self.pool
        await self._idle.wait()  # every write transaction and snapshot has ended
        try:
            await asyncio.wait_for(pool.close(), CLOSE_HANDSHAKE_S)  # on a timeout asyncpg terminates the pool
        except TimeoutError:
            pool.terminate()
            log.info("PostgreSQL did not hang up within %.1f s of the goodbye; connections dropped", CLOSE_HANDSHAKE_S)
