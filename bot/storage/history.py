"""A player's finished games, newest first, paged by game id (``/history``)."""

from __future__ import annotations

import json
from typing import Any

from . import ratings as rating_math
from . import validate as check
from .connection import Connection, _utc
from .errors import InvalidDataError
from .games import load_result
from .records import HistoryRow


class HistoryMixin(Connection):
    """Game history (part of ``Storage``)."""

    async def finished_games(
        self,
        guild_id: int,
        user_id: int,
        *,
        kind: str | None = None,
        limit: int = 10,
        before_id: int | None = None,
        after_id: int | None = None,
    ) -> list[HistoryRow]:
        """The finished games ``user_id`` sat in, in ``guild_id`` (optionally one ``kind``), newest first:
        at most ``limit`` (1..100) with ``game id < before_id`` (the next page starts below the last row's
        ``game_id``); with ``after_id`` the ``limit`` *oldest* games with ``game id > after_id`` (the page above
        the one starting at ``after_id``), still returned newest first. Aborted games are left out. Each row
        carries the players, the result (ranking, W/D/L, reason, scores), whether it was rated or against the AI,
        this user's outcome and place, and their displayed rating change (``None`` if unrated).
        Raises ``InvalidDataError``."""
        guild_id = check.snowflake(guild_id, "guild_id")
        user_id = check.snowflake(user_id, "user_id")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 100:
            raise InvalidDataError("limit must be 1..100", field="limit")
        where = "p.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"
        params: list[Any] = [user_id, guild_id]
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(check.kind(kind))
        if before_id is not None:
            where += " AND g.id < ?"
            params.append(check.snowflake(before_id, "before_id"))
        if after_id is not None:
            where += " AND g.id > ?"
            params.append(check.snowflake(after_id, "after_id"))
        order = "ASC" if after_id is not None else "DESC"
        rows = await self._all(
            "SELECT g.id, g.kind, g.guild_id, g.channel_id, coalesce(g.finished_at, g.updated_at), g.result_json,"
            f" g.end_reason, {self.backend.sql.seats_json}, rc.mu_before, rc.sigma_before, rc.mu_after, rc.sigma_after,"
            " (SELECT count(*) FROM game_outcomes o WHERE o.guild_id = g.guild_id AND o.kind = g.kind"
            "  AND o.user_id = p.user_id AND o.rated = 1 AND o.game_id <= g.id)"
            " FROM game_players p JOIN games g ON g.id = p.game_id"
            " LEFT JOIN rating_changes rc ON rc.game_id = g.id AND rc.user_id = p.user_id"
            f" WHERE {where} ORDER BY g.id {order} LIMIT ?",
            (*params, limit),
        )
        found = [_row(r, user_id) for r in rows]
        return found[::-1] if after_id is not None else found


def _row(r: Any, user_id: int) -> HistoryRow:
    result = load_result(r[5])
    seats = sorted(json.loads(r[7] or "[]"))
    delta = after = shown = None
    if r[8] is not None:
        after = rating_math.display(r[10], r[11])
        delta = after - rating_math.display(r[8], r[9])
        shown = rating_math.shown(r[10], r[11], int(r[12]))
    outcomes = result.outcomes() if result else {}
    return HistoryRow(
        game_id=r[0],
        kind=r[1],
        guild_id=r[2],
        channel_id=r[3],
        user_id=user_id,
        finished_at=_utc(r[4]),
        players=[uid for _seat, uid in seats],
        ranking=result.ranking if result else (),
        results=outcomes,
        reason=(result.reason if result and result.reason else r[6]),
        scores=result.scores if result else None,
        rated=bool(result and result.rated),
        vs_ai=bool(result and result.ai_seats),
        outcome=outcomes.get(user_id),
        place=result.places().get(user_id) if result else None,
        rating_delta=delta,
        rating_after=after,
        rating_shown=shown,
    )
