"""Operator tools for the SQLite file: a consistent online backup, and a guarded restore.

- ``backup(db, dest)``: SQLite's online backup API (``sqlite3.Connection.backup``) from a read-only
  connection, in one step, so the copy is one consistent snapshot even while the bot keeps writing
  (the bot's lock is not needed: readers never block it). The copy is written beside ``dest``, checked
  (``PRAGMA quick_check``) and renamed into place, so ``dest`` is either complete or absent.
- ``restore(backup, db)``: only while no bot runs on ``db`` (takes its process lock); checks the
  backup, moves the current file and its ``-wal``/``-shm`` aside (``<db>.before-restore-<time>``,
  nothing is deleted), puts the backup in place and records it in the guard file, so the start-up guard
  accepts the (older) backup on purpose.
PostgreSQL installations use ``pg_dump``/``pg_restore`` instead (README "Operating the bot").
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from . import sqlite_guard as guard
from .errors import CorruptDatabaseError, NotOurDatabaseError, SchemaTooNewError, StorageError
from .migrate import APPLICATION_ID, load_migrations


class RefusedError(StorageError):
    """An operator command refused to act (target exists or is not empty, source missing...). Rule
    ``"Refused"``; nothing was changed."""

    default_rule = "Refused"


@dataclass(frozen=True)
class Snapshot:
    """What a database file holds: ``games``, ``actions``, ``bytes``, schema version, installation id."""

    path: Path
    games: int
    actions: int
    bytes: int
    schema: int
    installation: str | None


def describe(path: Path) -> Snapshot:
    """Count what ``path`` (a closed or live SQLite file) holds, read-only. Raises ``CorruptDatabaseError``
    if it fails ``quick_check`` or is not a tablebot database of a known schema."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    except sqlite3.Error as exc:
        raise CorruptDatabaseError(f"{path} cannot be opened: {exc}", path=str(path)) from exc
    try:
        if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise CorruptDatabaseError(f"{path} failed its integrity check", path=str(path))
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        schema = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if app_id != APPLICATION_ID or schema < 1:
            raise NotOurDatabaseError(f"{path} is not a tablebot database", path=str(path), application_id=app_id)
        latest = len(load_migrations("sqlite"))
        if schema > latest:
            raise SchemaTooNewError(
                f"{path} has schema {schema}, newer than this bot ({latest})",
                db_version=schema,
                code_version=latest,
                path=str(path),
            )
        games = int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
        actions = int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (guard.INSTALLATION_KEY,)).fetchone()
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(f"{path} is damaged or not a database: {exc}", path=str(path)) from exc
    finally:
        conn.close()
    return Snapshot(path, games, actions, path.stat().st_size, schema, row[0] if row else None)


def backup(db: Path, dest: Path, *, force: bool = False) -> Snapshot:
    """Copy the live database ``db`` to ``dest`` consistently (see the module docstring) and return what
    the copy holds. Raises ``RefusedError`` if ``db`` does not exist or ``dest`` exists (without
    ``force``) or is ``db`` itself, ``CorruptDatabaseError`` if the source or the copy is damaged."""
    if not db.exists() or db.stat().st_size == 0:
        raise RefusedError(f"there is no database at {db} to back up", path=str(db))
    if dest.exists() and dest.resolve() == db.resolve():
        raise RefusedError("the backup cannot overwrite the database itself", path=str(dest))
    if dest.exists() and not force:
        raise RefusedError(f"{dest} already exists: choose another name, or pass --force to replace it", path=str(dest))
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        out = sqlite3.connect(partial)
        try:
            src.backup(out)  # pages=-1: the whole database in one step, one consistent snapshot
            out.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        finally:
            out.close()
    except sqlite3.DatabaseError as exc:
        partial.unlink(missing_ok=True)
        raise CorruptDatabaseError(f"backing up {db} failed: {exc}", path=str(db)) from exc
    finally:
        src.close()
    try:
        snap = describe(partial)
    except StorageError:
        partial.unlink(missing_ok=True)
        raise
    with open(partial, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(partial, dest)
    return Snapshot(dest, snap.games, snap.actions, snap.bytes, snap.schema, snap.installation)


def restore(source: Path, db: Path) -> tuple[Snapshot, Path | None]:
    """Put the backup ``source`` in place of ``db`` (see the module docstring). Returns what the restored
    database holds and where the replaced file was moved (``None`` if there was none). Raises
    ``DatabaseLockedError`` if a bot runs on ``db``, ``RefusedError`` if ``source`` is missing or is
    ``db``, ``CorruptDatabaseError``/``NotOurDatabaseError``/``SchemaTooNewError`` for a bad backup."""
    if not source.exists():
        raise RefusedError(f"there is no backup at {source}", path=str(source))
    if db.exists() and source.resolve() == db.resolve():
        raise RefusedError("the backup to restore is the database itself", path=str(source))
    snap = describe(source)
    db.parent.mkdir(parents=True, exist_ok=True)
    lock = guard.ProcessLock(db, exclusive=True)
    try:
        moved: Path | None = None
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        wal, shm = guard.sidecars(db)
        if db.exists() or wal.exists():
            moved = db.with_name(f"{db.name}.before-restore-{stamp}")
            for old, suffix in ((db, ""), (wal, "-wal"), (shm, "-shm")):
                if old.exists():
                    os.replace(old, moved.with_name(moved.name + suffix))
        partial = db.with_name(db.name + ".restoring")
        shutil.copyfile(source, partial)
        with open(partial, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(partial, db)
        with contextlib.suppress(FileNotFoundError):
            guard.guard_path(db).unlink()
        if snap.installation:
            top = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
            try:
                max_id = int(top.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])
            finally:
                top.close()
            guard.write_guard(db, snap.installation, max_id)
    finally:
        lock.release()
    return Snapshot(db, snap.games, snap.actions, snap.bytes, snap.schema, snap.installation), moved
