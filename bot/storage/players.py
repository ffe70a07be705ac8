"""Per-user data: ratings, the leaderboard and stats, preferences; and the meta key/value table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import ratings as rating_math
from . import validate as check
from .backend import Tx
from .connection import Connection
from .errors import (
    InvalidDataError,
)
from .records import (
    WDL,
    PlayerStats,
    RatingChange,
    RatingRow,
)

_RATING_COLUMNS = "r.user_id, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.losses, r.draws"
_EST = f"CASE WHEN {{t}}.games >= {rating_math.PROVISIONAL_GAMES} THEN 1 ELSE 0 END"
ORDER = f"{_EST.format(t='r')} DESC, r.mu DESC, r.games DESC, r.updated_at, r.user_id"
"""The leaderboard's order (``ratings`` module docstring): established players first, then the rating, then more
rated games, then who reached it first (the older last rated game), then the lower user id."""
_EB, _ER = _EST.format(t="b"), _EST.format(t="r")
_SAME = "b.guild_id = r.guild_id AND b.kind = r.kind"
_AHEAD = (
    f"{_EB} > {_ER}",
    f"{_EB} = {_ER} AND b.mu > r.mu",
    f"{_EB} = {_ER} AND b.mu = r.mu AND b.games > r.games",
    f"{_EB} = {_ER} AND b.mu = r.mu AND b.games = r.games AND b.updated_at < r.updated_at",
    f"{_EB} = {_ER} AND b.mu = r.mu AND b.games = r.games AND b.updated_at = r.updated_at AND b.user_id < r.user_id",
)
# Rank = 1 + players strictly ahead in ORDER: one count per tie-break level, each a range of the index
# ratings_order (migration 0005), so a rank costs what the players ahead cost, not the whole guild.
_RANK = "(1 + " + " + ".join(f"(SELECT count(*) FROM ratings b WHERE {_SAME} AND {term})" for term in _AHEAD) + ")"


def _rating(row: Sequence[Any], rank: int) -> RatingRow:
    return RatingRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], rank)


class PlayersMixin(Connection):
    """Ratings, leaderboard, preferences and meta (part of ``Storage``)."""

    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Rated players of a guild for one game kind, best first in :data:`ORDER` (established players, then the
        rating, then more games, then who reached it first, then user id); ``rank`` is 1-based.
        ``limit`` 1..100, ``offset`` >= 0, else ``InvalidDataError``."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
        if not isinstance(limit, int) or not 1 <= limit <= 100 or not isinstance(offset, int) or offset < 0:
            raise InvalidDataError("limit must be 1..100 and offset >= 0", field="limit")
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings r WHERE r.guild_id = ? AND r.kind = ?"
            f" ORDER BY {ORDER} LIMIT ? OFFSET ?",
            (guild_id, kind, limit, offset),
        )
        return [_rating(row, offset + i) for i, row in enumerate(rows, start=1)]

    async def rating_of(self, guild_id: int, kind: str, user_id: int) -> RatingRow | None:
        """One player's rating and leaderboard rank, or ``None`` if they have no rated game yet."""
        row = await self._one(
            f"SELECT {_RATING_COLUMNS}, {_RANK} FROM ratings r WHERE r.guild_id = ? AND r.kind = ? AND r.user_id = ?",
            (check.snowflake(guild_id, "guild_id"), check.kind(kind), check.snowflake(user_id, "user_id")),
        )
        return _rating(row, row[8]) if row else None

    async def rated_players(self, guild_id: int, kind: str) -> int:
        """How many players have a rating in this guild and kind (for leaderboard pages)."""
        row = await self._one(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND kind = ?",
            (check.snowflake(guild_id, "guild_id"), check.kind(kind)),
        )
        return int(row[0])

    async def rating_changes(self, game_id: int) -> list[RatingChange]:
        """What a rated game did to each player's rating, in ranking order (empty if unrated), with each player's
        rated games of that guild and kind up to this one (``RatingChange.games``: the provisional ``?``)."""
        rows = await self._all(
            "SELECT rc.game_id, rc.user_id, rc.place, rc.outcome, rc.mu_before, rc.sigma_before, rc.mu_after,"
            " rc.sigma_after, (SELECT count(*) FROM game_outcomes o WHERE o.guild_id = g.guild_id AND o.kind = g.kind"
            "  AND o.user_id = rc.user_id AND o.rated = 1 AND o.game_id <= rc.game_id)"
            " FROM rating_changes rc JOIN games g ON g.id = rc.game_id"
            " WHERE rc.game_id = ? ORDER BY rc.place, rc.user_id",
            (check.snowflake(game_id, "game_id"),),
        )
        return [RatingChange(*row) for row in rows]

    async def player_stats(self, guild_id: int, kind: str, user_id: int) -> PlayerStats:
        """A player's record in a guild and game kind: rating and rank, rated W/D/L, places (``{1: n,
        2: n, ...}`` over rated games), games against the AI (W/D/L and places) and other unrated games (W/D/L).
        Counts only games finished with a result."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
        user_id = check.snowflake(user_id, "user_id")
        rows = await self._all(
            "SELECT rated, vs_ai, place, outcome, count(*) FROM game_outcomes"
            " WHERE guild_id = ? AND kind = ? AND user_id = ? GROUP BY rated, vs_ai, place, outcome",
            (guild_id, kind, user_id),
        )
        tallies: dict[str, dict[str, int]] = {"rated": {}, "vs_ai": {}, "casual": {}}
        places: dict[str, dict[int, int]] = {"rated": {}, "vs_ai": {}, "casual": {}}
        for rated, vs_ai, place, outcome, n in rows:
            bucket = "rated" if rated else "vs_ai" if vs_ai else "casual"
            tallies[bucket][outcome] = tallies[bucket].get(outcome, 0) + int(n)
            places[bucket][int(place)] = places[bucket].get(int(place), 0) + int(n)

        def wdl(name: str) -> WDL:
            t = tallies[name]
            return WDL(t.get("win", 0), t.get("draw", 0), t.get("loss", 0))

        return PlayerStats(
            user_id=user_id,
            rating=await self.rating_of(guild_id, kind, user_id),
            rated=wdl("rated"),
            places=dict(sorted(places["rated"].items())),
            vs_ai=wdl("vs_ai"),
            vs_ai_places=dict(sorted(places["vs_ai"].items())),
            casual=wdl("casual"),
        )

    # ------------------------------------------------------------------ preferences and meta
    async def get_prefs(self, user_id: int) -> dict[str, str | None]:
        """``{"language": ..., "palette": ..., "theme": ..., "alerts": ...}``; ``None`` = not set (use the
        default, e.g. the interaction's locale for the language; no alerts)."""
        row = await self._one(
            f"SELECT {', '.join(check.PREF_KEYS)} FROM user_prefs WHERE user_id = ?",  # whitelisted names
            (check.snowflake(user_id, "user_id"),),
        )
        return dict(zip(check.PREF_KEYS, row or (None,) * len(check.PREF_KEYS), strict=True))

    async def set_prefs(self, user_id: int, **prefs: str | None) -> dict[str, str | None]:
        """Set some preferences (``language="fr"``, ``palette="okabe-ito"``, ``theme="light"``; ``None``
        resets one); the others keep their value. Returns all preferences after the change. Raises
        ``InvalidDataError`` for an unknown key or a malformed value, changing nothing."""
        user_id = check.snowflake(user_id, "user_id")
        values = {name: check.pref(name, value) for name, value in prefs.items()}
        if values:
            cols = list(values)  # whitelisted names from PREF_KEYS, never user text
            sql = (
                f"INSERT INTO user_prefs (user_id, updated_at, {', '.join(cols)})"
                f" VALUES (?, ?, {', '.join('?' * len(cols))})"
                f" ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at,"
                f" {', '.join(f'{c} = excluded.{c}' for c in cols)}"
            )

            async def body(tx: Tx) -> None:
                await tx.execute(sql, (user_id, self._clock(), *values.values()))

            await self._write(body)
        return await self.get_prefs(user_id)

    async def users_with_alerts(self) -> list[int]:
        """User ids whose turn alerts are on (``alerts = 'dm'``)."""
        return [row[0] for row in await self._all("SELECT user_id FROM user_prefs WHERE alerts = 'dm'", ())]

    async def language_overrides(self) -> dict[int, str]:
        """``{user id: language}`` of every user who chose a language (``/mysettings language``)."""
        rows = await self._all("SELECT user_id, language FROM user_prefs WHERE language IS NOT NULL", ())
        return {int(uid): str(lang) for uid, lang in rows}

    async def get_meta(self, key: str) -> str | None:
        """The value stored under ``key``, or ``None``."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (check.key(key, "key"),))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str | None) -> None:
        """Store ``value`` under ``key`` (``None`` deletes it), e.g. ``"command_tree_hash"``."""
        key = check.key(key, "key")
        if value is not None and not isinstance(value, str):
            raise InvalidDataError("a meta value is text", field="value")

        async def body(tx: Tx) -> None:
            if value is None:
                await tx.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )

        await self._write(body)
