"""The small interface ``Storage`` runs on, so one repository serves SQLite and PostgreSQL.

A backend gives three things: reads (``fetch``: one statement, one consistent snapshot), write
transactions (``transaction(body)``: ``body(tx)`` runs inside one transaction that commits when it
returns and rolls back when it raises) and ``close()``. SQL is written once, in the subset both
databases speak, with ``?`` placeholders; the PostgreSQL backend rewrites them to ``$1, $2...``.
The few fragments that differ (JSON aggregation) come from ``Backend.sql``. A unique-constraint
failure surfaces as ``UniqueViolation`` whatever the driver, so callers map it to a refusal.

Targets (``parse_target``): a filesystem path, ``sqlite:///relative/path``,
``sqlite:////absolute/path`` (SQLAlchemy's convention), or ``postgresql://user@host:port/db``
(``postgres://`` too; any query parameter such as ``?search_path=...`` is passed to the server).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .errors import InvalidDataError

T = TypeVar("T")
Row = Sequence[Any]
Params = Sequence[Any]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class UniqueViolation(Exception):
    """A UNIQUE (or primary key) constraint refused a write; ``constraint`` names it when known."""

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint


class Tx(Protocol):
    """What a write transaction body may do. Every call runs inside the one open transaction."""

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None: ...

    async def execute(self, sql: str, params: Params = ()) -> None: ...

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None: ...


@dataclass(frozen=True)
class Dialect:
    """SQL fragments that differ between the databases (everything else is written once)."""

    name: str
    seats_json: str
    """Expression: the seated players of game ``g`` as JSON text ``[[seat, user_id], ...]`` (NULL if none)."""
    messages_json: str
    """Expression: the messages of game ``g`` as JSON text ``{"key": message_id, ...}`` (NULL if none)."""
    for_update: str
    """Suffix locking the rows a write transaction read (PostgreSQL ``FOR UPDATE``; SQLite: the whole
    database is already locked by ``BEGIN IMMEDIATE``)."""


SQLITE = Dialect(
    "sqlite",
    seats_json="(SELECT json_group_array(json_array(p.seat, p.user_id)) FROM game_players p WHERE p.game_id = g.id)",
    messages_json="(SELECT json_group_object(m.key, m.message_id) FROM game_messages m WHERE m.game_id = g.id)",
    for_update="",
)
POSTGRESQL = Dialect(
    "postgresql",
    seats_json="(SELECT json_agg(json_build_array(p.seat, p.user_id))::text FROM game_players p"
    " WHERE p.game_id = g.id)",
    messages_json="(SELECT json_object_agg(m.key, m.message_id)::text FROM game_messages m WHERE m.game_id = g.id)",
    for_update=" FOR UPDATE",
)


class Backend(ABC):
    """One open database. Subclasses: ``SqliteBackend``, ``PostgresBackend``."""

    sql: Dialect
    schema_version: int
    description: str
    """Where the data lives, for messages (a path, or the PostgreSQL URL without password)."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one read statement (a consistent snapshot) and return all its rows."""

    @abstractmethod
    async def transaction(self, body: Callable[[Tx], Awaitable[T]]) -> T:
        """Run ``body(tx)`` in one write transaction: committed if it returns, rolled back if it raises.
        The transaction runs to its end even if the caller is cancelled (shielded)."""

    @abstractmethod
    async def snapshot(self, queries: Sequence[str]) -> list[list[Row]]:
        """Run several read statements in one read transaction (one consistent view); their rows."""

    @abstractmethod
    async def close(self) -> None:
        """Wait for the write in progress, then release every connection."""

    async def after_commit_game(self, game_id: int) -> None:  # noqa: B027 (optional hook)
        """Called after a new game committed (the SQLite backend records it in its guard file)."""


@dataclass(frozen=True)
class Target:
    """A parsed database target: ``kind`` is ``"sqlite"`` (``path`` set) or ``"postgresql"`` (``url`` set)."""

    kind: str
    path: Path | None = None
    url: str | None = None

    @property
    def description(self) -> str:
        """The path, or the URL with any password hidden."""
        if self.path is not None:
            return str(self.path)
        return redact_url(self.url or "")


def redact_url(url: str) -> str:
    """``postgresql://user:secret@host/db`` -> ``postgresql://user:***@host/db`` (for logs and messages)."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, at, host = rest.rpartition("@")
    if ":" in creds:
        creds = creds.split(":", 1)[0] + ":***"
    return f"{scheme}{sep}{creds}{at}{host}"


def parse_target(target: str | os.PathLike[str]) -> Target:
    """Turn a path or URL into a ``Target``. Raises ``InvalidDataError`` (field ``database_url``) for an
    unknown scheme or an empty SQLite path."""
    if isinstance(target, os.PathLike):
        return Target("sqlite", path=Path(target))
    text = str(target).strip()
    if text.startswith(POSTGRES_SCHEMES):
        return Target("postgresql", url=text)
    if text.startswith("sqlite:"):
        rest = text[len("sqlite:") :]
        if not rest.startswith("///") or len(rest) <= 3:
            raise InvalidDataError(
                f"{text!r}: write sqlite:///relative/path.sqlite3 or sqlite:////absolute/path.sqlite3",
                field="database_url",
            )
        return Target("sqlite", path=Path(rest[3:]).expanduser())
    if "://" in text:
        raise InvalidDataError(
            f"unknown database URL scheme in {redact_url(text)!r}: use sqlite:///path or postgresql://...",
            field="database_url",
        )
    if not text:
        raise InvalidDataError("the database path is empty", field="database_url")
    return Target("sqlite", path=Path(text).expanduser())
