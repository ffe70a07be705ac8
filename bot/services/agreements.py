"""What every player of a game agrees to, one click each (issue 12): the shared bookkeeping of mutual abort
(:mod:`bot.ui.mutual`) and rematch (:mod:`bot.ui.rematch`).

The agreements are kept in storage meta (``<what>:<game id>`` -> ``{"votes": [user ids], "message": id, ...}``),
not in the game's action log: agreeing is no game action (boards stay current: no version bump) and survives a
restart. One ``asyncio.Lock`` per (what, game) in this process serialises the read-modify-write, so two
simultaneous clicks count once each and the agreed step runs once.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.core.envelope import Envelope
    from bot.storage.records import GameRecord

_LOCKS: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
"""One lock per agreement while someone holds or waits for it (forgotten after: one per game ever would grow)."""


def humans(record: GameRecord, env: Envelope) -> list[int]:
    """The user ids of the game's human seats (AI seats always agree)."""
    return [p for s, p in enumerate(record.players) if not (s < len(env.seats) and env.seats[s].ai is not None)]


def mentions(user_ids: list[int]) -> str:
    return ", ".join(f"<@{u}>" for u in user_ids)


class Agreement:
    """The agreement ``what`` (``"abort_votes"``, ``"rematch"``) of one game, loaded under its lock."""

    def __init__(self, storage: Any, key: str, data: dict[str, Any]) -> None:
        self.storage = storage
        self.key = key
        self.data = data

    @property
    def votes(self) -> list[int]:
        return [int(v) for v in self.data.get("votes", [])]

    def add(self, user_id: int) -> bool:
        """Count ``user_id``'s vote; False if already counted."""
        if user_id in self.votes:
            return False
        self.data["votes"] = [*self.votes, user_id]
        return True

    async def save(self) -> None:
        await self.storage.set_meta(self.key, json.dumps(self.data))

    async def clear(self) -> None:
        await self.storage.set_meta(self.key, None)


@asynccontextmanager
async def agreement(storage: Any, what: str, game_id: int) -> AsyncIterator[Agreement]:
    """The agreement ``what`` of ``game_id`` under its lock (saved by the caller)."""
    key = f"{what}:{game_id}"
    lock = _LOCKS.get(key)
    if lock is None:
        lock = _LOCKS[key] = asyncio.Lock()
    async with lock:
        raw = await storage.get_meta(key)
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        yield Agreement(storage, key, data if isinstance(data, dict) else {})
