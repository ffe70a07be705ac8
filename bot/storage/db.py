"""``Storage``: the bot's async repository, over SQLite (default) or PostgreSQL (``DATABASE_URL``).

Assembled from ``games.GamesMixin`` (games, versioned actions, results), ``guilds.GuildsMixin``
(clocks, guild settings, guild removal), ``log.ActionLogMixin`` (action log, replay),
``history.HistoryMixin`` (finished games of a player), ``players.PlayersMixin`` (ratings, stats,
preferences, meta), ``effects.EffectsMixin`` (the outbox of effects owed by commits) and ``queue.QueueMixin`` (the
quick-match queue), ``puzzles.PuzzlesMixin`` (daily puzzles, streaks), ``tourneys.TourneyMixin`` (tournaments) and
``player_records.PlayerRecordsMixin`` (head-to-head, best streak, results by option) over
``connection.Connection``, which runs their SQL on a ``backend.Backend``:
``sqlite_backend`` (aiosqlite, one file, one process) or ``pg_backend`` (asyncpg pool, shared).
"""

from __future__ import annotations

from .effects import EffectsMixin
from .guilds import GuildsMixin
from .history import HistoryMixin
from .limits import LimitsMixin
from .log import ActionLogMixin
from .player_records import PlayerRecordsMixin
from .players import PlayersMixin
from .puzzles import PuzzlesMixin
from .queue import QueueMixin
from .tourneys import TourneyMixin


class Storage(
    GuildsMixin,
    ActionLogMixin,
    HistoryMixin,
    PlayersMixin,
    PlayerRecordsMixin,
    EffectsMixin,
    LimitsMixin,
    QueueMixin,
    PuzzlesMixin,
    TourneyMixin,
):
    """Async persistence for games, the action log, ratings, stats, history, settings, preferences, meta.

    Open with ``await Storage.open(path_or_url)``; close with ``await storage.close()`` (or use
    ``async with``). All ids are ints; states are JSON-able dicts. Errors: see ``bot.storage.errors``.
    """
