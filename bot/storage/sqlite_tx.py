"""SQLite write transactions in one thread hop (the CPU of a placement, issue 22 "Under load").

Through aiosqlite every statement of a transaction is a hand-off to the connection's thread and back (a queue put,
a thread wake-up, a ``call_soon_threadsafe``): a placement's two write transactions (the action, the board's
recording) took about ten of them. Here the whole transaction runs in the thread of :class:`TxThread` at once:
``BEGIN IMMEDIATE``, the body, ``COMMIT`` (or ``ROLLBACK``), one hop in all.

A body is an ``async`` function of its :class:`~bot.storage.backend.Tx` (shared with PostgreSQL, where every
statement is awaited); it awaits nothing but its ``Tx`` (bodies are re-runnable, PostgreSQL re-runs them after a
deadlock). :class:`SyncTx` runs each statement when awaited, without ever suspending, so :func:`drive` completes the
body's coroutine without an event loop. A body that does suspend (awaits anything else) is rolled back and
:class:`Suspended` raised: the backend then runs it the statement-by-statement way.

**Group commit** (:meth:`TxThread.run_batch`): the bodies queued while the previous transaction was running go in one
transaction, each in a ``SAVEPOINT`` of its own, with one ``COMMIT`` (one fsync of the WAL under
``synchronous=FULL``) for all of them. A body that raises is rolled back to its savepoint alone and gets its own
exception; the others are unaffected, in the order they were queued, exactly as if each had been its own transaction.
If the ``COMMIT`` (or the ``BEGIN``) fails, or SQLite itself abandons the transaction (disk full, I/O error), nothing
of the batch is written and every body gets that error. At 300 games one writer queued the fsyncs of ~70 placements
a second: write transactions averaged 40 ms (BENCHMARKS, "CPU per placement, third round").
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .backend import Params, Row, UniqueViolation
from .errors import StorageError

T = TypeVar("T")
BEGIN_TRIES = 3
"""``BEGIN IMMEDIATE`` attempts (each waiting ``busy_timeout``) before :class:`StorageError` ``Busy``."""
BATCH_MAX = 64
"""Bodies committed together at most (:meth:`TxThread.run_batch`'s callers take this many from their queue)."""
Outcome = tuple[bool, Any]
"""``(True, the body's return value)`` or ``(False, the exception it raised)``."""


class Suspended(Exception):
    """The transaction body awaited something other than its ``Tx``: it cannot run in one hop (rolled back)."""


class SyncTx:
    """``Tx`` over a ``sqlite3`` connection inside ``BEGIN IMMEDIATE``, in that connection's thread: each call runs
    its statement at once (its coroutine never suspends). Errors as the aiosqlite ``Tx``: a UNIQUE violation of
    ``execute``/``executemany`` is :class:`UniqueViolation`, anything else SQLite's own exception."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(self._conn.execute(sql, params).fetchall())

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        rows = self._conn.execute(sql, params).fetchall()
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> None:
        try:
            self._conn.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        try:
            self._conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise


_NEEDS_LOOP = ("no running event loop", "no current event loop", "bound to a different event loop")
"""What asyncio raises when a coroutine asks for the event loop in a thread without one (``asyncio.sleep(delay)``,
``asyncio.to_thread``, ``wait_for``, ``gather``, a lock or event of the bot's loop...)."""


def _needed_a_loop(exc: BaseException) -> bool:
    """``exc`` is asyncio's refusal to run without an event loop (in a thread with none running), not the body's
    own error: the body was about to suspend."""
    if asyncio.events._get_running_loop() is not None:
        return False
    if isinstance(exc, RuntimeError):
        return any(words in str(exc) for words in _NEEDS_LOOP)
    # an asyncio.Event/Lock never used yet binds itself to "the running loop", None here, then calls its methods
    return isinstance(exc, AttributeError) and "'NoneType' object has no attribute 'create_future'" in str(exc)


def drive(awaitable: Awaitable[T]) -> T:
    """Run ``awaitable`` to its end without an event loop; raises :class:`Suspended` (after closing it) when it
    suspends, i.e. awaits something that is not done at once, or asks for the event loop (which this thread does
    not have: ``asyncio.sleep(0.1)``, ``asyncio.to_thread``... would suspend on the bot's loop)."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    except (RuntimeError, AttributeError) as exc:
        if _needed_a_loop(exc):
            raise Suspended("the transaction body awaited something that needs the event loop") from exc
        raise
    steps.close()
    raise Suspended("the transaction body awaited something other than its Tx")


class TxThread:
    """One ``sqlite3`` connection of the database at ``path`` and the one thread that uses it, for write
    transactions (:meth:`run`). Same settings as the backend's writer: ``busy_timeout``, ``synchronous``, foreign
    keys on (the file is already in WAL mode and migrated when this opens). ``before_commit``: see its attribute."""

    def __init__(
        self, path: Path, busy_ms: int, synchronous: str, before_commit: Callable[[], None] | None = None
    ) -> None:
        self.path = path
        self.before_commit = before_commit
        """Called in the thread just before each ``COMMIT`` (the e2e fault seam, ``faults.StorageStall.at_commit``;
        ``None`` in production): what it raises fails the transaction as a failed ``COMMIT`` does."""
        self.busy_ms = busy_ms
        self.synchronous = synchronous
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-tx")
        self._conn: sqlite3.Connection | None = None

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def open(self) -> None:
        """Connect (in the thread). Raises ``sqlite3.Error``."""
        await self._call(self._connect)

    def _connect(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_ms / 1000, check_same_thread=False)
        try:
            # PRAGMAs take no bound parameters: values here are validated constants/ints (as the writer's).
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_ms)}")
            conn.execute(f"PRAGMA synchronous = {self.synchronous}")
            conn.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    async def run(self, body: Callable[[Any], Awaitable[T]]) -> T:
        """``body(tx)`` in one transaction, committed if it returns, rolled back if it raises, in one hop.
        Raises what the body raises, :class:`Suspended` (rolled back), ``StorageError`` ``Busy`` (the database
        stayed locked by another process), ``sqlite3.Error``. The caller serialises calls (the writer's lock)."""
        return await self._call(self._transact, body)

    def _begin(self, conn: sqlite3.Connection) -> None:
        for attempt in range(BEGIN_TRIES):
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == BEGIN_TRIES - 1:
                    raise StorageError(
                        "the database stayed busy (locked by another process); try again in a moment", rule="Busy"
                    ) from exc
                time.sleep(0.1 * (attempt + 1))  # this thread only: every write waits for it anyway

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The connection inside ``BEGIN IMMEDIATE``: committed when the block ends, rolled back (if SQLite has not
        done so already) when it raises. Raises ``StorageError`` ``Closed``/``Busy``, ``sqlite3.Error``."""
        conn = self._conn
        if conn is None:
            raise StorageError("storage is closed", rule="Closed")
        self._begin(conn)
        try:
            yield conn
            if self.before_commit is not None:
                self.before_commit()
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.OperationalError):
                    conn.execute("ROLLBACK")
            raise

    def _transact(self, body: Callable[[Any], Awaitable[T]]) -> T:
        with self._transaction() as conn:
            return drive(body(SyncTx(conn)))

    async def run_batch(self, bodies: Sequence[Callable[[Any], Awaitable[Any]]]) -> list[Outcome]:
        """Each of ``bodies`` in its own savepoint of one transaction, in order, with one ``COMMIT``, in one hop
        (module docstring, "Group commit"). Returns one :data:`Outcome` per body: a body that raised (its
        ``Suspended`` included, or a ``BaseException`` such as ``CancelledError``: it is that body's outcome alone,
        never the others') was rolled back alone. Raises (nothing of the batch written) what ``BEGIN`` or
        ``COMMIT`` raised, or what a body raised when SQLite abandoned the whole transaction on it (``sqlite3.Error``,
        ``StorageError`` ``Busy``/``Closed``). The caller serialises calls (the writer's lock)."""
        if len(bodies) == 1:
            return [await self._call(self._transact_alone, bodies[0])]
        return await self._call(self._transact_batch, list(bodies))

    def _transact_alone(self, body: Callable[[Any], Awaitable[Any]]) -> Outcome:
        try:
            return (True, self._transact(body))
        except BaseException as exc:  # one body alone: its error and its transaction's are the same
            return (False, exc)

    def _transact_batch(self, bodies: list[Callable[[Any], Awaitable[Any]]]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        with self._transaction() as conn:
            for body in bodies:
                conn.execute("SAVEPOINT body")
                try:
                    out = drive(body(SyncTx(conn)))
                except BaseException as exc:  # its own outcome, whatever it raised (CancelledError, SystemExit...)
                    if not conn.in_transaction:
                        raise  # SQLite rolled the whole transaction back (disk full, I/O error): the batch fails
                    conn.execute("ROLLBACK TO body")
                    conn.execute("RELEASE body")
                    outcomes.append((False, exc))
                    continue
                conn.execute("RELEASE body")
                outcomes.append((True, out))
        return outcomes

    async def close(self) -> None:
        """Close the connection and stop the thread (safe to call twice)."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                await self._call(conn.close)
        self._pool.shutdown(wait=True)
