"""The quick-match queue (``match_queue``, migration 0006; part of ``Storage``): who waits for a game of which kind.

One row per waiting player (the user id is the key, so a player is in one queue at most: joining another replaces
the row). A **group** is the players of one guild waiting for the same kind, table size (``seats``) and clock
preset; the oldest rows of a group are paired first. ``wait_until`` (Unix seconds, the bot's clock): when the
group this row heads fills its free seats with AI seats; ``None``: the row waits for people only. Nothing here
knows what a kind means (``bot/services/matchqueue.py`` does).

**Claims** (``claimed_at``, the storage clock): a match being opened claims its players' rows (:meth:`queue_take`)
instead of deleting them; a claimed row is no longer waiting (no group, no deadline, not :meth:`queue_get`) but is
not lost: it is deleted once the game is stored (:meth:`queue_settle`) or released when the game could not open
(:meth:`queue_release`); after a crash, start-up lists the claims (:meth:`queue_claims`) and settles those whose game
exists (:meth:`queue_game_since`), releasing the others. **Notes** (``match_queue_notes``): why a player was taken
out of a queue without asking, kept until they are told (:meth:`queue_drop`, :meth:`queue_note_pop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import validate as check
from .backend import Tx
from .connection import Connection


class QueueClaimedError(Exception):
    """:meth:`QueueMixin.queue_put` for a player whose row a match being opened holds (they are being paired)."""


_COLUMNS = "user_id, guild_id, channel_id, kind, seats, clock, name, locale, joined_at, wait_until"


@dataclass(frozen=True)
class Waiting:
    """One waiting player: where they queued (``channel_id``: the game opens there when the timer pairs them), for
    what (``kind``, ``seats``: the table size, ``clock``: a preset name), their display ``name`` and ``locale`` at
    the time, ``joined_at`` and ``wait_until`` (Unix seconds; ``None``: no AI seats)."""

    user_id: int
    guild_id: int
    channel_id: int
    kind: str
    seats: int
    clock: str
    name: str
    locale: str | None
    joined_at: float
    wait_until: float | None = None

    @property
    def group(self) -> tuple[int, str, int, str]:
        """``(guild_id, kind, seats, clock)``: the players who can be paired with this one."""
        return self.guild_id, self.kind, self.seats, self.clock


def _waiting(row: Sequence[Any]) -> Waiting:
    return Waiting(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        str(row[3]),
        int(row[4]),
        str(row[5]),
        str(row[6]),
        row[7],
        float(row[8]),
        None if row[9] is None else float(row[9]),
    )


class QueueMixin(Connection):
    """The quick-match queue (see the module docstring)."""

    async def queue_put(self, entry: Waiting) -> Waiting | None:
        """Queue ``entry``'s player (replacing any queue they were in). Returns the row it replaced, or ``None``.
        Raises ``InvalidDataError`` for a bad id, :class:`QueueClaimedError` (nothing written) while a match being
        opened holds their row."""
        user_id = check.snowflake(entry.user_id, "user_id")

        async def body(tx: Tx) -> Waiting | None:
            row = await tx.fetchrow(
                f"SELECT {_COLUMNS}, claimed_at FROM match_queue WHERE user_id = ?{self.backend.sql.for_update}",
                (user_id,),
            )
            if row is not None and row[10] is not None:
                raise QueueClaimedError(user_id)
            await tx.execute("DELETE FROM match_queue WHERE user_id = ?", (user_id,))
            await tx.execute(
                f"INSERT INTO match_queue ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    int(entry.guild_id),
                    int(entry.channel_id),
                    entry.kind,
                    int(entry.seats),
                    entry.clock,
                    entry.name[:100],
                    entry.locale,
                    float(entry.joined_at),
                    None if entry.wait_until is None else float(entry.wait_until),
                ),
            )
            return None if row is None else _waiting(row)

        return await self._write(body)

    async def queue_remove(self, user_id: int) -> Waiting | None:
        """Take ``user_id`` out of their queue. Returns the row removed, or ``None`` (they were not queued)."""

        async def body(tx: Tx) -> Waiting | None:
            row = await tx.fetchrow(
                f"DELETE FROM match_queue WHERE user_id = ? RETURNING {_COLUMNS}",
                (check.snowflake(user_id, "user_id"),),
            )
            return None if row is None else _waiting(row)

        return await self._write(body)

    async def queue_get(self, user_id: int) -> Waiting | None:
        """The queue ``user_id`` waits in (claimed rows excluded), or ``None``."""
        row = await self._one(
            f"SELECT {_COLUMNS} FROM match_queue WHERE user_id = ? AND claimed_at IS NULL", (int(user_id),)
        )
        return None if row is None else _waiting(row)

    async def queue_group(self, guild_id: int, kind: str, seats: int, clock: str) -> list[Waiting]:
        """Every player waiting in one group (claimed rows excluded), the oldest first."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM match_queue WHERE guild_id = ? AND kind = ? AND seats = ? AND clock = ?"
            " AND claimed_at IS NULL ORDER BY joined_at, user_id",
            (int(guild_id), kind, int(seats), clock),
        )
        return [_waiting(r) for r in rows]

    async def queue_take(self, entries: Sequence[Waiting]) -> float | None:
        """Claim ``entries`` together for a match, only if every one of them still waits unclaimed as it was read
        (same group, same ``joined_at``); else nothing changes and ``None``. Returns the claim's stamp (``claimed_at``,
        for :meth:`queue_settle` / :meth:`queue_release`): the caller now owes them their game (two processes or two
        joins racing for the same players: one wins)."""

        async def body(tx: Tx) -> float | None:
            for entry in entries:
                row = await tx.fetchrow(
                    f"SELECT {_COLUMNS}, claimed_at FROM match_queue WHERE user_id = ?{self.backend.sql.for_update}",
                    (int(entry.user_id),),
                )
                if row is None or row[10] is not None or _waiting(row) != entry:
                    return None
            stamp = float(self._clock())
            for entry in entries:
                await tx.execute("UPDATE match_queue SET claimed_at = ? WHERE user_id = ?", (stamp, int(entry.user_id)))
            return stamp

        return await self._write(body)

    async def queue_settle(self, user_ids: Sequence[int], claimed_at: float) -> int:
        """Delete the rows of ``user_ids`` claimed at ``claimed_at`` (their game is stored). Returns how many."""
        return await self._claimed("DELETE FROM match_queue", user_ids, claimed_at)

    async def queue_release(self, user_ids: Sequence[int], claimed_at: float) -> int:
        """Make the rows of ``user_ids`` claimed at ``claimed_at`` wait again, as they were. Returns how many."""
        return await self._claimed("UPDATE match_queue SET claimed_at = NULL", user_ids, claimed_at)

    async def _claimed(self, sql: str, user_ids: Sequence[int], claimed_at: float) -> int:
        async def body(tx: Tx) -> int:
            done = 0
            for uid in user_ids:
                row = await tx.fetchrow(
                    f"{sql} WHERE user_id = ? AND claimed_at = ? RETURNING user_id", (int(uid), float(claimed_at))
                )
                done += row is not None
            return done

        return await self._write(body)

    async def queue_claims(self) -> list[tuple[Waiting, float]]:
        """Every claimed row with its ``claimed_at``, by claim then user."""
        rows = await self._all(
            f"SELECT {_COLUMNS}, claimed_at FROM match_queue WHERE claimed_at IS NOT NULL ORDER BY claimed_at, user_id"
        )
        return [(_waiting(r), float(r[10])) for r in rows]

    async def queue_game_since(self, guild_id: int, kind: str, user_ids: Sequence[int], since: float) -> int | None:
        """The id of a game of ``kind`` in the guild created at or after ``since`` (the storage clock) that seats
        every one of ``user_ids``, or ``None``: whether a claimed match's game was stored before a crash."""
        if not user_ids:
            return None
        marks = ", ".join("?" for _ in user_ids)
        row = await self._one(
            "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id"
            f" WHERE g.guild_id = ? AND g.kind = ? AND g.created_at >= ? AND p.user_id IN ({marks})"
            " GROUP BY g.id HAVING count(*) = ? ORDER BY g.id LIMIT 1",
            (int(guild_id), kind, float(since), *(int(u) for u in user_ids), len(user_ids)),
        )
        return None if row is None else int(row[0])

    async def queue_drop(self, entry: Waiting, reason: str) -> bool:
        """Take ``entry``'s player out of the queue (their unclaimed row, as read) and keep ``reason`` (a message key)
        for :meth:`queue_note_pop`. True when the row was removed (False: they left or moved meanwhile)."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                f"DELETE FROM match_queue WHERE user_id = ? AND joined_at = ? AND kind = ? AND claimed_at IS NULL"
                f" RETURNING {_COLUMNS}",
                (int(entry.user_id), float(entry.joined_at), entry.kind),
            )
            if row is None:
                return False
            await tx.execute("DELETE FROM match_queue_notes WHERE user_id = ?", (int(entry.user_id),))
            await tx.execute(
                "INSERT INTO match_queue_notes (user_id, guild_id, kind, reason, at) VALUES (?, ?, ?, ?, ?)",
                (int(entry.user_id), int(entry.guild_id), entry.kind, reason, float(self._clock())),
            )
            return True

        return await self._write(body)

    async def queue_note_pop(self, user_id: int) -> tuple[str, str] | None:
        """``(kind, reason)`` of why ``user_id`` was last taken out of a queue, deleted as it is read; or ``None``."""

        async def body(tx: Tx) -> tuple[str, str] | None:
            row = await tx.fetchrow(
                "DELETE FROM match_queue_notes WHERE user_id = ? RETURNING kind, reason", (int(user_id),)
            )
            return None if row is None else (str(row[0]), str(row[1]))

        return await self._write(body)

    async def queue_postpone(self, entry: Waiting, wait_until: float) -> bool:
        """Move the deadline of ``entry``'s row (unclaimed, as read) to ``wait_until``. True when it still waited."""

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "UPDATE match_queue SET wait_until = ? WHERE user_id = ? AND joined_at = ? AND kind = ?"
                " AND claimed_at IS NULL RETURNING user_id",
                (float(wait_until), int(entry.user_id), float(entry.joined_at), entry.kind),
            )
            return row is not None

        return await self._write(body)

    async def queue_due(self, now: float, limit: int = 50) -> list[Waiting]:
        """Rows whose ``wait_until <= now``, the earliest first, at most ``limit``."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM match_queue WHERE wait_until IS NOT NULL AND wait_until <= ?"
            " AND claimed_at IS NULL ORDER BY wait_until, user_id LIMIT ?",
            (float(now), int(limit)),
        )
        return [_waiting(r) for r in rows]

    async def queue_next_wait(self) -> float | None:
        """The earliest ``wait_until`` of any unclaimed row, or ``None``."""
        row = await self._one("SELECT min(wait_until) FROM match_queue WHERE claimed_at IS NULL")
        return None if row is None or row[0] is None else float(row[0])
