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
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

from .errors import StorageError

ENV = "TABLEBOT_STORAGE_STALL_FILE"


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
        what = self.read().removeprefix("fail:") if self.read().startswith("fail:") else ""
        if what == "gone":
            raise sqlite3.OperationalError("unable to open database file")
        if not write:
            return
        if what == "full":
            raise sqlite3.OperationalError("database or disk is full")
        if what == "readonly":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        if what == "locked":
            raise StorageError(
                "the database stayed busy (locked by another process); try again in a moment", rule="Busy"
            )

    async def wait(self, *, write: bool = False) -> None:
        self.fail(write)
        left = self.until() - time.time()
        if left > 0:
            await asyncio.sleep(left)
