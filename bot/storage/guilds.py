"""Clocks (``wake_at``, ``due_games``), guild settings and the end of a guild's games (bot removed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from . import validate as check
from .backend import Tx
from .effects import shard_filter
from .errors import GameNotFoundError, InvalidDataError
from .games import UNCHANGED, GamesMixin
from .records import OPEN_STATUSES, GameRecord


class GuildsMixin(GamesMixin):
    """Clocks, guild settings, guild removal (part of ``Storage``)."""

    # ------------------------------------------------------------------ clocks
    async def set_wake_at(
        self, game_id: int, at: float | None, *, if_version: int | None = None, if_wake: Any = UNCHANGED
    ) -> bool:
        """Set (``None``: clear) when the game layer must next look at an open game, in Unix seconds,
        without bumping its version (``apply_action(..., wake_at=...)`` does it with an action). Returns
        False and changes nothing if the game is already finished or aborted, or (a compare-and-set: two processes
        handling one due game, one wins) its version is not ``if_version`` or its wake is not ``if_wake``. Raises
        ``GameNotFoundError``, ``InvalidDataError`` for a negative or non-finite time."""
        game_id = check.snowflake(game_id, "game_id")
        wake = check.timestamp(at, "wake_at")

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                f"SELECT status, version, wake_at FROM games WHERE id = ?{self.backend.sql.for_update}", (game_id,)
            )
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            if row[0] not in OPEN_STATUSES:
                return False
            if if_version is not None and int(row[1]) != if_version:
                return False
            if if_wake is not UNCHANGED and (None if row[2] is None else float(row[2])) != (
                None if if_wake is None else float(if_wake)
            ):
                return False
            await tx.execute("UPDATE games SET wake_at = ? WHERE id = ?", (wake, game_id))
            return True

        return await self._write(body)

    async def due_games(
        self, now: float, limit: int = 100, *, shards: tuple[int, Sequence[int]] | None = None
    ) -> list[GameRecord]:
        """Open games whose ``wake_at <= now`` (Unix seconds), the earliest ``wake_at`` first (then oldest
        game), at most ``limit`` (1..1000). ``shards = (shard_count, shard_ids)``: only games of guilds on those
        shards (Discord's ``(guild_id >> 22) % shard_count``), so a process never waits behind another process's
        games. Uses the partial index ``games_wake``."""
        moment = check.timestamp(now, "now")
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 1000:
            raise InvalidDataError("limit must be 1..1000", field="limit")
        where = "g.status IN ('lobby', 'active') AND g.wake_at IS NOT NULL AND g.wake_at <= ?"
        params: list[Any] = [moment]
        more, extra = shard_filter(shards, "g.guild_id")
        where += more
        params += extra
        return await self._games(where, (*params, limit), " ORDER BY g.wake_at, g.id LIMIT ?")

    # ------------------------------------------------------------------ guild settings
    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every setting stored for the guild, ``{name: JSON value}`` (empty when none: use the defaults)."""
        rows = await self._all(
            "SELECT key, value_json FROM guild_settings WHERE guild_id = ? ORDER BY key",
            (check.snowflake(guild_id, "guild_id"),),
        )
        return {k: json.loads(v) for k, v in rows}

    async def set_guild_settings(self, guild_id: int, **values: Any) -> dict[str, Any]:
        """Set some settings of a guild (names ``[a-z_]{1,32}``, values any JSON value up to 4000
        characters; ``None`` deletes one, back to the default). Others keep their value. Returns all the
        guild's settings after the change. Raises ``InvalidDataError`` (changing nothing) for a bad name
        or a value that is not JSON."""
        guild_id = check.snowflake(guild_id, "guild_id")
        prepared = {check.setting_key(k): (None if v is None else check.setting_json(k, v)) for k, v in values.items()}
        if prepared:

            async def body(tx: Tx) -> None:
                now = self._clock()
                for key, text in prepared.items():
                    if text is None:
                        await tx.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
                    else:
                        await tx.execute(
                            "INSERT INTO guild_settings (guild_id, key, value_json, updated_at) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT (guild_id, key) DO UPDATE SET value_json = excluded.value_json,"
                            " updated_at = excluded.updated_at",
                            (guild_id, key, text, now),
                        )

            await self._write(body)
        return await self.get_guild_settings(guild_id)

    async def reset_ratings(self, guild_id: int, kind: str) -> int:
        """Forget every rating of the guild in game ``kind`` (``/settings reset_ratings``): each player's next rated
        game starts again from the default rating, the leaderboard is empty until then. Finished games, their
        results and past rating changes stay (history, stats). Returns how many players had a rating."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)

        async def body(tx: Tx) -> int:
            row = await tx.fetchrow("SELECT count(*) FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind))
            await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND kind = ?", (guild_id, kind))
            return int(row[0]) if row else 0

        return await self._write(body)

    # ------------------------------------------------------------------ guild removal
    async def abort_guild_games(self, guild_id: int, *, reason: str = "guild_removed") -> list[GameRecord]:
        """End every open game of the guild as ``aborted`` in one transaction (the bot was removed from
        the guild): for each, version + 1, action ``"abort"`` logged by the bot (player ``None``),
        ``end_reason = reason``, clock cleared; never rated. Returns the games as they are afterwards
        (oldest first; empty if none was open). ``reason``: a code ``[a-z][a-z0-9_]{0,31}``."""
        guild_id = check.snowflake(guild_id, "guild_id")
        reason = check.reason(reason)
        lock = self.backend.sql.for_update

        async def body(tx: Tx) -> list[int]:
            rows = await tx.fetch(
                f"SELECT id, version FROM games WHERE guild_id = ? AND status IN ('lobby', 'active') ORDER BY id{lock}",
                (guild_id,),
            )
            now = self._clock()
            await tx.executemany(
                "UPDATE games SET status = 'aborted', version = ?, updated_at = ?, wake_at = NULL, finished_at = ?,"
                " end_reason = ? WHERE id = ? AND version = ?",
                [(v + 1, now, now, reason, gid, v) for gid, v in rows],
            )
            await tx.executemany(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, NULL, 'abort', ?)",
                [(gid, v + 1, now) for gid, v in rows],
            )
            await tx.execute("DELETE FROM effects WHERE guild_id = ?", (guild_id,))  # nothing goes there any more
            return [int(gid) for gid, _v in rows]

        ids = await self._write(body)
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return await self._games(f"g.id IN ({marks})", ids, " ORDER BY g.id")
