"""Start-up guards of the SQLite backend: one process per file, integrity, and never empty over data.

- ``ProcessLock``: an exclusive ``fcntl.flock`` on ``<db>.lock`` held while the file is open. A second
  *process* on the same file is refused (``DatabaseLockedError``); several ``Storage`` objects of one
  process share the lock (tests do that). The kernel drops the lock when the process dies, so a crash
  never leaves a stale lock behind.
- ``preflight(path)``: before the file is opened for writing, a **read-only** look (``mode=ro``: it
  cannot checkpoint or delete a ``-wal``, so evidence is never destroyed): SQLite header, ``PRAGMA
  quick_check``, and the database's identity (``meta`` key ``storage.installation_id``, highest game
  id) against the guard file ``<db>.guard`` written beside it. An older copy or another installation's
  file put in its place, or a main file that does not match the ``-wal`` left beside it (SQLite then
  shows an empty schema), is refused with ``DatabaseMismatchError`` instead of starting empty.
- ``write_guard``: the guard records the installation id and the highest game id committed so far; it
  only ever grows (merged with what is already there) and is rewritten at open, after each new game
  and at close.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .errors import CorruptDatabaseError, DatabaseLockedError, DatabaseMismatchError

SQLITE_HEADER = b"SQLite format 3\x00"
WAL_HEADER_BYTES = 32
INSTALLATION_KEY = "storage.installation_id"
"""Meta key of the database's identity (a random UUID set at its first open)."""
RESERVED_META_PREFIX = "storage."


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def guard_path(db: Path) -> Path:
    return db.with_name(db.name + ".guard")


def sidecars(db: Path) -> tuple[Path, Path]:
    """The ``-wal`` and ``-shm`` files of ``db``."""
    return db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")


class ProcessLock:
    """The exclusive lock of this process on one database file (reference-counted per process)."""

    _held: dict[Path, tuple[int, int]] = {}  # resolved lock path -> (fd, users)
    _mutex = threading.Lock()

    def __init__(self, db: Path, *, exclusive: bool = False) -> None:
        """Take (or share) the lock; ``exclusive`` refuses even another user of this same process (restore)."""
        self.path = lock_path(db).resolve()
        self.db = db
        self._released = False
        with self._mutex:
            fd, users = self._held.get(self.path, (-1, 0))
            if users and exclusive:
                self._released = True
                raise DatabaseLockedError(f"{db} is open in this process", path=str(db), pid=os.getpid())
            if users == 0:
                fd = self._take()
            self._held[self.path] = (fd, users + 1)

    def _take(self) -> int:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = ""
            with contextlib.suppress(OSError, ValueError):
                holder = os.pread(fd, 64, 0).decode().strip()
            os.close(fd)
            raise DatabaseLockedError(
                f"{self.db} is in use by another bot process{f' (pid {holder})' if holder else ''}: "
                "one process per SQLite file; stop the other one, or use PostgreSQL (DATABASE_URL) to run several",
                path=str(self.db),
                pid=int(holder) if holder.isdigit() else None,
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return fd

    def release(self) -> None:
        """Give this user's share back; the lock goes when the last user of the process releases it."""
        if self._released:
            return
        self._released = True
        with self._mutex:
            fd, users = self._held[self.path]
            if users > 1:
                self._held[self.path] = (fd, users - 1)
                return
            del self._held[self.path]
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the descriptor releases the flock


@dataclass(frozen=True)
class Identity:
    """What the read-only look found: ``schema`` (user_version), ``installation`` id, highest game id."""

    schema: int
    installation: str | None
    max_game_id: int


def read_guard(db: Path) -> dict[str, object] | None:
    """The guard file's content, or ``None`` when there is none (an unreadable guard counts as none)."""
    try:
        data = json.loads(guard_path(db).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


_guard_mutex = threading.Lock()


def write_guard(db: Path, installation: str, max_game_id: int) -> None:
    """Record ``installation`` and ``max_game_id`` (never lowering the recorded id) in ``<db>.guard``,
    atomically (temporary file + rename)."""
    with _guard_mutex:
        old = read_guard(db) or {}
        recorded = old.get("max_game_id") if old.get("installation") == installation else 0
        top = max(int(max_game_id), recorded if isinstance(recorded, int) else 0)
        data = {
            "installation": installation,
            "max_game_id": top,
            "about": "tablebot's record of which database belongs here; see README 'Operating the bot'",
        }
        tmp = guard_path(db).with_suffix(".guard.tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        os.replace(tmp, guard_path(db))


def _inspect(db: Path) -> Identity:
    uri = f"file:{db}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise CorruptDatabaseError(f"{db} cannot be opened: {exc}", path=str(db)) from exc
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
        if [tuple(r) for r in rows] != [("ok",)]:
            first = rows[0][0] if rows else "no answer"
            raise CorruptDatabaseError(
                f"{db} failed its integrity check ({first}); restore a backup (README 'Operating the bot')",
                path=str(db),
                problems=[r[0] for r in rows[:5]],
            )
        schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        installation = None
        max_game_id = 0
        if "meta" in tables:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (INSTALLATION_KEY,)).fetchone()
            installation = row[0] if row else None
        if "games" in tables:
            max_game_id = int(conn.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])
        if schema > 0 and not {"games", "meta"} <= tables:
            raise CorruptDatabaseError(
                f"{db} says schema version {schema} but lacks the games or meta table", path=str(db)
            )
        return Identity(schema, installation, max_game_id)
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(f"{db} is damaged or not a database: {exc}", path=str(db)) from exc
    finally:
        conn.close()


def preflight(db: Path) -> Identity | None:
    """Check ``db`` before opening it for writing (see the module docstring). Returns what it found, or
    ``None`` for a file that does not exist yet (or is empty) with nothing pointing at lost data.

    Raises ``CorruptDatabaseError`` (not SQLite, failed ``quick_check``, unreadable) or
    ``DatabaseMismatchError`` (the file is not the database the guard describes, or is empty beside a
    ``-wal`` holding data). Touches nothing on disk except SQLite's own ``-shm``."""
    guard = read_guard(db)
    wal, _shm = sidecars(db)
    wal_size = wal.stat().st_size if wal.exists() else 0
    size = db.stat().st_size if db.exists() else 0
    raw_max = guard.get("max_game_id") if guard else None
    recorded = raw_max if isinstance(raw_max, int) else 0
    hint = (
        "if you restored a backup on purpose, use `python -m bot restore FILE` (or delete "
        f"{guard_path(db).name} and any stale -wal/-shm)"
    )
    if size == 0:
        if recorded > 0:
            raise DatabaseMismatchError(
                f"{db} is missing or empty, but {guard_path(db).name} says it held games up to #{recorded}: "
                f"refusing to start on an empty database; {hint}",
                path=str(db),
                expected_max_game_id=recorded,
            )
        if wal_size > WAL_HEADER_BYTES:
            raise DatabaseMismatchError(
                f"{db} is missing or empty but {wal.name} beside it holds data: refusing to start empty; "
                "put the database file back, or delete the stale -wal/-shm if you meant a fresh start",
                path=str(db),
            )
        return None
    with db.open("rb") as fh:
        header = fh.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise CorruptDatabaseError(
            f"{db} is not an SQLite database (bad header); restore a backup (README 'Operating the bot')",
            path=str(db),
        )
    found = _inspect(db)
    if found.schema == 0 and (recorded > 0 or wal_size > WAL_HEADER_BYTES):
        raise DatabaseMismatchError(
            f"{db} shows no tables although "
            + (f"{guard_path(db).name} says it held games up to #{recorded}" if recorded else f"{wal.name} holds data")
            + ": the main file does not match the -wal/-shm beside it (an older copy put over a live database?); "
            f"refusing to start empty; {hint}",
            path=str(db),
            expected_max_game_id=recorded,
        )
    expected = guard.get("installation") if guard else None
    if expected and found.schema > 0 and found.installation != expected:
        raise DatabaseMismatchError(
            f"{db} belongs to another installation than the one recorded in {guard_path(db).name}; {hint}",
            path=str(db),
        )
    if found.max_game_id < recorded:
        raise DatabaseMismatchError(
            f"{db} holds games up to #{found.max_game_id} but this installation already had game #{recorded}: "
            f"an older copy (or a main file that does not match its -wal); refusing to lose games; {hint}",
            path=str(db),
            expected_max_game_id=recorded,
            found_max_game_id=found.max_game_id,
        )
    return found
