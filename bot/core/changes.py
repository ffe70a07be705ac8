"""What a step of the game layer decides and what it committed (:class:`Change`, :class:`Committed`), and the
``COMMITTED`` marker that keeps every answer after a commit true."""

from __future__ import annotations

import asyncio
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from bot.core.envelope import Envelope
from bot.core.kind import Snapshot
from bot.errors import BotError
from bot.storage import UNCHANGED, Storage
from bot.storage.records import GameRecord
from engine.protocol import Event

__all__ = ["COMMITTED", "LOBBY_ACTIONS", "VERIFY_PAUSES_S", "Change", "Committed", "Partial", "committed_anyway"]

log = logging.getLogger(__name__)

VERIFY_PAUSES_S = (0.2, 0.5, 1.0, 2.0)
"""Pauses between reads of the log after a commit whose answer was lost (about 4 s in all, then "unknown")."""

COMMITTED: ContextVar[str | None] = ContextVar("committed", default=None)
"""The last action committed by the current task (an interaction's handler): set by :meth:`GameLayer.transact`, so
an error after it is never answered "nothing was changed" (``bot.ui.common.refuse``)."""


LOBBY_ACTIONS = frozenset(
    {"join", "leave", "add bot", "close", "accept", "decline", "withdraw", "start", "abort", "expire"}
)
"""Logged actions that are no engine action (seats, start, abort); everything else in the log replays."""


@dataclass(frozen=True)
class Change:
    """One commit a step decided: the new envelope, the action text for the log, who acted (``None``: the bot),
    and optionally a new status, seat list, result; ``seat``/``events`` of an engine action (for narration)."""

    env: Envelope
    action: str
    actor: int | None
    status: str | None = None
    players: list[int] | None = None
    result: dict[str, Any] | None = None
    seat: int | None = None
    events: tuple[Event, ...] = ()
    wake_at: Any = UNCHANGED
    """When the scheduler looks at the game next (Unix s; ``None`` clears it; default: unchanged)."""


@dataclass(frozen=True)
class Committed:
    """What :meth:`GameLayer.transact` committed: ``snap`` (the game as now stored, with the in-memory engine
    state), the record ``before``, and the ``changes`` in order (several when the kind applied actions first)."""

    snap: Snapshot
    before: GameRecord
    changes: tuple[Change, ...]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def action(self) -> str:
        return self.changes[-1].action

    @property
    def events(self) -> list[Event]:
        return [e for c in self.changes for e in c.events]

    @property
    def actions(self) -> list[tuple[int, str]]:
        """Engine actions committed, ``(seat, text)`` in order."""
        return [(c.seat, c.action) for c in self.changes if c.seat is not None]

    @property
    def finished(self) -> bool:
        return self.snap.status in ("finished", "aborted")


class Partial(Exception):
    """Some changes of a step were committed, then one was refused (``error``)."""

    def __init__(self, record: GameRecord, done: tuple[Change, ...], error: BotError) -> None:
        super().__init__(str(error))
        self.record, self.done, self.error = record, done, error


async def committed_anyway(storage: Storage, game_id: int, version: int, change: Change, err: Exception) -> bool:
    """After a commit of ``change`` on ``version`` failed with ``err`` (a lost connection, a timeout: the
    database may have committed before its answer was lost): read the log back. True when the action
    logged at ``version + 1`` is this one (it was saved: go on as committed). False when nothing was logged
    there (it was not saved: ``err`` stands). Raises ``BotError("err.conflict")`` when another action took
    that place, ``BotError("err.commit_unknown")`` while the database cannot tell."""
    for pause in VERIFY_PAUSES_S:
        try:
            logged = await storage.actions(game_id, after_seq=version)
        except Exception as again:
            log.info("game %s: cannot tell yet whether v%s was saved (%s)", game_id, version + 1, again)
            await asyncio.sleep(pause)
            continue
        if not logged or logged[0].seq != version + 1:
            return False
        mine = logged[0].action == change.action and logged[0].player == change.actor
        log.warning(
            "game %s: the commit of v%s reported %r but %s",
            game_id,
            version + 1,
            err,
            "it was saved" if mine else "another action was saved there",
        )
        if not mine:
            raise BotError("err.conflict") from err
        return True
    raise BotError("err.commit_unknown") from err
