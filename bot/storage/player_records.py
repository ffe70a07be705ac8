"""A player's records for ``/stats`` (issue 25): head-to-head against one opponent, best win streak, and results
broken down by one of the game's options (Constructo: round 1's layout).

Read from ``game_outcomes`` (one row per human seat of every game finished with a result, aborted games have none)
and ``games.initial_state_json`` (the envelope stored at creation, whose ``options`` the game chose then). The SQL
is written once for SQLite and PostgreSQL (window functions, ``GROUP BY`` position); only the JSON read differs
(:data:`OPTION_SQL`). Knows no game by name: the caller names the option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import validate as check
from .connection import Connection
from .errors import InvalidDataError
from .records import WDL

__all__ = ["OPTION_SQL", "OptionRecord", "PlayerRecordsMixin"]

OPTION_SQL: dict[str, str] = {
    "sqlite": "json_extract(g.initial_state_json, '$.options.' || ?)",
    "postgresql": "((g.initial_state_json::json -> 'options') ->> CAST(? AS text))",
}
"""Per dialect: the text of option ``?`` of game ``g`` (NULL when the game has no such option), read from the state
stored at creation (options are chosen then, and that state is far smaller than the finished one)."""

_OPTION = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


@dataclass(frozen=True)
class OptionRecord:
    """Results of the games played with one value of an option (``Storage.results_by_option``).

    ``value``: the option's stored text (``None`` for games stored without it); ``people``: W/D/L of games without
    an AI seat; ``vs_ai``: W/D/L of games against the AI."""

    value: str | None
    people: WDL
    vs_ai: WDL


def _wdl(counts: dict[str, int]) -> WDL:
    return WDL(counts.get("win", 0), counts.get("draw", 0), counts.get("loss", 0))


class PlayerRecordsMixin(Connection):
    """Head-to-head, best streak, results by option (part of ``Storage``)."""

    async def head_to_head(self, guild_id: int, kind: str, user_id: int, opponent_id: int) -> WDL:
        """``user_id``'s wins, draws and losses in the games of ``kind`` in ``guild_id`` where ``opponent_id`` also
        sat (rated or not; games with more seats count ``user_id``'s own outcome in them). Raises
        ``InvalidDataError`` for a malformed id or kind, or the same user twice."""
        guild_id, kind, user_id, opponent_id = _pair(guild_id, kind, user_id, opponent_id)
        rows = await self._all(
            "SELECT a.outcome, count(*) FROM game_outcomes a JOIN game_outcomes b ON b.game_id = a.game_id"
            " WHERE a.guild_id = ? AND a.kind = ? AND a.user_id = ? AND b.user_id = ? GROUP BY a.outcome",
            (guild_id, kind, user_id, opponent_id),
        )
        return _wdl({str(o): int(n) for o, n in rows})

    async def places_against(self, guild_id: int, kind: str, user_id: int, opponent_id: int) -> WDL:
        """In the games of ``kind`` in ``guild_id`` where both sat: how often ``user_id`` finished ahead of
        ``opponent_id`` (``wins``), level with them (``draws``) or behind them (``losses``), by their places: the
        head-to-head of a game of places, where a 2nd place ahead of them is no loss. Raises ``InvalidDataError``
        as :meth:`head_to_head`."""
        guild_id, kind, user_id, opponent_id = _pair(guild_id, kind, user_id, opponent_id)
        rows = await self._all(
            "SELECT CASE WHEN a.place < b.place THEN 'win' WHEN a.place > b.place THEN 'loss' ELSE 'draw' END,"
            " count(*) FROM game_outcomes a JOIN game_outcomes b ON b.game_id = a.game_id"
            " WHERE a.guild_id = ? AND a.kind = ? AND a.user_id = ? AND b.user_id = ? GROUP BY 1",
            (guild_id, kind, user_id, opponent_id),
        )
        return _wdl({str(o): int(n) for o, n in rows})

    async def best_streak(self, guild_id: int, kind: str, user_id: int) -> int:
        """The longest run of consecutive wins of ``user_id`` in their finished games of ``kind`` in ``guild_id``
        against people (games with an AI seat are left out and do not break a run), in the order the games were
        created (game id); 0 without a win. Raises ``InvalidDataError``."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
        user_id = check.snowflake(user_id, "user_id")
        # gaps and islands: within a run of equal outcomes, (row number) - (row number among that outcome) is constant
        row = await self._one(
            "SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM ("
            " SELECT outcome, row_number() OVER (ORDER BY game_id)"
            "  - row_number() OVER (PARTITION BY outcome ORDER BY game_id) AS island"
            " FROM game_outcomes WHERE guild_id = ? AND kind = ? AND user_id = ? AND vs_ai = 0) runs"
            " WHERE outcome = 'win' GROUP BY island) streaks",
            (guild_id, kind, user_id),
        )
        return int(row[0]) if row else 0

    async def results_by_option(self, guild_id: int, kind: str, user_id: int, option: str) -> list[OptionRecord]:
        """``user_id``'s results in the finished games of ``kind`` in ``guild_id``, grouped by the value of the game
        option ``option`` (a name like ``layout``), most played first (ties by value). Raises
        ``InvalidDataError`` for a malformed id, kind or option name."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
        user_id = check.snowflake(user_id, "user_id")
        if not isinstance(option, str) or not _OPTION.match(option):
            raise InvalidDataError(f"option name {option!r} is not a plain name", field="option")
        expr = OPTION_SQL[self.backend.sql.name]
        rows = await self._all(
            f"SELECT {expr}, o.vs_ai, o.outcome, count(*) FROM game_outcomes o JOIN games g ON g.id = o.game_id"
            " WHERE o.guild_id = ? AND o.kind = ? AND o.user_id = ? GROUP BY 1, 2, 3",
            (option, guild_id, kind, user_id),
        )
        tallies: dict[str | None, tuple[dict[str, int], dict[str, int]]] = {}
        for value, vs_ai, outcome, n in rows:
            key = None if value is None else str(value)
            people, ai = tallies.setdefault(key, ({}, {}))
            bucket = ai if vs_ai else people
            bucket[str(outcome)] = bucket.get(str(outcome), 0) + int(n)
        found = [OptionRecord(v, _wdl(p), _wdl(a)) for v, (p, a) in tallies.items()]
        found.sort(key=lambda r: (-(r.people.games + r.vs_ai.games), r.value or ""))
        return found


def _pair(guild_id: int, kind: str, user_id: int, opponent_id: int) -> tuple[int, str, int, int]:
    """The arguments of a record of one player against another, checked (``InvalidDataError``: a malformed id or
    kind, or the same user twice)."""
    guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
    user_id = check.snowflake(user_id, "user_id")
    opponent_id = check.snowflake(opponent_id, "opponent_id")
    if user_id == opponent_id:
        raise InvalidDataError("a player has no record against themselves", field="opponent_id")
    return guild_id, kind, user_id, opponent_id
