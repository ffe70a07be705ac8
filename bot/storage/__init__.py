"""Async persistence for the bot: games, the append-only action log, openskill ratings and stats,
history, clocks, guild settings, user preferences and a meta table, on SQLite (aiosqlite, the
default) or PostgreSQL (asyncpg, ``DATABASE_URL=postgresql://...``). Knows no discord types and no
game by name: ids are ints, states are dicts, results are generic (``results.GameResult``).

Usage::

    storage = await Storage.open(default_db_path())          # or "postgresql://user@host/db"
    game_id = await storage.create_game("constructo", guild_id, channel_id, match.to_dict(), [alice, bob])
    version = await storage.apply_action(game_id, 0, match.to_dict(), player=alice, action="M5")
"""

from .backend import parse_target, redact_url
from .db import Storage
from .effects import Effect, Owed
from .errors import (
    ChannelBusyError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseMismatchError,
    DatabaseUnavailableError,
    DatabaseUnusableError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    NotOurDatabaseError,
    SchemaTooNewError,
    StorageError,
    VersionConflictError,
)
from .games import UNCHANGED
from .paths import DB_FILENAME, data_dir, default_db_path
from .ratings import display as display_rating
from .records import (
    OPEN_STATUSES,
    STATUSES,
    WDL,
    ActionRecord,
    GameRecord,
    HistoryRow,
    PlayerStats,
    RatingChange,
    RatingRow,
)
from .results import OUTCOMES, GameResult
from .validate import PREF_KEYS

__all__ = [
    "DB_FILENAME",
    "OPEN_STATUSES",
    "OUTCOMES",
    "PREF_KEYS",
    "STATUSES",
    "UNCHANGED",
    "WDL",
    "ActionRecord",
    "ChannelBusyError",
    "CorruptDatabaseError",
    "DatabaseLockedError",
    "DatabaseMismatchError",
    "DatabaseUnavailableError",
    "DatabaseUnusableError",
    "Effect",
    "GameClosedError",
    "GameNotFoundError",
    "GameRecord",
    "GameResult",
    "HistoryRow",
    "InvalidDataError",
    "NotOurDatabaseError",
    "Owed",
    "PlayerStats",
    "RatingChange",
    "RatingRow",
    "SchemaTooNewError",
    "Storage",
    "StorageError",
    "VersionConflictError",
    "data_dir",
    "default_db_path",
    "display_rating",
    "parse_target",
    "redact_url",
]
