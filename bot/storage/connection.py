"""Connection plumbing of ``Storage``: opening the backend chosen by the target, reads, writes.

``Storage.open(target)`` takes a path (SQLite, the default), ``sqlite:///path`` or
``postgresql://...`` (see ``backend.parse_target``). Every part of ``Storage`` (games, players,
guilds, history) runs its SQL through ``_one``/``_all`` (reads: one statement, one snapshot) and
``_write(body)`` (one transaction; ``body(tx)`` gets a ``backend.Tx``).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

from .backend import Backend, Tx, parse_target
from .faults import StorageStall
from .paths import default_db_path
from .sqlite_guard import INSTALLATION_KEY

T = TypeVar("T")


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


class Connection:
    """The open backend and the read/write helpers shared by ``Storage``'s parts."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._clock: Callable[[], float] = time.time
        self._delay = StorageStall.from_env()  # a test seam (stalled storage); None in production

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: str = "FULL",
        pool_size: int = 10,
    ) -> Self:
        """Open the database ``path`` (default ``default_db_path()``): a file path, ``sqlite:///path`` or
        ``postgresql://...``; create it if needed, check it and apply pending migrations.

        SQLite options: ``busy_timeout_ms``, ``synchronous`` (``FULL`` default). PostgreSQL: ``pool_size``
        (max connections of this process). Raises ``DatabaseLockedError`` (another process has the SQLite
        file), ``CorruptDatabaseError``, ``DatabaseMismatchError``, ``DatabaseUnavailableError`` (PostgreSQL
        not answering), ``SchemaTooNewError``, ``NotOurDatabaseError``, ``InvalidDataError`` (bad target or
        option), ``OSError`` if the directory cannot be created."""
        target = parse_target(path if path is not None else default_db_path())
        backend: Backend
        if target.kind == "postgresql":
            from .pg_backend import PostgresBackend

            backend = await PostgresBackend.open(target.url or "", max_size=pool_size)
        else:
            from .sqlite_backend import SqliteBackend

            assert target.path is not None
            backend = await SqliteBackend.open(target.path, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous)
        self = cls(backend)
        try:
            await self._ensure_installation()
        except BaseException:
            await backend.close()
            raise
        return self

    async def _ensure_installation(self) -> None:
        """Give the database its identity (meta ``storage.installation_id``) at its first open; the SQLite
        backend records it, with the highest game id, in its guard file."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (INSTALLATION_KEY,))
        installation = row[0] if row else None
        if installation is None:
            new = str(uuid.uuid4())

            async def body(tx: Tx) -> str:
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (INSTALLATION_KEY, new)
                )
                got = await tx.fetchrow("SELECT value FROM meta WHERE key = ?", (INSTALLATION_KEY,))
                return str(got[0]) if got else new

            installation = await self._write(body)
        setattr(self.backend, "installation", installation)  # noqa: B010 (only the SQLite backend uses it)
        top = await self._one("SELECT coalesce(max(id), 0) FROM games")
        await self.backend.after_commit_game(int(top[0]))

    def use_clock(self, now: Callable[[], float]) -> None:
        """Read "now" (Unix seconds) from ``now`` instead of the host's wall clock: the bot's one clock
        (``bot/core/clock.py``), so stored times and the due times compared with them agree."""
        self._clock = now

    @property
    def installation_id(self) -> str:
        """The database's identity (a UUID set at its first open; copied databases get their own)."""
        return str(getattr(self.backend, "installation", ""))

    @property
    def schema_version(self) -> int:
        """The schema version (number of the last migration applied)."""
        return self.backend.schema_version

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.backend.sql.name

    @property
    def path(self) -> Path | None:
        """The SQLite file, or ``None`` on PostgreSQL."""
        return getattr(self.backend, "path", None)

    async def close(self) -> None:
        """Wait for the write in progress, then close (SQLite: checkpoint so the main file holds
        everything). Safe to call twice."""
        await self.backend.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing
    async def _write(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        if self._delay is not None:
            await self._delay.wait(write=True)
        return await self.backend.transaction(body)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        if self._delay is not None:
            await self._delay.wait()
        return await self.backend.fetch(sql, params)
