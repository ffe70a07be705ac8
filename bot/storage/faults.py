"""A test seam for stalled storage: with ``$TABLEBOT_STORAGE_STALL_FILE`` set (the e2e tests set it), every storage
call first waits until the wall-clock time (epoch seconds) written in that file, as if another process held the
database (missing, empty, unreadable or past: no wait).

The file is read at each call, so a test can stall the running bot's storage for a while without a restart.
Unset (production), nothing is read and nothing waits.

The same file can make storage fail as a real database does (issue 22): ``fail:full`` (disk full) and
``fail:readonly`` (read-only data) fail every write, ``fail:gone`` (the database file or server unreachable) every
call, ``fail:locked`` (locked by another process too long) every write; each raises the exception the SQLite
backend raises then (``sqlite3.OperationalError`` with SQLite's own message, or the backend's ``StorageError``
``Busy``).

Those fail in ``Connection`` before the backend is reached. ``fail:full@commit`` and ``fail:readonly@commit`` fail
*inside* the SQLite backend instead (:meth:`StorageStall.at_commit`, called by ``sqlite_tx.TxThread`` and the
statement-by-statement path just before ``COMMIT``): the write has gone through the writer's queue and group commit
(``SqliteBackend._grouped``), its statements ran in ``BEGIN IMMEDIATE``, and the ``COMMIT`` fails as it does on a
full or read-only disk; the transaction is rolled back and every body of the batch gets the error.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from pathlib import Path

from .errors import StorageError

ENV = "TABLEBOT_STORAGE_STALL_FILE"
AT_COMMIT = "@commit"
log = logging.getLogger(__name__)


def _error(what: str) -> Exception | None:
    """The exception SQLite (or the backend) raises for the failure ``what``, or ``None``."""
    if what == "gone":
        return sqlite3.OperationalError("unable to open database file")
    if what == "full":
        return sqlite3.OperationalError("database or disk is full")
    if what == "readonly":
        return sqlite3.OperationalError("attempt to write a readonly database")
    if what == "locked":
        return StorageError("the database stayed busy (locked by another process); try again in a moment", rule="Busy")
    return None


class StorageStall:
    """Waits until the time read from ``path`` before every storage call."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def from_env(cls) -> StorageStall | None:
        value = os.environ.get(ENV)
        return cls(Path(value)) if value else None

    def read(self) -> str:
        try:
            return self.path.read_text().strip()
        except OSError:
            return ""

    def until(self) -> float:
        try:
            return float(self.read() or 0)
        except ValueError:
            return 0.0

    def fail(self, write: bool) -> None:
        """Raise the injected failure (``fail:<what>`` in the file) for a write (``write``) or a read."""
        text = self.read()
        what = text.removeprefix("fail:") if text.startswith("fail:") else ""
        err = _error(what)
        if err is not None and (write or what == "gone"):
            raise err

    def at_commit(self) -> None:
        """Just before a SQLite write transaction's ``COMMIT``, in the backend (``fail:<what>@commit``: ``full`` or
        ``readonly``): raise what SQLite raises when that ``COMMIT`` fails. Logged, so a test can see the write got
        this far."""
        text = self.read()
        if not (text.startswith("fail:") and text.endswith(AT_COMMIT)):
            return
        err = _error(text.removeprefix("fail:").removesuffix(AT_COMMIT))
        if err is not None:
            log.warning("storage fault injected at COMMIT: %s", err)
            raise err

    async def wait(self, *, write: bool = False) -> None:
        self.fail(write)
        left = self.until() - time.time()
        if left > 0:
            await asyncio.sleep(left)
