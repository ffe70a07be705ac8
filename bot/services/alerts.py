"""Turn alerts by DM, a player's opt-in (``/settings me alerts:on``; off by default).

A commit after which a human who opted in is awaited (and is not the one who just acted) owes an ``alert`` effect
(the outbox: durable, keyed (game, version, "alert"), so at most one per turn), due :data:`ALERT_DELAY_S` later.
The worker sends the DM only if the game still waits at that version (a player who moves within the delay gets
none: no spam while someone is at the table) and the player's stored preference is still on. A DM Discord refuses
for the user (closed DMs: 50007, or the user cannot be found) turns the alerts off (``alerts = "failed"``), and
``/settings me`` says so the next time; other failures are retried by the outbox.

Which users opted in is kept in memory for the commit rule (it must not query storage): loaded when the bot is
ready and updated by ``/settings me`` in this process; the worker re-reads the stored preference before sending,
so a stale cache in another process can at most skip an alert, never send an unwanted one.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.boards import message_link
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

ALERT_DELAY_S = 30.0
"""Seconds a turn waits before its DM alert (default of ``ALERT_DELAY``): a player at the table who moves meanwhile
gets none."""
ON, FAILED = "dm", "failed"
UNDELIVERABLE = {50007, 10013}  # Cannot send messages to this user; Unknown User


def awaited_humans(snap: Snapshot) -> list[int]:
    """User ids of the human seats the game waits for now (none unless it is running)."""
    if snap.record.status != "active" or snap.state is None:
        return []
    seats = snap.env.seats
    return [
        snap.players[s]
        for s in snap.state.awaiting()
        if s < len(snap.players) and not (s < len(seats) and seats[s].ai is not None) and snap.players[s] > 0
    ]


class Alerts:
    """See the module docstring. Subscribes the ``alert`` effect to ``layer.outbox``."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.on: set[int] = set()
        self.delay_s = float(getattr(getattr(layer.bot, "config", None), "alert_delay_s", ALERT_DELAY_S))
        layer.outbox.subscribe("alert", self.alert_effect, rule=self.owed, prompt=True)  # nobody sends one inline
        layer.on_ready_hooks.append(self.load)

    async def load(self) -> None:
        """Who opted in, from storage (at ready)."""
        self.on = set(await self.layer.storage.users_with_alerts())

    async def set(self, user_id: int, on: bool) -> None:
        """Turn ``user_id``'s alerts on or off (stored, and in this process's cache)."""
        await self.layer.storage.set_prefs(user_id, alerts=ON if on else None)
        (self.on.add if on else self.on.discard)(user_id)

    def owed(self, snap: Snapshot, change: Any) -> list[Owed]:
        """The outbox rule: an alert when an opted-in human other than the actor is awaited after a commit that may
        have moved the turn (an engine action, or a new status: a started game). A commit that moves no turn (an
        offer made, declined or withdrawn; a seat taken in a lobby) owes none: the awaited player had theirs."""
        if not self.on or (getattr(change, "seat", None) is None and getattr(change, "status", None) is None):
            return []
        actor = getattr(change, "actor", None)
        if any(u in self.on and u != actor for u in awaited_humans(snap)):
            return [Owed("alert", delay_s=self.delay_s)]
        return []

    async def alert_effect(self, effect: Effect) -> None:
        """Send the due DMs of ``effect`` (see the module docstring); nothing when the turn moved on."""
        layer = self.layer
        record = await layer.record(effect.game_id)
        if record.version != effect.version or record.status != "active":
            return
        snap = layer.snapshot(record)
        for user_id in awaited_humans(snap):
            prefs = await layer.storage.get_prefs(user_id)
            if prefs.get("alerts") != ON:
                continue
            await self._send(snap, user_id, prefs.get("language") or snap.locale)

    async def _send(self, snap: Snapshot, user_id: int, locale: str | None) -> None:
        bot = self.layer.bot
        guild = bot.get_guild(snap.record.guild_id)
        text = t(
            "alert.turn",
            locale,
            game=snap.kind.title,
            game_id=snap.id,
            server=discord.utils.escape_markdown(guild.name) if guild is not None else "?",
            link=message_link(snap.record, "board"),
        )
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            if getattr(err, "code", None) not in UNDELIVERABLE:
                raise  # a transient failure: the outbox retries
            log.info("alert to %s undeliverable (%s): alerts turned off", user_id, err.code)
            await self.layer.storage.set_prefs(user_id, alerts=FAILED)
            self.on.discard(user_id)
