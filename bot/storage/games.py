"""Games and the action log: create, read, apply version-checked actions, abort, replay."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import aiosqlite

from . import ratings as rating_math
from . import validate as check
from .connection import Connection, _utc
from .errors import (
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    StorageError,
    VersionConflictError,
)
from .records import (
    OPEN_STATUSES,
    ActionRecord,
    GameRecord,
    GameResult,
)

ResultArg = GameResult | Mapping[str, Any] | Sequence[Sequence[int]]

_GAME_COLUMNS = """
    g.id, g.kind, g.guild_id, g.channel_id, g.status, g.state_json, g.version, g.result_json,
    g.created_at, g.updated_at,
    (SELECT json_group_array(json_array(p.seat, p.user_id)) FROM game_players p WHERE p.game_id = g.id),
    (SELECT json_group_object(m.key, m.message_id) FROM game_messages m WHERE m.game_id = g.id)
"""
_FORWARD = {"lobby": {"lobby", "active", "finished", "aborted"}, "active": {"active", "finished", "aborted"}}


def _game(row: Sequence[Any]) -> GameRecord:
    seats = sorted(json.loads(row[10]))
    result = None
    if row[7] is not None:
        raw = json.loads(row[7])
        result = GameResult(tuple(tuple(g) for g in raw["ranking"]), bool(raw["rated"]))
    return GameRecord(
        id=row[0],
        kind=row[1],
        guild_id=row[2],
        channel_id=row[3],
        status=row[4],
        state=json.loads(row[5]),
        version=row[6],
        players=[uid for _seat, uid in seats],
        messages={k: int(v) for k, v in json.loads(row[11]).items()},
        created_at=_utc(row[8]),
        updated_at=_utc(row[9]),
        result=result,
    )


class GamesMixin(Connection):
    """Games, their players and messages, the action log (part of ``Storage``)."""

    async def create_game(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        state: dict[str, Any],
        players: Sequence[int],
        status: str = "lobby",
    ) -> int:
        """Create a game in ``lobby`` or ``active`` status at version 0 and return its id.

        ``players`` are user ids by seat (distinct; AI seats may use negative ids). Raises
        ``ChannelBusyError`` if the channel already has a lobby/active game (also enforced by a partial
        unique index), ``InvalidDataError`` for a bad argument."""
        kind = check.kind(kind)
        guild_id = check.snowflake(guild_id, "guild_id")
        channel_id = check.snowflake(channel_id, "channel_id")
        state_json = check.state_json(state)
        seats = check.players(players)
        status = check.status(status, OPEN_STATUSES)

        async def body(db: aiosqlite.Connection) -> int:
            await self._refuse_busy_channel(db, channel_id)
            now = self._clock()
            try:
                cur = await db.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, status, state_json, initial_state_json,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
                    (kind, guild_id, channel_id, status, state_json, state_json, now, now),
                )
            except sqlite3.IntegrityError as exc:  # the partial unique index, should the check above race
                raise ChannelBusyError(
                    f"channel {channel_id} already has a game in progress", channel_id=channel_id, game_id=None
                ) from exc
            game_id = int(cur.lastrowid or 0)
            await db.executemany(
                "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                [(game_id, seat, uid) for seat, uid in enumerate(seats)],
            )
            return game_id

        return await self._write(body)

    async def _refuse_busy_channel(self, db: aiosqlite.Connection, channel_id: int) -> None:
        async with db.execute(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is not None:
            raise ChannelBusyError(
                f"channel {channel_id} already has a game in progress (game {row[0]}): finish or abort it first",
                channel_id=channel_id,
                game_id=row[0],
            )

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or ``None``."""
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.id = ?", (check.snowflake(game_id, "id"),))
        return _game(row) if row else None

    async def active_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (``lobby`` or ``active``), or ``None``."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.channel_id = ? AND g.status IN ('lobby', 'active')",
            (check.snowflake(channel_id, "channel_id"),),
        )
        return _game(row) if row else None

    async def list_active_games(self, *, kind: str | None = None, guild_id: int | None = None) -> list[GameRecord]:
        """Every open (``lobby``/``active``) game, oldest first; optionally one kind or one guild only
        (used at startup to re-register views and by the turn scheduler)."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.status IN ('lobby', 'active')"
        params: list[Any] = []
        if kind is not None:
            sql += " AND g.kind = ?"
            params.append(check.kind(kind))
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(check.snowflake(guild_id, "guild_id"))
        return [_game(row) for row in await self._all(sql + " ORDER BY g.id", params)]

    async def apply_action(
        self,
        game_id: int,
        expected_version: int,
        new_state: dict[str, Any],
        *,
        player: int | None,
        action: str,
        status: str | None = None,
        players: Sequence[int] | None = None,
        result: ResultArg | None = None,
    ) -> int:
        """Record one accepted action, in one transaction: store ``new_state``, append ``action`` to the
        log as ``seq = expected_version + 1``, bump the version, and optionally change ``status``,
        replace the seated ``players`` (lobby joins) and, with ``result``, finish the game and update
        ratings. Returns the new version.

        ``result``: a ``GameResult``, ``{"ranking": [[user ids], ...], "rated": bool}`` or a bare
        ranking (rated), best group first, ties sharing a group; every seated player exactly once.
        It implies ``status="finished"``. Rated results update openskill ratings (see
        ``bot.storage.ratings`` for win/loss/draw).

        Raises ``VersionConflictError`` if the game is no longer at ``expected_version`` (someone acted
        first: reload and retry), ``GameNotFoundError``, ``GameClosedError`` (already finished or
        aborted), ``ChannelBusyError`` (never in practice: one open game per channel), and
        ``InvalidDataError`` for a bad argument (e.g. a status going backwards, a ranking that does not
        match the seated players). On any error nothing is written."""
        game_id = check.snowflake(game_id, "game_id")
        expected = check.version(expected_version)
        state_json = check.state_json(new_state)
        return await self._apply(game_id, expected, state_json, player, action, status, players, result)

    async def abort_game(self, game_id: int, expected_version: int, by_user: int | None) -> int:
        """Abort an open game (admin abort, or a lobby nobody joined): status ``aborted``, state
        unchanged, action ``"abort"`` logged for ``by_user`` (``None`` = the bot). Never rated. Frees
        the channel. Returns the new version; raises like ``apply_action``."""
        game_id = check.snowflake(game_id, "game_id")
        expected = check.version(expected_version)
        return await self._apply(game_id, expected, None, by_user, "abort", "aborted", None, None)

    async def _apply(
        self,
        game_id: int,
        expected: int,
        state_json: str | None,
        player: int | None,
        action: str,
        status: str | None,
        players: Sequence[int] | None,
        result: ResultArg | None,
    ) -> int:
        if player is not None:
            player = check.snowflake(player, "player")
        action = check.action_text(action)
        seats = check.players(players) if players is not None else None
        outcome = GameResult.coerce(result) if result is not None else None
        if status is not None:
            status = check.status(status)
        if outcome is not None:
            if status not in (None, "finished"):
                raise InvalidDataError(f"a game with a result is finished, not {status!r}", field="status")
            status = "finished"

        async def body(db: aiosqlite.Connection) -> int:
            async with db.execute(
                "SELECT kind, guild_id, channel_id, status, version FROM games WHERE id = ?", (game_id,)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            kind, guild_id, _channel, current, version = row
            if version != expected:
                raise VersionConflictError(
                    f"game {game_id} moved on (version {version}, expected {expected}): someone acted first",
                    game_id=game_id,
                    expected=expected,
                    actual=version,
                )
            if current not in OPEN_STATUSES:
                raise GameClosedError(f"game {game_id} is already {current}", game_id=game_id, status=current)
            new_status = status or current
            if new_status not in _FORWARD[current]:
                raise InvalidDataError(
                    f"game {game_id} cannot go from {current} back to {new_status}", field="status", status=new_status
                )
            now = self._clock()
            if seats is not None:
                await db.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
                await db.executemany(
                    "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                    [(game_id, seat, uid) for seat, uid in enumerate(seats)],
                )
            result_json = None
            if outcome is not None:
                await self._check_ranking(db, game_id, outcome)
                result_json = json.dumps(outcome.to_json())
                if outcome.rated:
                    await self._rate(db, game_id, guild_id, kind, outcome, now)
            await db.execute(
                "UPDATE games SET state_json = coalesce(?, state_json), version = ?, status = ?, updated_at = ?,"
                " result_json = coalesce(?, result_json) WHERE id = ? AND version = ?",
                (state_json, expected + 1, new_status, now, result_json, game_id, expected),
            )
            await db.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, expected + 1, player, action, now),
            )
            return expected + 1

        return await self._write(body)

    async def _check_ranking(self, db: aiosqlite.Connection, game_id: int, outcome: GameResult) -> None:
        async with db.execute("SELECT user_id FROM game_players WHERE game_id = ?", (game_id,)) as cur:
            seated = {r[0] for r in await cur.fetchall()}
        ranked = set(outcome.users)
        if ranked != seated:
            raise InvalidDataError(
                "the ranking must list every seated player exactly once",
                field="result.ranking",
                missing=sorted(seated - ranked),
                unknown=sorted(ranked - seated),
            )

    async def _rate(
        self, db: aiosqlite.Connection, game_id: int, guild_id: int, kind: str, outcome: GameResult, now: float
    ) -> None:
        users = outcome.users
        marks = ",".join("?" * len(users))
        async with db.execute(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND kind = ? AND user_id IN ({marks})",
            (guild_id, kind, *users),
        ) as cur:
            current = {r[0]: (r[1], r[2]) for r in await cur.fetchall()}
        updates = rating_math.rate(kind, outcome, current)
        await db.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " ordinal = excluded.ordinal, games = games + 1, wins = wins + excluded.wins,"
            " losses = losses + excluded.losses, draws = draws + excluded.draws, updated_at = excluded.updated_at",
            [
                (
                    guild_id,
                    kind,
                    u.user_id,
                    u.mu_after,
                    u.sigma_after,
                    u.ordinal_after,
                    int(u.outcome == "win"),
                    int(u.outcome == "loss"),
                    int(u.outcome == "draw"),
                    now,
                )
                for u in updates
            ],
        )
        await db.executemany(
            "INSERT INTO rating_changes (game_id, user_id, place, outcome, mu_before, sigma_before, mu_after,"
            " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, u.user_id, u.place, u.outcome, u.mu_before, u.sigma_before, u.mu_after, u.sigma_after)
                for u in updates
            ],
        )

    async def set_message(self, game_id: int, key: str, message_id: int | None) -> None:
        """Remember (or with ``None`` forget) a message the bot edits later, under ``key`` (e.g.
        ``"board"``, ``"lobby"``). Does not change the game's version. Raises ``GameNotFoundError``."""
        game_id = check.snowflake(game_id, "game_id")
        key = check.key(key, "key")
        if message_id is not None:
            message_id = check.snowflake(message_id, "message_id")

        async def body(db: aiosqlite.Connection) -> None:
            async with db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)) as cur:
                if await cur.fetchone() is None:
                    raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            if message_id is None:
                await db.execute("DELETE FROM game_messages WHERE game_id = ? AND key = ?", (game_id, key))
            else:
                await db.execute(
                    "INSERT INTO game_messages (game_id, key, message_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, key) DO UPDATE SET message_id = excluded.message_id",
                    (game_id, key, message_id),
                )

        await self._write(body)

    # ------------------------------------------------------------------ action log and replay
    async def actions(self, game_id: int, *, after_seq: int = 0) -> list[ActionRecord]:
        """The game's action log in order (``seq`` 1, 2, ...), optionally only ``seq > after_seq``.
        Raises ``GameNotFoundError`` if there is no such game."""
        game_id = check.snowflake(game_id, "game_id")
        rows = await self._all(
            "SELECT game_id, seq, player, action, at FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, int(after_seq)),
        )
        if not rows and await self._one("SELECT 1 FROM games WHERE id = ?", (game_id,)) is None:
            raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
        return [ActionRecord(r[0], r[1], r[2], r[3], _utc(r[4])) for r in rows]

    async def replay(
        self, game_id: int, step: Callable[[dict[str, Any], ActionRecord], dict[str, Any]]
    ) -> dict[str, Any]:
        """Replay the game from its creation state through its action log and check the result.

        ``step(state, action) -> state`` applies one logged action (a pure engine function; it sees
        bot-level actions too, such as ``"abort"``); it runs in a worker thread. Returns the replayed
        state. Raises ``StorageError`` with rule ``ReplayMismatch`` (details ``game_id``, ``seq``) if the
        log has a gap or the replayed state differs from the stored one, ``GameNotFoundError``."""
        game_id = check.snowflake(game_id, "game_id")
        row = await self._one("SELECT initial_state_json, state_json, version FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
        initial, stored, version = json.loads(row[0]), json.loads(row[1]), row[2]
        # The log is append-only, so `seq <= version` is exactly the history of the state read above.
        log = [a for a in await self.actions(game_id) if a.seq <= version]
        seqs = [a.seq for a in log]
        if seqs != list(range(1, version + 1)):
            raise StorageError(
                f"game {game_id}: the log does not hold actions 1..{version}",
                rule="ReplayMismatch",
                game_id=game_id,
                seq=next((i for i, s in enumerate(seqs, 1) if s != i), len(seqs) + 1),
            )

        def fold() -> dict[str, Any]:
            state = initial
            for entry in log:
                state = step(state, entry)
            return json.loads(json.dumps(state))

        replayed = await asyncio.to_thread(fold)
        if replayed != stored:
            raise StorageError(
                f"game {game_id}: replaying {version} actions does not give the stored state",
                rule="ReplayMismatch",
                game_id=game_id,
                seq=version,
            )
        return replayed
