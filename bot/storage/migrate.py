"""Numbered SQL migrations (``bot/storage/migrations/``), applied at startup, for both databases.

Files: ``NNNN_name.sql`` serves both databases; where the dialects must differ a migration is two
files, ``NNNN_name.sqlite.sql`` and ``NNNN_name.postgresql.sql`` (same number, same effect).

SQLite: the schema version is ``PRAGMA user_version``; migration N brings it from N-1 to N inside
one ``BEGIN IMMEDIATE`` transaction together with the bump, with foreign keys off while it runs
(table rebuilds) and ``PRAGMA foreign_key_check`` before the commit. PostgreSQL: the version is the
one row of ``tablebot_schema``; each migration runs in one transaction (DDL is transactional) under
an advisory lock. Either way a crash leaves the database before or after a migration, never in
between, and a database newer than the code is refused (``SchemaTooNewError``).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from typing import Any

import aiosqlite

from .errors import NotOurDatabaseError, SchemaTooNewError, StorageError

APPLICATION_ID = 0x54424F54
"""``PRAGMA application_id`` of a tablebot SQLite database ("TBOT"); also the PostgreSQL advisory lock key."""
DIALECTS: tuple[str, ...] = ("sqlite", "postgresql")

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+?)(?:\.(sqlite|postgresql))?\.sql$")


@dataclass(frozen=True)
class Migration:
    """One migration: ``number`` (1-based, contiguous), file ``name`` and its SQL ``statements``
    (SQLite: split into statements; PostgreSQL: the whole script as one entry)."""

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


def load_migrations(dialect: str = "sqlite") -> list[Migration]:
    """Every migration shipped in ``bot/storage/migrations`` for ``dialect``, sorted by number. Raises
    ``StorageError`` (rule ``Migration``) if the numbers are not 1, 2, 3... without gaps or a number has
    neither a shared nor a ``dialect`` file."""
    if dialect not in DIALECTS:
        raise StorageError(f"unknown SQL dialect {dialect!r}", rule="Migration")
    folder = resources.files("bot.storage") / "migrations"
    chosen: dict[int, tuple[str, str]] = {}  # number -> (file name, text); a dialect file beats a shared one
    numbers: set[int] = set()
    for entry in folder.iterdir():
        m = _NAME.match(entry.name)
        if not m:
            continue
        number, file_dialect = int(m.group(1)), m.group(3)
        numbers.add(number)
        if file_dialect not in (None, dialect):
            continue
        if number in chosen and file_dialect is None:
            continue
        chosen[number] = (entry.name, entry.read_text("utf-8"))
    ordered = sorted(numbers)
    if ordered != list(range(1, len(ordered) + 1)) or set(chosen) != numbers:
        raise StorageError(
            f"migrations must be numbered 1..N without gaps, each with a shared or a {dialect} file; "
            f"found {ordered}, usable for {dialect}: {sorted(chosen)}",
            rule="Migration",
        )
    out = []
    for number in ordered:
        name, text = chosen[number]
        statements = tuple(split_statements(text)) if dialect == "sqlite" else (text,)
        out.append(Migration(number, name, statements))
    return out


async def _pragma_int(conn: aiosqlite.Connection, name: str) -> int:
    async with conn.execute(f"PRAGMA {name}") as cur:  # name is one of our constants, never user input
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def _too_new(version: int, latest: int, where: str) -> SchemaTooNewError:
    return SchemaTooNewError(
        f"the database {where} has schema version {version}, newer than this bot knows ({latest}): "
        "run a newer version of the bot, or point it at another database",
        db_version=version,
        code_version=latest,
        path=where,
    )


async def migrate(conn: aiosqlite.Connection, path: str, migrations: list[Migration] | None = None) -> int:
    """Bring the SQLite database on ``conn`` (autocommit mode) up to the last migration.

    Returns the schema version after migrating. Raises ``SchemaTooNewError`` if the file's
    ``user_version`` is above the last known migration, ``NotOurDatabaseError`` if its
    ``application_id`` belongs to another program. Safe if several connections open the same file
    at once: each migration re-reads the version after taking the write lock.
    """
    migs = load_migrations("sqlite") if migrations is None else migrations
    latest = len(migs)
    app_id = await _pragma_int(conn, "application_id")
    if app_id not in (0, APPLICATION_ID):
        raise NotOurDatabaseError(
            f"{path} is an SQLite database of another program (application_id {app_id:#x}); "
            "point DATA_DIR or DATABASE_URL at another file",
            path=path,
            application_id=app_id,
        )
    version = await _pragma_int(conn, "user_version")
    if version > latest:
        raise _too_new(version, latest, path)
    pending = [mig for mig in migs if mig.number > version]
    if not pending:
        return version
    foreign_keys = await _pragma_int(conn, "foreign_keys")
    await conn.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction: set before BEGIN
    try:
        for mig in pending:
            await _apply_sqlite(conn, mig)
    finally:
        await conn.execute(f"PRAGMA foreign_keys = {1 if foreign_keys else 0}")
    version = await _pragma_int(conn, "user_version")
    if version > latest:
        raise _too_new(version, latest, path)
    return version


async def _apply_sqlite(conn: aiosqlite.Connection, mig: Migration) -> None:
    await conn.execute("BEGIN IMMEDIATE")
    try:
        version = await _pragma_int(conn, "user_version")  # another connection may have migrated meanwhile
        if version < mig.number:
            for statement in mig.statements:
                await conn.execute(statement)
            async with conn.execute("PRAGMA foreign_key_check") as cur:
                broken = list(await cur.fetchall())
            if broken:
                raise StorageError(
                    f"migration {mig.name} would break foreign keys ({len(broken)} rows, e.g. {tuple(broken[0])})",
                    rule="Migration",
                )
            # PRAGMA takes no bound parameters; both numbers are ints from our own code.
            await conn.execute(f"PRAGMA user_version = {int(mig.number)}")
            await conn.execute(f"PRAGMA application_id = {int(APPLICATION_ID)}")
        await conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise


_PG_VERSION_TABLE = (
    "CREATE TABLE IF NOT EXISTS tablebot_schema ("
    " id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, application TEXT NOT NULL)"
)


async def migrate_postgres(conn: Any, where: str, migrations: list[Migration] | None = None) -> int:
    """Bring the PostgreSQL schema (the connection's ``search_path``) up to the last migration.

    ``conn`` is an ``asyncpg.Connection``. Returns the schema version. Raises ``SchemaTooNewError``,
    or ``NotOurDatabaseError`` if the schema already holds a ``games`` table that tablebot did not
    create. Several processes may start at once: an advisory lock serialises the migrations."""
    migs = load_migrations("postgresql") if migrations is None else migrations
    latest = len(migs)
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", APPLICATION_ID)
        ours = await conn.fetchval("SELECT to_regclass('tablebot_schema') IS NOT NULL")
        if not ours and await conn.fetchval("SELECT to_regclass('games') IS NOT NULL"):
            raise NotOurDatabaseError(
                f"{where} already has a 'games' table that tablebot did not create; use another database or schema",
                path=where,
            )
        await conn.execute(_PG_VERSION_TABLE)
        await conn.execute(
            "INSERT INTO tablebot_schema (id, version, application) VALUES (1, 0, 'tablebot') ON CONFLICT DO NOTHING"
        )
        version = int(await conn.fetchval("SELECT version FROM tablebot_schema WHERE id = 1"))
    if version > latest:
        raise _too_new(version, latest, where)
    for mig in migs:
        if mig.number <= version:
            continue
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", APPLICATION_ID)
            current = int(await conn.fetchval("SELECT version FROM tablebot_schema WHERE id = 1"))
            if current < mig.number:
                for script in mig.statements:
                    await conn.execute(script)
                await conn.execute("UPDATE tablebot_schema SET version = $1 WHERE id = 1", mig.number)
        version = mig.number
    return int(await conn.fetchval("SELECT version FROM tablebot_schema WHERE id = 1"))
