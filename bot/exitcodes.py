"""Exit codes of ``python -m bot`` (README "Operating the bot" lists them for operators).

Each failure an operator must act on differently has its own code, printed with one line on stderr.
"""

from __future__ import annotations

from enum import IntEnum

from bot.storage.admin import RefusedError
from bot.storage.copy import TargetNotEmptyError
from bot.storage.errors import (
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseMismatchError,
    DatabaseUnavailableError,
    InvalidDataError,
    NotOurDatabaseError,
    SchemaTooNewError,
    StorageError,
)


class ExitCode(IntEnum):
    OK = 0
    """Normal stop (including SIGTERM/SIGINT after draining)."""
    UNHEALTHY = 1
    """``healthcheck``: no recent heartbeat. Reserved for that: nothing else exits 1 on purpose."""
    CONFIG = 2
    """A missing or malformed setting or command-line argument."""
    TOKEN_REJECTED = 3
    """Discord refused ``DISCORD_TOKEN``."""
    DISCORD_UNREACHABLE = 4
    """Discord (or ``DISCORD_API_BASE``) did not answer at start-up."""
    DATABASE_CORRUPT = 5
    """The SQLite file is not a database, fails its integrity check, or cannot be read."""
    DATABASE_MISMATCH = 6
    """The SQLite file is not the database that was there (older copy, other installation, main file not
    matching its ``-wal``): refused rather than starting empty."""
    DATABASE_LOCKED = 7
    """Another process already runs on this SQLite file."""
    DATABASE_UNAVAILABLE = 8
    """PostgreSQL did not answer or refused the connection."""
    DATABASE_INCOMPATIBLE = 9
    """The database is from a newer bot, or belongs to another program."""
    REFUSED = 10
    """An operator command refused to act (``migrate-db`` into a non-empty database, ``backup`` over an
    existing file, ``restore`` of something that is not a tablebot backup)."""
    CRASHED = 11
    """An unexpected error ended the bot (a bug, or a failure nothing above names): one line on stderr, the
    traceback in the log. Never 1, which ``healthcheck`` owns."""
    LEASE_LOST = 12
    """PostgreSQL: the process lost its shard lease while serving (the lease connection closed or went silent,
    ``bot.lease``), so another process may serve its shards now: it stopped at once. Restart it (it waits as
    standby while the shards are taken)."""


def for_storage_error(err: StorageError) -> ExitCode:
    """The exit code of a storage error met at start-up or by an operator command."""
    for kind, code in (
        (DatabaseLockedError, ExitCode.DATABASE_LOCKED),
        (CorruptDatabaseError, ExitCode.DATABASE_CORRUPT),
        (DatabaseMismatchError, ExitCode.DATABASE_MISMATCH),
        (DatabaseUnavailableError, ExitCode.DATABASE_UNAVAILABLE),
        (SchemaTooNewError, ExitCode.DATABASE_INCOMPATIBLE),
        (NotOurDatabaseError, ExitCode.DATABASE_INCOMPATIBLE),
        (TargetNotEmptyError, ExitCode.REFUSED),
        (RefusedError, ExitCode.REFUSED),
        (InvalidDataError, ExitCode.CONFIG),
    ):
        if isinstance(err, kind):
            return code
    if err.rule == "Refused":
        return ExitCode.REFUSED
    if err.rule == "Busy":
        return ExitCode.DATABASE_LOCKED
    return ExitCode.DATABASE_CORRUPT
