"""Fair share of the CPU: cooldowns per user and per guild on expensive requests, and a bounded queue per guild.

A hint or a hand can cost 0.1-0.7 s of CPU, a replay seconds: one user repeating them (or one busy guild) must not
starve every other game of the process. Two mechanisms, both for slash commands and buttons alike:

- **cooldowns** (discord.py's ``app_commands.Cooldown`` token buckets): each expensive request (``LIMITS``) is
  allowed ``rate`` times per ``per`` seconds per user in a guild, and a larger budget per guild; past it the request
  is refused at once, privately and localised: ``err.cooldown`` ("try again in N s"), before any work;
- a **bounded queue per guild**: at most ``GUILD_SLOTS`` expensive jobs of one guild run at once (so one guild's
  burst holds at most that many places in the CPU pool's queue and other guilds' boards are drawn meanwhile) and
  at most ``GUILD_QUEUE`` more wait behind them; a request past that is refused (``err.busy``).

Usage (the admission is synchronous and refuses before anything is sent; the wait comes after the defer)::

    ticket = layer.fair.admit(interaction, "hints")
    async with ticket:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await ticket.turn()
        ... CPU work ...
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from discord.app_commands import Cooldown

from bot.errors import BotError

LIMITS: dict[str, tuple[tuple[int, float], tuple[int, float]]] = {
    # name: ((per user: rate, per seconds), (per guild: rate, per seconds))
    "hints": ((5, 10.0), (30, 10.0)),
    "hand": ((6, 10.0), (40, 10.0)),
    "board": ((3, 10.0), (30, 10.0)),
    "zoom": ((3, 10.0), (20, 10.0)),
    "replay": ((2, 30.0), (8, 30.0)),
    "analysis": ((2, 30.0), (6, 30.0)),
}
"""Cooldowns of the expensive requests."""


def scope(interaction: Any) -> int:
    """Whose budget a request spends: its guild's, or outside a guild its DM's or group DM's (each conversation
    counts as a server of its own: every user install's games share guild id 0)."""
    return int(interaction.guild_id or getattr(interaction, "channel_id", None) or 0)


GUILD_SLOTS = 2
GUILD_QUEUE = 6
MAX_BUCKETS = 50_000


@dataclass
class _Gate:
    slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(GUILD_SLOTS))
    admitted: int = 0


class Ticket:
    """One admitted expensive request: ``async with`` it around the handler, ``await turn()`` before the CPU work."""

    def __init__(self, gate: _Gate) -> None:
        self._gate = gate
        self._held = False

    async def __aenter__(self) -> Ticket:
        return self

    async def turn(self) -> None:
        """Wait for one of the guild's slots (after the interaction was deferred)."""
        if not self._held:
            await self._gate.slots.acquire()
            self._held = True

    async def __aexit__(self, *exc: Any) -> None:
        if self._held:
            self._gate.slots.release()
            self._held = False
        self._gate.admitted -= 1


class FairShare:
    """The cooldowns and guild queues of one bot. ``refused`` counts refusals by reason."""

    def __init__(self, limits: dict[str, tuple[tuple[int, float], tuple[int, float]]] | None = None) -> None:
        self.limits = dict(LIMITS if limits is None else limits)
        self._buckets: OrderedDict[tuple[Any, ...], Cooldown] = OrderedDict()
        self._gates: dict[int, _Gate] = {}
        self.refused = {"cooldown": 0, "busy": 0}

    def _bucket(self, key: tuple[Any, ...], rate: int, per: float) -> Cooldown:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Cooldown(rate, per)
            while len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def check(self, interaction: Any, name: str) -> None:
        """Spend one request of ``name`` for the interaction's user and guild. Raises
        ``BotError("err.cooldown", seconds=N)`` when either budget is spent (nothing is spent then)."""
        limit = self.limits.get(name)
        if limit is None:
            return
        (user_rate, user_per), (guild_rate, guild_per) = limit
        guild = scope(interaction)
        now = time.time()
        user = self._bucket((name, guild, interaction.user.id), user_rate, user_per)
        whole = self._bucket((name, guild), guild_rate, guild_per)
        wait = max(user.get_retry_after(now), whole.get_retry_after(now))
        if wait > 0:
            self.refused["cooldown"] += 1
            raise BotError("err.cooldown", seconds=max(1, math.ceil(wait)))
        user.update_rate_limit(now)
        whole.update_rate_limit(now)

    def admit(self, interaction: Any, name: str) -> Ticket:
        """:meth:`check`, then a place in the guild's bounded queue. Raises ``BotError`` (``err.cooldown``,
        ``err.busy``) before anything is sent."""
        guild = scope(interaction)
        gate = self._gates.get(guild)
        if gate is None:
            gate = self._gates[guild] = _Gate()
        if gate.admitted >= GUILD_SLOTS + GUILD_QUEUE:
            self.refused["busy"] += 1
            raise BotError("err.busy")
        self.check(interaction, name)
        gate.admitted += 1
        return Ticket(gate)
