"""``Storage``: the bot's async repository over one SQLite file (aiosqlite).

Assembled from ``games.GamesMixin`` (games, action log, replay) and ``players.PlayersMixin``
(ratings, preferences, meta) over ``connection.Connection``.

Connection model: one **writer** connection, whose transactions are serialised by an
``asyncio.Lock`` and opened with ``BEGIN IMMEDIATE`` (so the write lock is taken up front and a
busy database makes us wait, via ``busy_timeout``, instead of failing half-way), and one
**reader** connection (``query_only``) that sees committed data only. WAL journal, foreign keys on,
``synchronous=FULL`` by default (a committed action survives a crash or power loss). Every
multi-row read is one SQL statement, hence one consistent snapshot. Parameters are always bound.
"""

from __future__ import annotations

from .games import GamesMixin
from .players import PlayersMixin


class Storage(GamesMixin, PlayersMixin):
    """Async persistence for games, the action log, ratings, preferences and meta.

    Open with ``await Storage.open(path)``; close with ``await storage.close()`` (or use
    ``async with``). All ids are ints; states are JSON-able dicts. Errors: see ``bot.storage.errors``.
    """
