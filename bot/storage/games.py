"""Games: create, read, apply version-checked actions (with results and clocks), abort."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from . import finish
from . import validate as check
from .backend import Tx, UniqueViolation
from .connection import Connection, _utc
from .effects import Owed, insert_owed
from .errors import (
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    VersionConflictError,
)
from .records import OPEN_STATUSES, GameRecord
from .results import GameResult

ResultArg = GameResult | Mapping[str, Any] | Sequence[Sequence[int]]


class _Unchanged:
    """Type of ``UNCHANGED``."""

    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Final = _Unchanged()
"""Default of ``apply_action(..., wake_at=...)``: keep the stored ``wake_at`` (cleared when the game closes)."""

_FORWARD = {"lobby": {"lobby", "active", "finished", "aborted"}, "active": {"active", "finished", "aborted"}}


def game_columns(seats_json: str, messages_json: str) -> str:
    """The select list ``_game`` reads (``g`` = games)."""
    return (
        "g.id, g.kind, g.guild_id, g.channel_id, g.status, g.state_json, g.version, g.result_json,"
        f" g.created_at, g.updated_at, g.wake_at, g.finished_at, g.end_reason, {seats_json}, {messages_json}"
    )


def load_result(text: str | None) -> GameResult | None:
    """The stored result JSON as a ``GameResult`` (``None`` if none)."""
    return GameResult.coerce(json.loads(text)) if text is not None else None


def _game(row: Sequence[Any]) -> GameRecord:
    seats = sorted(json.loads(row[13] or "[]"))
    return GameRecord(
        id=row[0],
        kind=row[1],
        guild_id=row[2],
        channel_id=row[3],
        status=row[4],
        state=json.loads(row[5]),
        version=row[6],
        players=[uid for _seat, uid in seats],
        messages={k: int(v) for k, v in json.loads(row[14] or "{}").items()},
        created_at=_utc(row[8]),
        updated_at=_utc(row[9]),
        result=load_result(row[7]),
        wake_at=row[10],
        finished_at=_utc(row[11]) if row[11] is not None else None,
        end_reason=row[12],
    )


class GamesMixin(Connection):
    """Games, their players and messages (part of ``Storage``)."""

    @property
    def _columns(self) -> str:
        return game_columns(self.backend.sql.seats_json, self.backend.sql.messages_json)

    async def _games(
        self, where: str, params: Sequence[Any], tail: str = "", *, state: bool = True
    ) -> list[GameRecord]:
        columns = self._columns if state else self._columns.replace("g.state_json", "'{}'", 1)
        rows = await self._all(f"SELECT {columns} FROM games g WHERE {where}{tail}", params)
        return [_game(row) for row in rows]

    async def create_game(
        self,
        kind: str,
        guild_id: int,
        channel_id: int,
        state: dict[str, Any],
        players: Sequence[int],
        status: str = "lobby",
        *,
        wake_at: float | None = None,
        owed: Sequence[Owed] = (),
    ) -> int:
        """Create a game in ``lobby`` or ``active`` status at version 0 and return its id.

        ``kind`` is any lowercase game name; ``players`` are user ids by seat (distinct; AI seats may use
        negative ids); ``wake_at`` (Unix seconds) schedules the game layer's first look (e.g. a challenge's
        expiry); ``owed``: effects the new game owes (the outbox, ``effects.py``), in the same transaction. Raises
        ``ChannelBusyError`` if the channel already has a lobby/active game (also enforced by
        a partial unique index), ``InvalidDataError`` for a bad argument."""
        kind = check.kind(kind)
        guild_id = check.snowflake(guild_id, "guild_id")
        channel_id = check.snowflake(channel_id, "channel_id")
        state_json = check.state_json(state)
        seats = check.players(players)
        status = check.status(status, OPEN_STATUSES)
        wake = check.timestamp(wake_at, "wake_at")

        async def body(tx: Tx) -> int:
            await _refuse_busy_channel(tx, channel_id)
            now = self._clock()
            try:
                row = await tx.fetchrow(
                    "INSERT INTO games (kind, guild_id, channel_id, status, state_json, initial_state_json,"
                    " version, created_at, updated_at, wake_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING id",
                    (kind, guild_id, channel_id, status, state_json, state_json, now, now, wake),
                )
            except UniqueViolation as exc:  # the partial unique index, should the check above race
                raise ChannelBusyError(
                    f"channel {channel_id} already has a game in progress", channel_id=channel_id, game_id=None
                ) from exc
            assert row is not None
            game_id = int(row[0])
            await tx.executemany(
                "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                [(game_id, seat, uid) for seat, uid in enumerate(seats)],
            )
            await insert_owed(tx, game_id, guild_id, 0, owed, now)
            return game_id

        game_id = await self._write(body)
        await self.backend.after_commit_game(game_id)
        return game_id

    async def get_game(self, game_id: int, *, state: bool = True) -> GameRecord | None:
        """The game with this id, or ``None``. ``state=False``: its ``state`` is left empty (``{}``), neither read
        nor decoded (for callers that need only its id, status, version, players or messages)."""
        found = await self._games("g.id = ?", (check.snowflake(game_id, "id"),), state=state)
        return found[0] if found else None

    async def active_game_in_channel(self, channel_id: int, *, state: bool = True) -> GameRecord | None:
        """The channel's open game (``lobby`` or ``active``), or ``None``; ``state`` as in :meth:`get_game`."""
        found = await self._games(
            "g.channel_id = ? AND g.status IN ('lobby', 'active')",
            (check.snowflake(channel_id, "channel_id"),),
            state=state,
        )
        return found[0] if found else None

    async def latest_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game whatever its status (its ``state`` left empty), or ``None``: what a command
        that finds no open game tells the player (a move that arrives just after its game ended)."""
        cid = check.snowflake(channel_id, "channel_id")
        found = await self._games("g.id = (SELECT MAX(id) FROM games WHERE channel_id = ?)", (cid,), state=False)
        return found[0] if found else None

    async def channels_with_games(self, channel_ids: Sequence[int]) -> set[int]:
        """Those of ``channel_ids`` (threads) that any stored game names as its channel, whatever its status (the
        orphan threads' check, ``bot/services/orphans.py``)."""
        ids = [check.snowflake(c, "channel_id") for c in channel_ids]
        found: set[int] = set()
        for at in range(0, len(ids), 500):
            part = ids[at : at + 500]
            marks = ", ".join("?" for _ in part)
            rows = await self._all(f"SELECT DISTINCT channel_id FROM games WHERE channel_id IN ({marks})", part)
            found.update(int(r[0]) for r in rows)
        return found

    async def list_active_games(
        self, *, kind: str | None = None, guild_id: int | None = None, lobby_only: bool = False
    ) -> list[GameRecord]:
        """Every open (``lobby``/``active``) game, oldest first; optionally one kind or one guild only
        (used at startup to re-register views and by the turn scheduler); ``lobby_only``: the pending challenges
        alone (selected in SQL: a guild's hundreds of running games are not read and decoded)."""
        where = "g.status = 'lobby'" if lobby_only else "g.status IN ('lobby', 'active')"
        params: list[Any] = []
        if kind is not None:
            where += " AND g.kind = ?"
            params.append(check.kind(kind))
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(check.snowflake(guild_id, "guild_id"))
        return await self._games(where, params, " ORDER BY g.id")

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
        wake_at: float | _Unchanged | None = UNCHANGED,
        owed: Sequence[Owed] = (),
    ) -> int:
        """Record one accepted action, in one transaction: store ``new_state``, append ``action`` to the
        log as ``seq = expected_version + 1``, bump the version, and optionally change ``status``,
        replace the seated ``players`` (lobby joins), set ``wake_at`` (Unix seconds or ``None``; default
        ``UNCHANGED``, except that closing a game clears it) and, with ``result``, finish the game and
        record it (ratings, W/D/L, places, vs-AI record), and write the effects it ``owed`` (the outbox,
        ``effects.py``; their version is the new one unless they name another). Returns the new version.

        ``result``: a ``GameResult``, a dict ``{"ranking": [[user ids], ...], "rated": bool, "results":
        {uid: "win"|"draw"|"loss"}, "reason": "E3", "scores": {uid: int}, "ai": [uid]}`` (only ``ranking``
        required) or a bare ranking (rated); see ``bot.storage.results``. It implies ``status="finished"``.

        Raises ``VersionConflictError`` if the game is no longer at ``expected_version`` (someone acted
        first: reload and retry), ``GameNotFoundError``, ``GameClosedError`` (already finished or
        aborted), ``InvalidDataError`` for a bad argument (e.g. a status going backwards, a ranking that
        does not match the seated players). On any error nothing is written."""
        game_id = check.snowflake(game_id, "game_id")
        expected = check.version(expected_version)
        state_json = check.state_json(new_state)
        return await self._apply(
            game_id, expected, state_json, player, action, status, players, result, wake_at, owed=owed
        )

    async def abort_game(
        self, game_id: int, expected_version: int, by_user: int | None, *, reason: str | None = None
    ) -> int:
        """Abort an open game (admin abort, or a lobby nobody joined): status ``aborted``, state
        unchanged, action ``"abort"`` logged for ``by_user`` (``None`` = the bot), ``end_reason`` =
        ``reason`` (default ``"abort"``). Never rated. Frees the channel. Returns the new version; raises
        like ``apply_action``."""
        game_id = check.snowflake(game_id, "game_id")
        expected = check.version(expected_version)
        if reason is not None:
            reason = check.reason(reason)
        return await self._apply(
            game_id, expected, None, by_user, "abort", "aborted", None, None, UNCHANGED, reason=reason
        )

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
        wake_at: float | _Unchanged | None,
        *,
        reason: str | None = None,
        owed: Sequence[Owed] = (),
    ) -> int:
        if player is not None:
            player = check.snowflake(player, "player")
        action = check.action_text(action)
        seats = check.players(players) if players is not None else None
        outcome = GameResult.coerce(result) if result is not None else None
        keep_wake = isinstance(wake_at, _Unchanged)
        wake = None if isinstance(wake_at, _Unchanged) else check.timestamp(wake_at, "wake_at")
        if status is not None:
            status = check.status(status)
        if outcome is not None:
            if status not in (None, "finished"):
                raise InvalidDataError(f"a game with a result is finished, not {status!r}", field="status")
            status = "finished"
        lock = self.backend.sql.for_update

        async def body(tx: Tx) -> int:
            row = await tx.fetchrow(
                f"SELECT kind, guild_id, status, version, wake_at FROM games WHERE id = ?{lock}", (game_id,)
            )
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            kind, guild_id, current, version, old_wake = row
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
            closing = new_status not in OPEN_STATUSES
            now = self._clock()
            if seats is not None:
                await tx.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
                await tx.executemany(
                    "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)",
                    [(game_id, seat, uid) for seat, uid in enumerate(seats)],
                )
            result_json = None
            end_reason = None
            if outcome is not None:
                await finish.check_ranking(tx, game_id, outcome)
                result_json = json.dumps(outcome.to_json())
                end_reason = outcome.reason
                await finish.record(tx, game_id, guild_id, kind, outcome, now, for_update=lock)
            elif new_status == "aborted":
                end_reason = reason or "abort"
            new_wake = (None if closing else old_wake) if keep_wake else wake
            await tx.execute(
                "UPDATE games SET state_json = coalesce(?, state_json), version = ?, status = ?, updated_at = ?,"
                " result_json = coalesce(?, result_json), wake_at = ?, finished_at = ?, end_reason = ?"
                " WHERE id = ? AND version = ?",
                (
                    state_json,
                    expected + 1,
                    new_status,
                    now,
                    result_json,
                    new_wake,
                    now if closing else None,
                    end_reason,
                    game_id,
                    expected,
                ),
            )
            await tx.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, expected + 1, player, action, now),
            )
            await insert_owed(tx, game_id, guild_id, expected + 1, owed, now)
            return expected + 1

        return await self._write(body)

    async def set_message(self, game_id: int, key: str, message_id: int | None) -> None:
        """Remember (or with ``None`` forget) a message the bot edits later, under ``key`` (e.g.
        ``"board"``, ``"lobby"``). Does not change the game's version. Raises ``GameNotFoundError``."""
        await self.set_messages(game_id, {key: message_id})

    async def set_messages(
        self,
        game_id: int,
        messages: Mapping[str, int | None],
        *,
        owed: Sequence[Owed] = (),
        done: Sequence[tuple[str, int]] = (),
    ) -> int:
        """:meth:`set_message` for several keys in one transaction (a board and the version it shows), with the
        effects this change ``owed`` (at the game's current version unless they name one) and the effects it
        completes: ``done`` = ``(kind, version)`` pairs, each forgetting that kind's effects of that version or
        older (the board just recorded is also the board older versions owed). Returns how many effects it
        completed."""
        game_id = check.snowflake(game_id, "game_id")
        items = [
            (check.key(key, "key"), None if mid is None else check.snowflake(mid, "message_id"))
            for key, mid in messages.items()
        ]

        async def body(tx: Tx) -> int:
            row = await tx.fetchrow("SELECT guild_id, version FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            await insert_owed(tx, game_id, int(row[0]), int(row[1]), owed, self._clock())
            completed = 0
            for kind, version in done:
                gone = await tx.fetch(
                    "DELETE FROM effects WHERE game_id = ? AND kind = ? AND version <= ? RETURNING id",
                    (game_id, str(kind), int(version)),
                )
                completed += len(gone)
            gone = [(game_id, key) for key, message_id in items if message_id is None]
            kept = [(game_id, key, message_id) for key, message_id in items if message_id is not None]
            if gone:
                await tx.executemany("DELETE FROM game_messages WHERE game_id = ? AND key = ?", gone)
            if kept:  # one batch (a board and its version: one round trip on PostgreSQL, not two)
                await tx.executemany(
                    "INSERT INTO game_messages (game_id, key, message_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, key) DO UPDATE SET message_id = excluded.message_id",
                    kept,
                )
            return completed

        return await self._write(body)


async def _refuse_busy_channel(tx: Tx, channel_id: int) -> None:
    row = await tx.fetchrow(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
    )
    if row is not None:
        raise ChannelBusyError(
            f"channel {channel_id} already has a game in progress (game {row[0]}): finish or abort it first",
            channel_id=channel_id,
            game_id=row[0],
        )
