"""One process per shard on PostgreSQL: a lease of session-level advisory locks (issue 20, item 3).

Several ``python -m bot`` processes may share one PostgreSQL installation; each Discord shard must be
served (gateway connected, background work: timers, AI seats, board recovery) by **exactly one** of them
at a time. Before it contacts Discord, a process on PostgreSQL takes a :class:`ShardLease`:

- **Keys.** ``pg_try_advisory_lock(namespace, shard)`` on a dedicated connection (not the storage pool)
  held for the life of the process. ``namespace`` (:func:`namespace_of`) is derived from the
  installation's identity (meta ``storage.installation_id``), so two installations in two schemas of one
  database never collide, while every process of one installation meets on the same keys however its URL
  is spelled. A sharded process (``SHARD_COUNT``/``SHARD_IDS``) takes ``(namespace, shard_id)``
  exclusively for each of its shards **and** ``(namespace, ALL_SHARDS)`` shared; an unsharded process
  serves every shard and takes ``(namespace, ALL_SHARDS)`` exclusively: two unsharded processes, or one
  unsharded and one sharded, never serve at once. A sharded process also holds its ``SHARD_COUNT`` (shared,
  under :func:`count_namespace`) and does not serve while a process with another count holds one: shards
  of two counts cover overlapping sets of guilds (a resharding half done). All of a process's keys are
  taken together or not at all (a partial hold is released), so two processes with overlapping shard sets
  cannot block each other.
- **Standby.** A process that cannot take every key waits: it logs ``standby for shards ...`` once,
  tries again every :data:`POLL_S` seconds (no request to Discord, no gateway session), and goes on to
  connect as soon as it holds them. PostgreSQL drops a session's locks when the session ends, so when
  the holder dies (SIGKILL, crash, machine lost) a standby takes over within about a second plus its
  start-up. A standby whose own connection breaks reconnects and keeps waiting. A standby is healthy: it
  touches the heartbeat file (``python -m bot healthcheck``) while the database answers its polls.
- **Holding.** While serving, :meth:`ShardLease.watch` checks the lease every :data:`CHECK_EVERY_S`
  seconds (its locks are still granted to its session, answered within :data:`CHECK_TIMEOUT_S`) and
  also hears at once when asyncpg sees the connection close. A lease it cannot confirm may already be
  another process's: the caller then stops serving at once (closes the gateway, cancels background work)
  and exits with ``ExitCode.LEASE_LOST`` ("restart me"; the restarted process waits as standby if the
  shards are taken). The session's TCP keepalives and user timeout are shortened (:data:`KEEPALIVE`), so
  PostgreSQL releases the locks of a holder cut off by the network (~11 s) only after the holder itself has
  stopped (at most :data:`CHECK_EVERY_S` + :data:`CHECK_TIMEOUT_S` = 5 s).

SQLite needs none of this: its file lock (``tablebot.sqlite3.lock``) already admits one process.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from bot.config import Config
from bot.storage import Storage
from bot.storage.backend import redact_url
from bot.storage.errors import DatabaseUnavailableError

log = logging.getLogger(__name__)

ALL_SHARDS = -1
"""The second key of the lock meaning "every shard": exclusive for an unsharded process, shared for a sharded one."""
POLL_S = 1.0
"""Seconds between two attempts of a standby to take its keys."""
CHECK_EVERY_S = 2.0
"""Seconds between two checks of a held lease."""
CHECK_TIMEOUT_S = 3.0
"""A check not answered within this many seconds counts as a lost lease."""
CONNECT_TIMEOUT_S = 10.0
HEARTBEAT_EVERY_S = 30.0
"""Seconds between two touches of the heartbeat file by a standby (the serving bot's own period)."""
KEEPALIVE = {
    "tcp_keepalives_idle": "5",
    "tcp_keepalives_interval": "2",
    "tcp_keepalives_count": "3",
    "tcp_user_timeout": "11000",
}
"""Server-side TCP settings of the lease session (PostgreSQL >= 12; ignored on a Unix socket): a holder cut off by
the network loses its locks after ~11 s, idle (keepalive probes) or with an answer unacknowledged (user timeout)."""
APPLICATION_NAME = "tablebot lease"
_CONNECTION_ERRORS = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


def namespace_of(installation_id: str) -> int:
    """The first key (a non-negative 31-bit int) of every lease lock of the installation ``installation_id``
    (``Storage.installation_id``, a UUID): ``crc32("tablebot-lease:" + installation_id) & 0x7fffffff``."""
    return zlib.crc32(f"tablebot-lease:{installation_id}".encode()) & 0x7FFFFFFF


def lease_for(config: Config, storage: Storage) -> ShardLease | None:
    """The lease ``python -m bot`` must hold before contacting Discord: ``None`` on SQLite (its file lock
    suffices); on PostgreSQL the shards ``SHARD_IDS`` (every shard when ``SHARD_COUNT`` is unset), on its own session
    to ``LEASE_DATABASE_URL`` when set (a direct connection: a pooler in transaction mode cannot hold session locks),
    else ``DATABASE_URL``."""
    if storage.dialect != "postgresql" or not config.database_url:
        return None
    shards = config.shard_ids if config.shard_count is not None else None
    url = config.lease_database_url or config.database_url
    return ShardLease(url, namespace_of(storage.installation_id), shards, shard_count=config.shard_count)


def count_namespace(namespace: int) -> int:
    """The first key of the ``SHARD_COUNT`` locks of the installation whose lease namespace is ``namespace``."""
    return zlib.crc32(f"tablebot-lease-count:{namespace}".encode()) & 0x7FFFFFFF


def describe_shards(shards: Sequence[int] | None) -> str:
    """``"0,1"`` for shards 0 and 1; ``"all"`` unsharded (``None``)."""
    return "all" if shards is None else ",".join(map(str, shards))


class ShardLease:
    """The lease of one process on its shards (see the module docstring).

    Args:
        url: the ``DATABASE_URL`` (``postgresql://...``, its ``search_path`` is irrelevant: advisory locks are
            database-wide, the namespace separates installations).
        namespace: :func:`namespace_of` the installation.
        shards: the process's ``SHARD_IDS``, or ``None`` unsharded (every shard).
        shard_count: the process's ``SHARD_COUNT`` (sharded): also held, shared, under :func:`count_namespace`;
            a process never serves while one with another count holds its own (resharding half done).

    Attributes:
        held: True while this process holds every key (the state to export as a metric, e.g.
            ``tablebot_lease_held``; ``TableBot.lease_held`` reads it).
        lost: why a held lease was lost (``None`` while held or never held).
    """

    def __init__(
        self, url: str, namespace: int, shards: Sequence[int] | None, *, shard_count: int | None = None
    ) -> None:
        self.url = url
        self.namespace = namespace
        self.shards: tuple[int, ...] | None = tuple(shards) if shards is not None else None
        self.shard_count = shard_count if shards is not None else None
        self.waiting_for = ""
        """Why the last attempt failed (empty once held)."""
        self.held = False
        self.lost: str | None = None
        self.waited_s = 0.0
        self._conn: asyncpg.Connection | None = None
        self._lost = asyncio.Event()

    @property
    def keys(self) -> list[tuple[int, int, bool]]:
        """``(first key, second key, shared)`` of every lock this process needs: :data:`ALL_SHARDS`, then each
        shard, then (with a ``shard_count``) the count under :func:`count_namespace`."""
        if self.shards is None:
            return [(self.namespace, ALL_SHARDS, False)]
        keys = [(self.namespace, ALL_SHARDS, True), *((self.namespace, shard, False) for shard in self.shards)]
        if self.shard_count is not None:
            keys.append((count_namespace(self.namespace), self.shard_count, True))
        return keys

    @property
    def label(self) -> str:
        return describe_shards(self.shards)

    async def connect(self) -> None:
        """Open the lease's own connection. Raises ``DatabaseUnavailableError`` when PostgreSQL does not answer."""
        try:
            conn = await asyncpg.connect(
                self.url, timeout=CONNECT_TIMEOUT_S, server_settings={"application_name": APPLICATION_NAME}
            )
        except _CONNECTION_ERRORS as exc:
            where = redact_url(self.url)
            raise DatabaseUnavailableError(
                f"cannot connect to PostgreSQL at {where} for the shard lease: {type(exc).__name__}: "
                f"{str(exc) or 'no answer'}",
                url=where,
            ) from exc
        self._conn = conn  # a failure below leaves it to acquire(), which drops it and tries again
        conn.add_termination_listener(self._terminated)
        for name, value in KEEPALIVE.items():
            try:
                await conn.execute(f"SET {name} = {value}")
            except asyncpg.PostgresError as err:  # an older server: keep its defaults, the lease still works
                log.info("lease connection: %s not set (%s)", name, err)

    async def try_acquire(self) -> bool:
        """One attempt to take every key at once (none kept on failure). True when all are held; else
        ``waiting_for`` says why (another process serves a shard, or runs with another ``SHARD_COUNT``)."""
        conn = self._conn
        assert conn is not None, "connect() first"
        taken: list[tuple[int, int, bool]] = []
        for first, second, shared in self.keys:
            fn = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
            if not await conn.fetchval(f"SELECT {fn}($1::int, $2::int)", first, second):
                self.waiting_for = "another process serves them"
                break
            taken.append((first, second, shared))
        else:
            others = await self._other_counts(conn)
            if not others:
                self.held, self.waiting_for = True, ""
                return True
            self.waiting_for = (
                f"a process with SHARD_COUNT={','.join(map(str, others))} runs on this database "
                f"(this one has {self.shard_count}; every process must use the same)"
            )
        for first, second, shared in taken:
            unlock = "pg_advisory_unlock_shared" if shared else "pg_advisory_unlock"
            await conn.fetchval(f"SELECT {unlock}($1::int, $2::int)", first, second)
        return False

    async def _other_counts(self, conn: asyncpg.Connection) -> list[int]:
        """The ``SHARD_COUNT`` of other processes of this installation, when it differs from ours."""
        if self.shard_count is None:
            return []
        rows = await conn.fetch(
            "SELECT DISTINCT objid::bigint AS count FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND objsubid = 2 AND classid = $1::bigint::oid AND objid <> $2::bigint::oid ORDER BY 1",
            count_namespace(self.namespace),
            self.shard_count,
        )
        return [int(r["count"]) for r in rows]

    async def acquire(self, stop: asyncio.Event | None = None, *, heartbeat: Callable[[], None] | None = None) -> bool:
        """Take the lease, waiting as a standby (every :data:`POLL_S` s) while another process holds a key.

        Returns True once held, False if ``stop`` was set first (SIGTERM while standing by). A standby whose
        connection breaks reconnects (logged once per outage) and keeps waiting. ``heartbeat()`` (writes the bot's
        ``DATA_DIR/heartbeat``: ``Health.write_heartbeat``) is called every :data:`HEARTBEAT_EVERY_S` s while the
        database answers, so
        ``python -m bot healthcheck`` reports a working standby healthy (and one cut off from it unhealthy)."""
        started = time.monotonic()
        told = ""  # the reason last logged
        broken = False
        touched = float("-inf")
        while stop is None or not stop.is_set():
            try:
                if self._conn is None or self._conn.is_closed():
                    await self.connect()
                if await self.try_acquire():
                    self.waited_s = time.monotonic() - started
                    if told:
                        log.info(
                            "lease taken for shards %s after %.1f s as standby: serving", self.label, self.waited_s
                        )
                    else:
                        log.info("lease held for shards %s (namespace %d)", self.label, self.namespace)
                    return True
                broken = False
                if heartbeat is not None and time.monotonic() - touched >= HEARTBEAT_EVERY_S:
                    touched = time.monotonic()
                    try:
                        await asyncio.to_thread(heartbeat)
                    except OSError as err:
                        log.warning("could not write the heartbeat file %s: %s", heartbeat, err)
                if told != self.waiting_for:
                    log.warning("standby for shards %s: %s; taking over when that stops", self.label, self.waiting_for)
                    told = self.waiting_for
            except (DatabaseUnavailableError, *_CONNECTION_ERRORS) as err:
                if not broken:
                    log.warning(
                        "standby for shards %s: the lease connection failed (%s); retrying",
                        self.label,
                        type(err).__name__,
                    )
                    broken = True
                await self._drop_connection()
            if stop is None:
                await asyncio.sleep(POLL_S)
            else:
                try:
                    await asyncio.wait_for(stop.wait(), POLL_S)
                except TimeoutError:
                    pass
        return False

    async def check(self) -> bool:
        """True if the session still holds every key (one query, at most :data:`CHECK_TIMEOUT_S` s)."""
        conn = self._conn
        if conn is None or conn.is_closed():
            return False
        try:
            granted = await conn.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted",
                timeout=CHECK_TIMEOUT_S,
            )
        except _CONNECTION_ERRORS:
            return False
        return bool(granted == len(self.keys))

    async def watch(self, on_lost: Callable[[], Awaitable[Any]]) -> None:
        """While held: check every :data:`CHECK_EVERY_S` s (and hear a closed connection at once); on a loss set
        ``held`` False and ``lost`` (the reason), log it and await ``on_lost()`` (e.g. ``bot.close``), then return."""
        while self.held:
            try:
                await asyncio.wait_for(self._lost.wait(), CHECK_EVERY_S)
                reason = "the lease connection was closed"
            except TimeoutError:
                if await self.check():
                    continue
                reason = f"the lease could not be confirmed within {CHECK_TIMEOUT_S:.0f} s"
            self.held = False
            self.lost = reason
            log.error(
                "lease for shards %s lost (%s): stopping at once so that no two processes serve them",
                self.label,
                reason,
            )
            await on_lost()
            return

    def _terminated(self, _conn: Any) -> None:
        self._lost.set()

    async def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        self.held = False
        if conn is not None:
            conn.remove_termination_listener(self._terminated)
            try:
                await asyncio.wait_for(conn.close(), 2)
            except _CONNECTION_ERRORS:
                conn.terminate()
            self._lost.clear()

    async def close(self) -> None:
        """Release the locks by closing the session (a stop; also what PostgreSQL does when the process dies)."""
        self.held = False
        await self._drop_connection()
