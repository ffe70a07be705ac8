"""Admission: the event loop keeps priority over the work of game actions, so every interaction is answered in
Discord's 3 s even when boards lag.

One process answers every interaction on one event loop. An action asked for through an interaction (a placement,
a button) costs the loop storage round trips, the engine, the board's upload and its recording (~10 ms of the bot
process's CPU); the loop's ready queue is first come, first served, so when players ask for more actions than the
process can do, every callback (reading the gateway, every first response) waits behind all the work in flight and
first responses pass 3 s ("This interaction failed").

:class:`Admission` lets at most :data:`ACTION_SLOTS` actions work at once (``GameLayer.perform``); an action that
finds every slot taken gets its first response **at once** from the first-response guard
(``bot.first_response.FirstResponseGuard.now``: a public "thinking" for a command, a deferred update for a
component) and then waits for a slot, costing the loop nothing meanwhile. Under overload the boards lag (they queue
here, in order), the first responses do not. While half the slots or more work (:attr:`Admission.busy`), the guard
answers every new interaction half a second after its creation (``bot.first_response.BUSY_BUDGET_S``) instead of
2.2 s, whatever its handler's work is doing then. Actions
without an interaction (AI seats, timers, recovery) are not admitted here: they hold no token that can expire.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

ACTION_SLOTS = 12
"""Actions that may work at once in one process (enough to keep 2 CPU workers, storage and the HTTP client busy;
small enough that the event loop's ready queue stays short)."""


class Admission:
    """The action slots of one process. ``slots``: how many; ``hurry(interaction)``: answer an interaction's first
    response now (the bot's first-response guard), called for an interaction about to wait. ``waiting`` (now) and
    ``hurried`` (since start) are counts for metrics and tests."""

    def __init__(self, slots: int = ACTION_SLOTS, hurry: Callable[[Any], None] | None = None) -> None:
        self.slots = max(1, slots)
        self.hurry = hurry
        self.waiting = 0
        self.working = 0
        self.hurried = 0
        self._free = asyncio.Semaphore(self.slots)

    @property
    def busy(self) -> bool:
        """True while at least half the slots work: the process is loaded, interactions are answered at once
        (the first-response guard's ``pressure``), before any of their work."""
        return self.working >= max(1, self.slots // 2)

    @property
    def full(self) -> bool:
        """True while every slot is taken (the next action waits)."""
        return self._free.locked()

    @asynccontextmanager
    async def admit(self, interaction: Any) -> AsyncIterator[None]:
        """Hold a slot for the body; an ``interaction`` that must wait for one is answered first (see the module)."""
        if interaction is None:
            yield
            return
        if self._free.locked() and self.hurry is not None:
            self.hurried += 1
            self.hurry(interaction)
        self.waiting += 1
        try:
            await self._free.acquire()
        finally:
            self.waiting -= 1
        self.working += 1
        try:
            yield
        finally:
            self.working -= 1
            self._free.release()


def hurry_of(bot: Any) -> Callable[[Any], None] | None:
    """The bot's "answer this interaction now" (its first-response guard's ``now``), if it has one."""
    guard = getattr(bot, "first_response", None)
    return getattr(guard, "now", None)
