"""Constructo puzzles' storage (migration 0007; part of ``Storage``): each server's daily puzzle, answers, streaks.

- ``puzzle_daily``: one row per server with a daily puzzle: the channel, the UTC ``hour``, the server's ``locale``
  when it was set, ``next_at`` (Unix seconds, the bot's clock: when the next one is due), the ``day`` (UTC days since
  1970-01-01) last **claimed** for posting and its ``message_id`` (``None`` while it is being posted).
- ``puzzle_answers``: the first answer of each member to each daily puzzle (``correct`` 0/1).
- ``puzzle_streaks``: per server and member: ``streak`` (daily puzzles solved in a row, the last one on
  ``last_day``), ``best``, ``solved`` (in all).

Nothing here knows what a puzzle is (``bot/services/puzzles.py`` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import validate as check
from .backend import Tx
from .connection import Connection
from .effects import shard_filter

_DAILY = "guild_id, channel_id, hour, locale, next_at, day, puzzle_id, message_id"


@dataclass(frozen=True)
class Daily:
    """A server's daily puzzle setting and the last one claimed (see the module docstring)."""

    guild_id: int
    channel_id: int
    hour: int
    locale: str | None
    next_at: float
    day: int
    puzzle_id: int
    message_id: int | None


@dataclass(frozen=True)
class Streak:
    """One member's streak row: ``streak`` is the stored run (it counts only if ``last_day`` is the latest daily
    puzzle or the one before: :meth:`PuzzlesMixin.puzzle_streaks` returns it already so)."""

    user_id: int
    streak: int
    best: int
    solved: int
    last_day: int


@dataclass(frozen=True)
class Answered:
    """The outcome of :meth:`PuzzlesMixin.puzzle_answer`: ``first`` (this answer was stored; else an earlier one
    stands), ``correct`` and ``move`` of the answer that stands, the member's ``streak`` and ``best`` after it."""

    first: bool
    correct: bool
    move: str
    streak: int
    best: int


def _daily(row: Sequence[Any]) -> Daily:
    return Daily(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        row[3],
        float(row[4]),
        int(row[5]),
        int(row[6]),
        None if row[7] is None else int(row[7]),
    )


def _last_key(guild_id: int) -> str:
    """The ``meta`` key keeping a stopped daily puzzle's last day claimed: ``"<day>:<puzzle>:<message or empty>"``."""
    return f"puzzle_daily_last:{guild_id}"


def _last_of(value: str | None) -> tuple[int, int, int | None]:
    """``(day, puzzle_id, message_id)`` of a :func:`_last_key` value; ``(-1, 0, None)`` (never claimed) for none."""
    try:
        day, pid, mid = str(value).split(":")
        return int(day), int(pid), int(mid) if mid else None
    except ValueError:
        return -1, 0, None


class PuzzlesMixin(Connection):
    """Daily puzzles, answers and streaks (see the module docstring)."""

    async def puzzle_daily_set(
        self, guild_id: int, channel_id: int, hour: int, locale: str | None, next_at: float
    ) -> None:
        """Post the server's daily puzzle in ``channel_id`` at ``hour`` UTC from ``next_at`` on (replacing an earlier
        setting; the last day claimed is kept, so the same day is never posted twice). Raises ``InvalidDataError``."""
        gid = check.snowflake(guild_id, "guild_id")
        cid = check.snowflake(channel_id, "channel_id")
        if not 0 <= int(hour) <= 23:
            raise ValueError(f"hour must be 0-23, not {hour!r}")

        async def body(tx: Tx) -> None:
            kept = await tx.fetchrow("SELECT value FROM meta WHERE key = ?", (_last_key(gid),))
            day, pid, mid = _last_of(kept[0] if kept else None)  # a setting stopped and set again: its last day
            await tx.execute(
                "INSERT INTO puzzle_daily (guild_id, channel_id, hour, locale, next_at, day, puzzle_id, message_id,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, hour = excluded.hour, locale = excluded.locale,"
                " next_at = excluded.next_at, updated_at = excluded.updated_at",
                (gid, cid, int(hour), locale, float(next_at), day, pid, mid, float(self._clock())),
            )
            await tx.execute("DELETE FROM meta WHERE key = ?", (_last_key(gid),))

        await self._write(body)

    async def puzzle_daily_off(self, guild_id: int) -> bool:
        """Stop the server's daily puzzle. Returns whether it had one. The last day claimed is kept (in ``meta``), so
        a daily puzzle set again the same day does not post that day's puzzle a second time."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "DELETE FROM puzzle_daily WHERE guild_id = ? RETURNING day, puzzle_id, message_id", (int(guild_id),)
            )
            if row is not None and int(row[0]) >= 0:
                last = f"{int(row[0])}:{int(row[1])}:{'' if row[2] is None else int(row[2])}"
                await tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (_last_key(int(guild_id)), last),
                )
            return row is not None

        return await self._write(body)

    async def puzzle_daily_get(self, guild_id: int) -> Daily | None:
        """The server's daily puzzle setting, or ``None``."""
        row = await self._one(f"SELECT {_DAILY} FROM puzzle_daily WHERE guild_id = ?", (int(guild_id),))
        return None if row is None else _daily(row)

    async def puzzle_daily_due(
        self, now: float, *, limit: int = 50, shards: tuple[int, Sequence[int]] | None = None
    ) -> list[Daily]:
        """Settings due at ``now`` (``next_at <= now``), the earliest first, of ``shards`` (``(count, ids)``) only."""
        where, params = shard_filter(shards, "guild_id")
        rows = await self._all(
            f"SELECT {_DAILY} FROM puzzle_daily WHERE next_at <= ?{where} ORDER BY next_at, guild_id LIMIT ?",
            (float(now), *params, int(limit)),
        )
        return [_daily(r) for r in rows]

    async def puzzle_daily_earliest(self, *, shards: tuple[int, Sequence[int]] | None = None) -> float | None:
        """The earliest ``next_at`` of ``shards``' settings, or ``None``."""
        where, params = shard_filter(shards, "guild_id")
        row = await self._one(f"SELECT min(next_at) FROM puzzle_daily WHERE 1 = 1{where}", params)
        return None if row is None or row[0] is None else float(row[0])

    async def puzzle_daily_claim(self, seen: Daily, day: int, puzzle_id: int) -> bool:
        """Claim ``day``'s post for the setting as read (``seen``): only if it is unchanged (same ``next_at`` and
        ``day``); the row then names ``day``/``puzzle_id`` with no message yet. Returns whether it was claimed (two
        processes, or a setting changed meanwhile: one wins).

        A streak counts the server's **posted** daily puzzles: when days went by without a post since ``seen.day``
        (the bot was away, the setting was off), the streaks whose last solved day is ``seen.day`` are carried to
        ``day - 1`` in the same transaction, so solving ``day`` extends them; a player who missed a posted puzzle
        still loses theirs."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE puzzle_daily SET day = ?, puzzle_id = ?, message_id = NULL, updated_at = ?"
                " WHERE guild_id = ? AND next_at = ? AND day = ? RETURNING guild_id",
                (
                    int(day),
                    int(puzzle_id),
                    float(self._clock()),
                    int(seen.guild_id),
                    float(seen.next_at),
                    int(seen.day),
                ),
            )
            if row is not None and 0 <= seen.day < day - 1:  # days without a post: they break no streak
                await tx.execute(
                    "UPDATE puzzle_streaks SET last_day = ? WHERE guild_id = ? AND last_day = ?",
                    (int(day) - 1, int(seen.guild_id), int(seen.day)),
                )
            return row is not None

        return await self._write(body)

    async def puzzle_daily_posted(self, guild_id: int, day: int, message_id: int | None, next_at: float) -> bool:
        """``day``'s puzzle is out (``message_id``; ``None`` when the channel refused it for good): the next one is
        due at ``next_at``. Only while the row still names ``day``. Returns whether it did."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE puzzle_daily SET message_id = ?, next_at = ?, updated_at = ? WHERE guild_id = ? AND day = ?"
                " RETURNING guild_id",
                (message_id, float(next_at), float(self._clock()), int(guild_id), int(day)),
            )
            return row is not None

        return await self._write(body)

    async def puzzle_daily_later(self, guild_id: int, next_at: float) -> None:
        """Look at the server's setting again at ``next_at`` (a post that failed)."""

        async def body(tx: Tx) -> None:
            await tx.execute("UPDATE puzzle_daily SET next_at = ? WHERE guild_id = ?", (float(next_at), int(guild_id)))

        await self._write(body)

    async def puzzle_answer(self, guild_id: int, day: int, user_id: int, move: str, correct: bool) -> Answered:
        """Store ``user_id``'s answer to ``day``'s daily puzzle if it is their first, and update their streak in the
        same transaction: a right answer extends a streak whose last solved day is ``day - 1`` (else starts one at
        1), a wrong one ends it. A later answer changes nothing and returns the first one."""
        gid = check.snowflake(guild_id, "guild_id")
        uid = check.snowflake(user_id, "user_id")

        async def body(tx: Tx) -> Answered:
            now = float(self._clock())
            row = await tx.fetchrow(
                "INSERT INTO puzzle_answers (guild_id, day, user_id, move, correct, at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, day, user_id) DO NOTHING RETURNING move",
                (gid, int(day), uid, move[:8], int(bool(correct)), now),
            )
            sel = (
                "SELECT streak, best, solved, last_day FROM puzzle_streaks WHERE guild_id = ? AND user_id = ?"
                + self.backend.sql.for_update
            )
            old = await tx.fetchrow(sel, (gid, uid))
            streak, best, solved, last = (
                (0, 0, 0, -1) if old is None else (int(old[0]), int(old[1]), int(old[2]), int(old[3]))
            )
            if row is None:  # answered before: that answer stands
                first = await tx.fetchrow(
                    "SELECT move, correct FROM puzzle_answers WHERE guild_id = ? AND day = ? AND user_id = ?",
                    (gid, int(day), uid),
                )
                assert first is not None
                return Answered(False, bool(first[1]), str(first[0]), streak if last >= day - 1 else 0, best)
            if correct:
                streak = streak + 1 if last == day - 1 else 1
                best, solved, last = max(best, streak), solved + 1, day
            else:
                streak = 0
            await tx.execute(
                "INSERT INTO puzzle_streaks (guild_id, user_id, streak, best, solved, last_day, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET streak = excluded.streak,"
                " best = excluded.best, solved = excluded.solved, last_day = excluded.last_day,"
                " updated_at = excluded.updated_at",
                (gid, uid, streak, best, solved, last, now),
            )
            return Answered(True, bool(correct), move, streak, best)

        return await self._write(body)

    async def puzzle_streaks(self, guild_id: int, latest_day: int, *, limit: int, offset: int = 0) -> list[Streak]:
        """The server's streak leaderboard: a streak counts while its last solved day is ``latest_day`` (the latest
        daily puzzle) or the one before; ordered by that streak, then best, then solved, then user id."""
        live = "CASE WHEN last_day >= ? THEN streak ELSE 0 END"
        rows = await self._all(
            f"SELECT user_id, {live}, best, solved, last_day FROM puzzle_streaks WHERE guild_id = ? AND solved > 0"
            f" ORDER BY {live} DESC, best DESC, solved DESC, user_id LIMIT ? OFFSET ?",
            (int(latest_day) - 1, int(guild_id), int(latest_day) - 1, int(limit), int(offset)),
        )
        return [Streak(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]
