"""Counts behind the caps on open games (issue 22, ``bot/services/caps.py``): a member's and a guild's open games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import validate as check
from .connection import Connection


@dataclass(frozen=True)
class OpenGames:
    """The open games (status ``lobby`` or ``active``) of one guild as the caps see them.

    ``member``: the member's (seated, see :meth:`LimitsMixin.open_games`); ``guild``: every one of the guild;
    ``channels``: the channel (or thread) id of each of the guild's open games."""

    member: int
    guild: int
    channels: tuple[int, ...]


class LimitsMixin(Connection):
    """Open-game counts (part of ``Storage``)."""

    async def open_games(self, guild_id: int, user_id: int, *, invited_kinds: Sequence[str] = ()) -> OpenGames:
        """The open games of guild ``guild_id`` and those of member ``user_id`` there: every ``active`` game they
        sit in, and every ``lobby`` they host (seat 0) or joined; a ``lobby`` of a kind in ``invited_kinds``
        (challenge kinds: seat 1 is the invited user, who has not agreed yet) counts for its host only. Two reads
        (not one snapshot: a count, not a reservation). Raises ``InvalidDataError`` for a bad id."""
        guild_id = check.snowflake(guild_id, "guild_id")
        user_id = check.snowflake(user_id, "user_id")
        kinds = tuple(invited_kinds)
        in_lobby = f"p.seat = 0 OR g.kind NOT IN ({', '.join('?' for _ in kinds)})" if kinds else "1 = 1"
        row = await self._one(
            "SELECT count(DISTINCT g.id) FROM games g JOIN game_players p ON p.game_id = g.id"
            " WHERE g.guild_id = ? AND p.user_id = ?"
            f" AND (g.status = 'active' OR (g.status = 'lobby' AND ({in_lobby})))",
            (guild_id, user_id, *kinds),
        )
        rows = await self._all(
            "SELECT channel_id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active')", (guild_id,)
        )
        return OpenGames(int(row[0]) if row else 0, len(rows), tuple(int(r[0]) for r in rows))
