"""``Storage``: the bot's async repository over one SQLite file (aiosqlite).

Connection model: one **writer** connection, whose transactions are serialised by an
``asyncio.Lock`` and opened with ``BEGIN IMMEDIATE`` (so the write lock is taken up front and a
busy database makes us wait, via ``busy_timeout``, instead of failing half-way), and one
**reader** connection (``query_only``) that sees committed data only. WAL journal, foreign keys on,
``synchronous=FULL`` by default (a committed action survives a crash or power loss). Every
multi-row read is one SQL statement, hence one consistent snapshot. Parameters are always bound.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import aiosqlite

from . import ratings as rating_math
from . import validate as check
from .errors import (
    ChannelBusyError,
    GameClosedError,
    GameNotFoundError,
    InvalidDataError,
    StorageError,
    VersionConflictError,
)
from .migrate import migrate
from .paths import default_db_path
from .records import (
    OPEN_STATUSES,
    ActionRecord,
    GameRecord,
    GameResult,
    RatingChange,
    RatingRow,
)

T = TypeVar("T")
ResultArg = GameResult | Mapping[str, Any] | Sequence[Sequence[int]]

_GAME_COLUMNS = """
    g.id, g.kind, g.guild_id, g.channel_id, g.status, g.state_json, g.version, g.result_json,
    g.created_at, g.updated_at,
    (SELECT json_group_array(json_array(p.seat, p.user_id)) FROM game_players p WHERE p.game_id = g.id),
    (SELECT json_group_object(m.key, m.message_id) FROM game_messages m WHERE m.game_id = g.id)
"""
_RATING_COLUMNS = "r.user_id, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.losses, r.draws"
# Rank = 1 + players strictly ahead in leaderboard order (ordinal DESC, user_id ASC). The
# `b.ordinal >= r.ordinal` term lets SQLite range-scan the ratings_board index instead of the guild.
_RANK = """1 + (SELECT count(*) FROM ratings b
             WHERE b.guild_id = r.guild_id AND b.kind = r.kind AND b.ordinal >= r.ordinal
               AND (b.ordinal > r.ordinal OR b.user_id < r.user_id))"""
_FORWARD = {"lobby": {"lobby", "active", "finished", "aborted"}, "active": {"active", "finished", "aborted"}}


def _utc(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


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


def _rating(row: Sequence[Any], rank: int) -> RatingRow:
    return RatingRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], rank)


class Storage:
    """Async persistence for games, the action log, ratings, preferences and meta.

    Open with ``await Storage.open(path)``; close with ``await storage.close()`` (or use
    ``async with``). All ids are ints; states are JSON-able dicts. Errors: see ``bot.storage.errors``.
    """

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection, schema: int) -> None:
        self.path = path
        self.schema_version = schema
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._clock: Callable[[], float] = time.time

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, busy_timeout_ms: int = 5000, synchronous: str = "FULL"
    ) -> Storage:
        """Open (creating if needed) the database at ``path`` (default ``default_db_path()``) and
        apply pending migrations.

        Raises ``SchemaTooNewError`` if the file comes from a newer bot, ``NotOurDatabaseError`` if it
        belongs to another program, ``OSError``/``sqlite3.DatabaseError`` if it cannot be opened."""
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise InvalidDataError(f"unknown synchronous mode {synchronous!r}", field="synchronous")
        db = Path(path) if path is not None else default_db_path()
        db.parent.mkdir(parents=True, exist_ok=True)
        timeout = int(busy_timeout_ms)
        writer = await aiosqlite.connect(db, isolation_level=None, timeout=timeout / 1000)
        reader: aiosqlite.Connection | None = None
        try:
            # PRAGMAs take no bound parameters: values here are validated constants/ints.
            await writer.execute(f"PRAGMA busy_timeout = {timeout}")
            await writer.execute("PRAGMA journal_mode = WAL")
            await writer.execute(f"PRAGMA synchronous = {synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            schema = await migrate(writer, str(db))
            reader = await aiosqlite.connect(db, isolation_level=None, timeout=timeout / 1000)
            await reader.execute(f"PRAGMA busy_timeout = {timeout}")
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            await writer.close()
            if reader is not None:
                await reader.close()
            raise
        return cls(db, writer, reader, schema)

    async def close(self) -> None:
        """Wait for the write in progress, then close both connections."""
        async with self._lock:
            await self._reader.close()
            await self._writer.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # ------------------------------------------------------------------ plumbing
    async def _begin(self) -> None:
        for attempt in range(3):
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == 2:
                    raise StorageError(
                        "the database stayed busy (locked by another process); try again in a moment", rule="Busy"
                    ) from exc
                await asyncio.sleep(0.1 * (attempt + 1))

    async def _transaction(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        async with self._lock:
            await self._begin()
            try:
                out = await body(self._writer)
                await self._writer.execute("COMMIT")
                return out
            except BaseException:
                if self._writer.in_transaction:
                    try:
                        await self._writer.execute("ROLLBACK")
                    except sqlite3.OperationalError:
                        pass
                raise

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        # Shielded: if the caller is cancelled (interaction timed out...), the transaction still
        # runs to COMMIT or ROLLBACK; it is never abandoned half-way on the writer connection.
        return await asyncio.shield(self._transaction(body))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self._reader.execute(sql, params) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._reader.execute(sql, params) as cur:
            return list(await cur.fetchall())

    # ------------------------------------------------------------------ games
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

    # ------------------------------------------------------------------ ratings
    async def leaderboard(self, guild_id: int, kind: str, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Rated players of a guild for one game kind, best first (ordinal ``mu - 3 sigma`` descending,
        then user id); ``rank`` is 1-based. Reads only the rows shown (index ``ratings_board``).
        ``limit`` 1..100, ``offset`` >= 0, else ``InvalidDataError``."""
        guild_id, kind = check.snowflake(guild_id, "guild_id"), check.kind(kind)
        if not isinstance(limit, int) or not 1 <= limit <= 100 or not isinstance(offset, int) or offset < 0:
            raise InvalidDataError("limit must be 1..100 and offset >= 0", field="limit")
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings r WHERE r.guild_id = ? AND r.kind = ?"
            " ORDER BY r.ordinal DESC, r.user_id LIMIT ? OFFSET ?",
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
        """What a rated game did to each player's rating, in ranking order (empty if unrated)."""
        rows = await self._all(
            "SELECT game_id, user_id, place, outcome, mu_before, sigma_before, mu_after, sigma_after"
            " FROM rating_changes WHERE game_id = ? ORDER BY place, user_id",
            (check.snowflake(game_id, "game_id"),),
        )
        return [RatingChange(*row) for row in rows]

    # ------------------------------------------------------------------ preferences and meta
    async def get_prefs(self, user_id: int) -> dict[str, str | None]:
        """``{"language": ..., "palette": ..., "theme": ...}``; ``None`` = not set (use the default,
        e.g. the interaction's locale for the language)."""
        row = await self._one(
            "SELECT language, palette, theme FROM user_prefs WHERE user_id = ?", (check.snowflake(user_id, "user_id"),)
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

            async def body(db: aiosqlite.Connection) -> None:
                await db.execute(sql, (user_id, self._clock(), *values.values()))

            await self._write(body)
        return await self.get_prefs(user_id)

    async def get_meta(self, key: str) -> str | None:
        """The value stored under ``key``, or ``None``."""
        row = await self._one("SELECT value FROM meta WHERE key = ?", (check.key(key, "key"),))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str | None) -> None:
        """Store ``value`` under ``key`` (``None`` deletes it), e.g. ``"command_tree_hash"``."""
        key = check.key(key, "key")
        if value is not None and not isinstance(value, str):
            raise InvalidDataError("a meta value is text", field="value")

        async def body(db: aiosqlite.Connection) -> None:
            if value is None:
                await db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                await db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )

        await self._write(body)
