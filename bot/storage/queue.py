"""The quick-match queue (``match_queue``, migration 0006; part of ``Storage``): who waits for a game of which kind.

One row per waiting player (the user id is the key, so a player is in one queue at most: joining another replaces
the row). A **group** is the players of one guild waiting for the same kind, table size (``seats``) and clock
preset; the oldest rows of a group are paired first. ``wait_until`` (Unix seconds, the bot's clock): when the
group this row heads fills its free seats with AI seats; ``None``: the row waits for people only. Nothing here
knows what a kind means (``bot/services/matchqueue.py`` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import validate as check
from .backend import Tx
from .connection import Connection

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
        Raises ``InvalidDataError`` for a bad id."""
        user_id = check.snowflake(entry.user_id, "user_id")

        async def body(tx: Tx) -> Waiting | None:
            row = await tx.fetchrow(
                f"SELECT {_COLUMNS} FROM match_queue WHERE user_id = ?{self.backend.sql.for_update}", (user_id,)
            )
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
        """The queue ``user_id`` waits in, or ``None``."""
        row = await self._one(f"SELECT {_COLUMNS} FROM match_queue WHERE user_id = ?", (int(user_id),))
        return None if row is None else _waiting(row)

    async def queue_group(self, guild_id: int, kind: str, seats: int, clock: str) -> list[Waiting]:
        """Every player waiting in one group, the oldest first."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM match_queue WHERE guild_id = ? AND kind = ? AND seats = ? AND clock = ?"
            " ORDER BY joined_at, user_id",
            (int(guild_id), kind, int(seats), clock),
        )
        return [_waiting(r) for r in rows]

    async def queue_take(self, entries: Sequence[Waiting]) -> bool:
        """Take ``entries`` out of the queue together, only if every one of them still waits as it was read
        (same group, same ``joined_at``); else nothing changes. True when taken: the caller now owes them their game
        (two processes or two joins racing for the same players: one wins)."""

        async def body(tx: Tx) -> bool:
            for entry in entries:
                row = await tx.fetchrow(
                    f"SELECT {_COLUMNS} FROM match_queue WHERE user_id = ?{self.backend.sql.for_update}",
                    (int(entry.user_id),),
                )
                if row is None or _waiting(row) != entry:
                    return False
            for entry in entries:
                await tx.execute("DELETE FROM match_queue WHERE user_id = ?", (int(entry.user_id),))
            return True

        return await self._write(body)

    async def queue_due(self, now: float, limit: int = 50) -> list[Waiting]:
        """Rows whose ``wait_until <= now``, the earliest first, at most ``limit``."""
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM match_queue WHERE wait_until IS NOT NULL AND wait_until <= ?"
            " ORDER BY wait_until, user_id LIMIT ?",
            (float(now), int(limit)),
        )
        return [_waiting(r) for r in rows]

    async def queue_next_wait(self) -> float | None:
        """The earliest ``wait_until`` of any row, or ``None``."""
        row = await self._one("SELECT min(wait_until) FROM match_queue")
        return None if row is None or row[0] is None else float(row[0])
