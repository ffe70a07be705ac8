"""Errors raised by ``bot.storage``.

They mirror the shape of ``engine.errors.RuleError`` so the bot can turn every refusal into the
user's language in one place: ``.rule`` is a machine-readable code, ``.message`` an English
sentence a person can act on, ``.details`` the facts behind it, and ``str(err)`` is
``"<rule>: <message>"``. None of them leaves the database changed: the transaction that raised
is rolled back.
"""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """Base class of every storage refusal (rule code ``"Storage"``)."""

    default_rule = "Storage"

    def __init__(self, message: str, *, rule: str | None = None, **details: Any) -> None:
        self.rule = rule or self.default_rule
        self.message = message
        self.details = details
        super().__init__(f"{self.rule}: {message}")


class DatabaseUnusableError(StorageError):
    """Base of the start-up refusals: the bot must not run on this database as it is. Each subclass
    has its own exit code in ``python -m bot`` (README "Operating the bot")."""

    default_rule = "DatabaseUnusable"


class SchemaTooNewError(DatabaseUnusableError):
    """The database file was written by a newer version of the bot (its ``user_version`` is above
    the highest migration this code knows). Rule code ``"SchemaTooNew"``; details ``db_version``,
    ``code_version``, ``path``."""

    default_rule = "SchemaTooNew"


class NotOurDatabaseError(DatabaseUnusableError):
    """The file is an SQLite database of another application (``PRAGMA application_id``).
    Rule code ``"NotOurDatabase"``."""

    default_rule = "NotOurDatabase"


class GameNotFoundError(StorageError, LookupError):
    """No game has this id. Rule code ``"GameNotFound"``; details ``game_id``."""

    default_rule = "GameNotFound"


class ChannelBusyError(StorageError):
    """The channel (or thread) already has an open game: one in ``lobby`` or ``active`` status.
    Rule code ``"ChannelBusy"``; details ``channel_id``, ``game_id`` (the open game)."""

    default_rule = "ChannelBusy"


class VersionConflictError(StorageError):
    """The game moved on since it was read: someone else acted first (optimistic concurrency).
    Reload the game and try again. Rule code ``"VersionConflict"``; details ``game_id``,
    ``expected``, ``actual``."""

    default_rule = "VersionConflict"


class GameClosedError(StorageError):
    """The game is already ``finished`` or ``aborted``: nothing more can be applied to it.
    Rule code ``"GameClosed"``; details ``game_id``, ``status``."""

    default_rule = "GameClosed"


class InvalidDataError(StorageError, ValueError):
    """An argument the storage refuses before touching the database: unknown kind or status, a
    state that is not JSON, a malformed ranking, an unknown preference... Rule code ``"Input"``
    like the engine's ``InvalidInputError``; details name the field."""

    default_rule = "Input"


class CorruptDatabaseError(DatabaseUnusableError):
    """The SQLite file is not a database, is damaged (``PRAGMA quick_check`` failed) or cannot be read.
    Rule code ``"CorruptDatabase"``; details ``path``."""

    default_rule = "CorruptDatabase"


class DatabaseMismatchError(DatabaseUnusableError):
    """The SQLite file is not the database that was here: an older copy, another installation's file, or
    a main file that does not match the ``-wal`` left beside it (which would start the bot empty).
    Rule code ``"DatabaseMismatch"``; details ``path`` and what was expected."""

    default_rule = "DatabaseMismatch"


class DatabaseLockedError(DatabaseUnusableError):
    """Another process already runs on this SQLite file (one process per file). Rule code
    ``"DatabaseLocked"``; details ``path``, ``pid`` (the holder, when known)."""

    default_rule = "DatabaseLocked"


class DatabaseUnavailableError(DatabaseUnusableError):
    """The PostgreSQL server does not answer, or refuses the connection (authentication, no such
    database). Rule code ``"DatabaseUnavailable"``; details ``url`` (password hidden)."""

    default_rule = "DatabaseUnavailable"
