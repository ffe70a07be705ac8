"""Fixtures: every storage test that takes ``storage`` (or ``database_url``) runs on **both** backends.

- SQLite: a real file in a fresh temp dir per test.
- PostgreSQL: ``TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``, trust auth);
  each test gets its own schema (``?search_path=t_<random>``), dropped afterwards, so tests are
  isolated and run in any order. When no server answers, the PostgreSQL variants are **skipped with
  the reason** on a developer's machine and **fail** when ``CI=true`` (CI cannot silently skip them).
No mocks.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Storage
from bot.storage.pg_backend import to_dollar

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
BACKENDS = ("sqlite", "postgresql")


def pg_base_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_PG_URL


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (asyncpg passes unknown query parameters to the server)."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _probe(url: str) -> str | None:
    try:
        conn = await asyncpg.connect(url, timeout=5)
    except Exception as exc:  # any failure to connect is a reason to skip (or fail in CI)
        return f"{type(exc).__name__}: {exc}"
    await conn.close()
    return None


@pytest.fixture(scope="session")
def pg_unavailable() -> str | None:
    """Why the PostgreSQL server at TEST_DATABASE_URL cannot be used (``None`` when it answers)."""
    problem = asyncio.run(_probe(pg_base_url()))
    return f"no PostgreSQL server at {pg_base_url()} ({problem})" if problem else None


def require_pg(pg_unavailable: str | None) -> None:
    """Skip (laptop) or fail (``CI=true``) a PostgreSQL test when no server answers."""
    if pg_unavailable is None:
        return
    message = f"{pg_unavailable}; set TEST_DATABASE_URL or start PostgreSQL"
    if os.environ.get("CI", "").strip().lower() == "true":
        pytest.fail(f"CI=true but {message}")
    pytest.skip(message)


async def create_schema(base: str) -> str:
    schema = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    return schema


async def drop_schema(base: str, schema: str) -> None:
    conn = await asyncpg.connect(base)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tablebot.sqlite3"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, pg_unavailable: str | None) -> str:
    if request.param == "postgresql":
        require_pg(pg_unavailable)
    return str(request.param)


@pytest.fixture
async def pg_url(pg_unavailable: str | None) -> AsyncIterator[str]:
    """A PostgreSQL URL on a fresh empty schema of its own (dropped afterwards)."""
    require_pg(pg_unavailable)
    base = pg_base_url()
    schema = await create_schema(base)
    try:
        yield with_schema(base, schema)
    finally:
        await drop_schema(base, schema)


@pytest.fixture
async def database_url(backend: str, db_path: Path) -> AsyncIterator[str]:
    """A fresh database of the test's backend: the SQLite path, or a PostgreSQL URL on its own schema."""
    if backend == "sqlite":
        yield str(db_path)
        return
    base = pg_base_url()
    schema = await create_schema(base)
    try:
        yield with_schema(base, schema)
    finally:
        await drop_schema(base, schema)


@pytest.fixture
async def storage(database_url: str) -> AsyncIterator[Storage]:
    s = await Storage.open(database_url)
    try:
        yield s
    finally:
        await s.close()


async def raw_execute(url_or_path: str, sql: str, *args: Any) -> None:
    """Run one statement outside ``Storage`` (sqlite3 or asyncpg), as a foreign writer would; raises
    the driver's own error."""
    if url_or_path.startswith("postgresql://"):
        conn = await asyncpg.connect(url_or_path)
        try:
            await conn.execute(to_dollar(sql), *args)
        finally:
            await conn.close()
        return
    import sqlite3

    with sqlite3.connect(url_or_path) as conn:
        conn.execute(sql, args)
