"""Numbered SQL migrations (``bot/storage/migrations/NNNN_name.sql``), applied at startup.

The schema version is ``PRAGMA user_version``: migration N brings it from N-1 to N, inside one
``BEGIN IMMEDIATE`` transaction together with the ``user_version`` bump, so a crash leaves the
database either before or after a migration, never in between. A database whose version is
higher than the last migration known to this code is refused (``SchemaTooNewError``).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from .errors import NotOurDatabaseError, SchemaTooNewError, StorageError

APPLICATION_ID = 0x54424F54
"""``PRAGMA application_id`` of a tablebot database ("TBOT")."""

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One migration: ``number`` (1-based, contiguous), file ``name`` and its SQL ``statements``."""

    number: int
    name: str
    statements: tuple[str, ...]


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (trigger bodies included) with
    ``sqlite3.complete_statement``; comment-only leftovers are dropped."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    rest = "\n".join(ln for ln in buf.splitlines() if not ln.strip().startswith("--")).strip()
    if rest:
        raise StorageError(f"incomplete SQL statement at the end of a migration: {rest[:60]!r}", rule="Migration")
    return out


def load_migrations() -> list[Migration]:
    """Read every migration shipped in ``bot/storage/migrations``, sorted by number. Raises
    ``StorageError`` (rule ``Migration``) if the numbers are not 1, 2, 3... without gaps."""
    folder = resources.files("bot.storage") / "migrations"
    found: list[Migration] = []
    for entry in folder.iterdir():
        m = _NAME.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), entry.name, tuple(split_statements(entry.read_text("utf-8")))))
    found.sort(key=lambda mig: mig.number)
    numbers = [mig.number for mig in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StorageError(f"migrations must be numbered 1..N without gaps, found {numbers}", rule="Migration")
    return found


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    async with conn.execute(f"PRAGMA {name}") as cur:  # name is one of our constants, never user input
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, path: str, migrations: list[Migration] | None = None) -> int:
    """Bring the database on ``conn`` (autocommit mode) up to the last migration.

    Returns the schema version after migrating. Raises ``SchemaTooNewError`` if the file's
    ``user_version`` is above the last known migration, ``NotOurDatabaseError`` if its
    ``application_id`` belongs to another program. Safe if several processes open the same file
    at once: each migration re-reads the version after taking the write lock.
    """
    migs = load_migrations() if migrations is None else migrations
    latest = len(migs)
    app_id = await _pragma_int(conn, "application_id")
    if app_id not in (0, APPLICATION_ID):
        raise NotOurDatabaseError(
            f"{path} is an SQLite database of another program (application_id {app_id:#x}); "
            "point DATA_DIR at another directory",
            path=path,
            application_id=app_id,
        )
    for mig in migs:
        version = await _pragma_int(conn, "user_version")
        if version > latest:
            break
        if version >= mig.number:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            version = await _pragma_int(conn, "user_version")  # another process may have migrated meanwhile
            if version < mig.number:
                for statement in mig.statements:
                    await conn.execute(statement)
                # PRAGMA takes no bound parameters; both numbers are ints from our own code.
                await conn.execute(f"PRAGMA user_version = {int(mig.number)}")
                await conn.execute(f"PRAGMA application_id = {int(APPLICATION_ID)}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
    version = await _pragma_int(conn, "user_version")
    if version > latest:
        raise SchemaTooNewError(
            f"the database {path} has schema version {version}, newer than this bot knows ({latest}): "
            "run a newer version of the bot, or use another DATA_DIR",
            db_version=version,
            code_version=latest,
            path=path,
        )
    return version
