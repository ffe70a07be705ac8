"""The append-only action log: read it, and replay a game from its creation state to check it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from . import validate as check
from .connection import Connection, _utc
from .errors import GameNotFoundError, StorageError
from .records import ActionRecord


class ActionLogMixin(Connection):
    """Action log and replay (part of ``Storage``)."""

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
            copied: dict[str, Any] = json.loads(json.dumps(state))
            return copied

        replayed = await asyncio.to_thread(fold)
        if replayed != stored:
            raise StorageError(
                f"game {game_id}: replaying {version} actions does not give the stored state",
                rule="ReplayMismatch",
                game_id=game_id,
                seq=version,
            )
        return replayed
