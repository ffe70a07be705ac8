"""The outbox: effects a commit owes, stored in the same transaction as the commit (part of ``Storage``).

An accepted action does not only change a game: it owes work after the commit (post the new board, strip the
previous one, let an AI seat move, ...). Each such **effect** is a row of ``effects`` written by the very
transaction that commits the action (``apply_action(..., owed=[Owed("board")])``), keyed ``(game_id, version,
kind)`` so the same work is never owed twice. Workers (``bot/core/outbox.py``) claim due rows for a while
(``claimed_by``/``claimed_until``), run them, and delete them (:meth:`EffectsMixin.complete_effect`) or push them
back (:meth:`EffectsMixin.defer_effect`). Nothing here knows what a kind means.

Times are Unix seconds on the caller's clock. A ``due_at`` further in the future than :data:`MAX_DELAY_S` can only
come from a clock step (the host's clock was set back after the row was written): such a row is due at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import validate as check
from .backend import Tx
from .connection import Connection
from .errors import InvalidDataError

MAX_DELAY_S = 3600.0
"""The longest delay an effect is ever given (back-off included); a later ``due_at`` is a clock step: due now."""

_COLUMNS = "id, game_id, guild_id, version, kind, payload_json, due_at, created_at, attempts, last_error"


@dataclass(frozen=True)
class Owed:
    """An effect a commit owes: its ``kind`` (``[a-z][a-z0-9_.:-]``, at most 32 characters), a JSON-able
    ``payload``, and ``delay_s``: seconds after the commit before a worker may run it (the committing process
    usually does it itself at once; the delay keeps workers from racing it). ``version``: the game version it
    belongs to (default: the version the commit creates)."""

    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    delay_s: float = 0.0
    version: int | None = None


@dataclass(frozen=True)
class Effect:
    """A stored effect as a worker claimed it (``attempts``: failed runs so far; ``last_error``: the latest)."""

    id: int
    game_id: int
    guild_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    due_at: float
    created_at: float
    attempts: int
    last_error: str | None

    @property
    def key(self) -> tuple[int, int, str]:
        """``(game_id, version, kind)``: what makes two effects the same work."""
        return self.game_id, self.version, self.kind


def _effect(row: Sequence[Any]) -> Effect:
    return Effect(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        int(row[3]),
        str(row[4]),
        json.loads(row[5] or "{}"),
        float(row[6]),
        float(row[7]),
        int(row[8]),
        row[9],
    )


def _kind(value: Any) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= 32 or not value[0].isalpha():
        raise InvalidDataError(f"bad effect kind {value!r}", field="kind")
    return value


def shard_filter(shards: tuple[int, Sequence[int]] | None, column: str) -> tuple[str, list[Any]]:
    """SQL (`` AND ...``) and parameters keeping rows whose guild ``column`` is on one of ``shards = (count,
    ids)`` (Discord's ``(guild_id >> 22) % count``); empty for ``None``. Raises ``InvalidDataError``."""
    if shards is None:
        return "", []
    count, ids = shards
    wanted = sorted({int(i) for i in ids})
    if not isinstance(count, int) or count < 1 or not wanted:
        raise InvalidDataError("shards must be (count >= 1, [shard ids])", field="shards")
    return f" AND (({column} >> 22) % ?) IN ({', '.join('?' * len(wanted))})", [count, *wanted]


async def insert_owed(tx: Tx, game_id: int, guild_id: int, version: int, owed: Sequence[Owed], now: float) -> None:
    """Write ``owed`` for the game inside the caller's transaction (an effect already owed is kept as it is)."""
    rows = []
    for item in owed:
        delay = min(max(float(item.delay_s), 0.0), MAX_DELAY_S)
        rows.append(
            (
                game_id,
                guild_id,
                item.version if item.version is not None else version,
                _kind(item.kind),
                json.dumps(dict(item.payload), separators=(",", ":")),
                now + delay,
                now,
            )
        )
    if rows:
        await tx.executemany(
            "INSERT INTO effects (game_id, guild_id, version, kind, payload_json, due_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, kind) DO NOTHING",
            rows,
        )


class EffectsMixin(Connection):
    """The outbox of effects (see the module docstring)."""

    async def add_effects(self, game_id: int, owed: Sequence[Owed], *, version: int | None = None) -> None:
        """Owe ``owed`` for a game outside an action's commit (``version``: default the game's current one).
        Raises ``GameNotFoundError``, ``InvalidDataError``."""
        from .errors import GameNotFoundError

        game_id = check.snowflake(game_id, "game_id")

        async def body(tx: Tx) -> None:
            row = await tx.fetchrow("SELECT guild_id, version FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise GameNotFoundError(f"there is no game {game_id}", game_id=game_id)
            await insert_owed(
                tx, game_id, int(row[0]), int(row[1]) if version is None else version, owed, self._clock()
            )

        await self._write(body)

    async def claim_effects(
        self,
        owner: str,
        *,
        now: float,
        lease_s: float = 300.0,
        limit: int = 50,
        shards: tuple[int, Sequence[int]] | None = None,
    ) -> list[Effect]:
        """Claim up to ``limit`` effects due at ``now`` that nobody holds (or whose claim ran out) for ``owner``
        until ``now + lease_s``, earliest first. Several processes may claim at once: on PostgreSQL the rows are
        locked ``FOR UPDATE SKIP LOCKED``, so each row goes to one of them. ``shards`` as in ``due_games``."""
        where, params = shard_filter(shards, "e.guild_id")
        skip = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""

        async def body(tx: Tx) -> list[Effect]:
            rows = await tx.fetch(
                "UPDATE effects SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT e.id FROM effects e"
                " WHERE (e.due_at <= ? OR e.due_at > ?) AND (e.claimed_until IS NULL OR e.claimed_until <= ?"
                f" OR e.claimed_until > ?){where} ORDER BY e.due_at, e.id LIMIT ?{skip}) RETURNING {_COLUMNS}",
                (owner, now + lease_s, now, now + MAX_DELAY_S, now, now + MAX_DELAY_S + lease_s, *params, limit),
            )
            return sorted((_effect(r) for r in rows), key=lambda e: (e.due_at, e.id))

        return await self._write(body)

    async def complete_effect(self, effect_id: int) -> None:
        """The effect is done: forget it."""
        await self._write(lambda tx: tx.execute("DELETE FROM effects WHERE id = ?", (int(effect_id),)))

    async def complete_effects(self, game_id: int, version: int, kind: str, *, up_to: bool = True) -> bool:
        """The work of kind ``kind`` for the game up to ``version`` was done by the committing process (whether or
        not a worker claimed it meanwhile): forget every such effect of that version or older (a board of version
        5 is also the board version 4 owed; ``up_to=False``: that version only). Returns True if one was still
        owed."""
        op = "<=" if up_to else "="

        async def body(tx: Tx) -> bool:
            rows = await tx.fetch(
                f"DELETE FROM effects WHERE game_id = ? AND version {op} ? AND kind = ? RETURNING id",
                (int(game_id), int(version), _kind(kind)),
            )
            return bool(rows)

        return await self._write(body)

    async def defer_effect(self, effect_id: int, *, due_at: float, error: str | None = None) -> None:
        """A run failed (or must wait): release the claim, count the attempt, run again at ``due_at``."""
        await self._write(
            lambda tx: tx.execute(
                "UPDATE effects SET claimed_by = NULL, claimed_until = NULL, attempts = attempts + 1, due_at = ?,"
                " last_error = ? WHERE id = ?",
                (float(due_at), None if error is None else str(error)[:500], int(effect_id)),
            )
        )

    async def release_claims(self, *, shards: tuple[int, Sequence[int]] | None = None) -> int:
        """Release every claim (of the given shards' guilds): called by the one process that now serves them
        (start-up, a lease taken over), so the work of a process that died runs again at once. Returns how many."""
        where, params = shard_filter(shards, "guild_id")

        async def body(tx: Tx) -> int:
            rows = await tx.fetch(
                f"UPDATE effects SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL{where}"
                " RETURNING id",
                params,
            )
            return len(rows)

        return await self._write(body)

    async def next_effect_due(self, *, shards: tuple[int, Sequence[int]] | None = None) -> float | None:
        """The earliest ``due_at`` of an unclaimed effect (of ``shards``), or ``None``."""
        where, params = shard_filter(shards, "guild_id")
        row = await self._one(f"SELECT min(due_at) FROM effects WHERE claimed_by IS NULL{where}", params)
        return None if row is None or row[0] is None else float(row[0])

    async def effects_pending(self, *, shards: tuple[int, Sequence[int]] | None = None) -> tuple[int, float | None]:
        """``(how many effects are owed, the oldest one's created_at or None)`` (metrics, tests)."""
        where, params = shard_filter(shards, "guild_id")
        row = await self._one(f"SELECT count(*), min(created_at) FROM effects WHERE 1 = 1{where}", params)
        return int(row[0]), (None if row[1] is None else float(row[1]))

    async def effects_of(self, game_id: int) -> list[Effect]:
        """Every effect still owed for a game, oldest first (tests, diagnostics)."""
        rows = await self._all(f"SELECT {_COLUMNS} FROM effects WHERE game_id = ? ORDER BY id", (int(game_id),))
        return [_effect(r) for r in rows]
