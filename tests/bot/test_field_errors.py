"""Unit tests of issue 22's storage-failure naming (``bot.errors.storage_failure`` / ``describe``): SQLite, PostgreSQL
(asyncpg) and OS errors, raised directly or as the cause of another error, in English and Spanish."""

from __future__ import annotations

import errno
import sqlite3

import asyncpg
import pytest

from bot.errors import describe, storage_failure
from bot.storage.errors import StorageError, VersionConflictError


def _chained(inner: BaseException) -> RuntimeError:
    try:
        try:
            raise inner
        except BaseException as exc:
            raise RuntimeError("while saving the game") from exc
    except RuntimeError as outer:
        return outer


@pytest.mark.parametrize(
    ("err", "kind"),
    [
        (sqlite3.OperationalError("database or disk is full"), "full"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "readonly"),
        (sqlite3.OperationalError("database is locked"), "busy"),
        (sqlite3.OperationalError("unable to open database file"), "gone"),
        (sqlite3.OperationalError("disk I/O error"), "gone"),
        (StorageError("stayed busy", rule="Busy"), "busy"),
        (StorageError("storage is closed", rule="Closed"), "gone"),
        (asyncpg.DiskFullError("no space"), "full"),
        (asyncpg.ReadOnlySQLTransactionError("read only"), "readonly"),
        (asyncpg.LockNotAvailableError("lock"), "busy"),
        (asyncpg.ConnectionDoesNotExistError("closed"), "gone"),
        (asyncpg.CannotConnectNowError("starting"), "gone"),
        (asyncpg.InterfaceError("pool is closing"), "gone"),
        (OSError(errno.ENOSPC, "No space left on device"), "full"),
        (OSError(errno.EROFS, "Read-only file system"), "readonly"),
        (_chained(sqlite3.OperationalError("database or disk is full")), "full"),
    ],
)
def test_recognised_storage_failures_are_named(err: BaseException, kind: str) -> None:
    assert storage_failure(err) == kind
    for locale, phrase in (("en-US", "not applied"), ("es-ES", "no se aplicó")):
        text = describe(err, locale)
        assert phrase in text and "went wrong" not in text.lower(), text


@pytest.mark.parametrize(
    "err",
    [
        sqlite3.IntegrityError("UNIQUE constraint failed"),
        VersionConflictError("moved on"),
        ValueError("x"),
        OSError(errno.ECONNRESET, "reset by peer"),
        ConnectionRefusedError(),
        KeyError("k"),
    ],
)
def test_other_errors_are_not_called_storage_failures(err: BaseException) -> None:
    assert storage_failure(err) is None
