"""Async persistence for the bot (aiosqlite): games, the append-only action log, openskill
ratings, user preferences and a meta table. Knows no discord types: ids are ints, states are dicts.

Usage::

    storage = await Storage.open(default_db_path())
    game_id = await storage.create_game("constructo", guild_id, channel_id, match.to_dict(), [alice, bob])
    version = await storage.apply_action(game_id, 0, match.to_dict(), player=alice, action="M5")
"""

from .db import Storage
from .errors import (
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    NotOurDatabaseError,
    SchemaTooNewError,
    StorageError,
    VersionConflictError,
)
from .paths import DB_FILENAME, data_dir, default_db_path
from .records import KINDS, OPEN_STATUSES, STATUSES, ActionRecord, GameRecord, GameResult, RatingChange, RatingRow
from .validate import PREF_KEYS

__all__ = [
    "DB_FILENAME",
    "KINDS",
    "OPEN_STATUSES",
    "PREF_KEYS",
    "STATUSES",
    "ActionRecord",
    "ChannelBusyError",
    "GameClosedError",
    "GameNotFoundError",
    "GameRecord",
    "GameResult",
    "InvalidDataError",
    "NotOurDatabaseError",
    "RatingChange",
    "RatingRow",
    "SchemaTooNewError",
    "Storage",
    "StorageError",
    "VersionConflictError",
    "data_dir",
    "default_db_path",
]
