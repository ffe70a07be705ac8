"""Threads the bot made for a game that was never stored (README "Design notes", "Orphan threads").

A game opened in a thread of its own (``bot/services/footprint.py``) creates the thread first and stores the game
next: the game's ``channel_id`` is the thread's id, which exists only once Discord made the thread. Two things can
come between them:

- **a failure** (the database full or away, another game taking the seat, any exception): :meth:`Orphans.opening`
  removes the thread at once, before the error reaches the player, once it has read that no game names it;
- **a crash** (SIGKILL, a power cut): nothing of this process is left to remove it. At every READY,
  :meth:`Orphans.sweep` looks at the active threads of the guilds this process serves (as the gateway gave them:
  no request per guild; only a candidate's history is read) and removes each one that
  **the bot owns, no stored game names (any status), no message was ever posted in, and no opening of this process
  is using** (:meth:`Orphans.opening` keeps those ids). Such a thread is what a crash between the two steps leaves:
  nothing anyone wrote is in it, and nothing refers to it. Only threads made before this process started are looked
  at (a later one is this process's own: see :attr:`Orphans.started`).

Removing is deleting the thread (Discord asks for Manage Threads); refused that, it is archived, as a set-up that
ends without a game archives its thread. Best effort: a refusal is logged and the next READY tries again. An orphan
that archived itself (24 hours without activity) before a restart is no longer in the active list and is left as
it is (archived, hidden from the channel's list).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

FRESH_S = 25 * 3600.0
"""Only threads made this long before the start are looked at: the bot's game threads archive themselves after 24
hours without a message (``auto_archive_duration=1440``), so an empty one still active is younger (the hour more:
margin)."""


class Orphans:
    """See the module docstring."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self._opening: set[int] = set()
        """Threads created by an opening of this process that is still under way (the sweep leaves them)."""
        self.started = time.time()
        """The sweep looks only at threads made before this process started: a later one is this process's own,
        removed at once if its game could not be stored, or still being opened (Discord may list it before
        ``create_thread`` has returned its id here)."""
        layer.on_ready_hooks.append(self.on_ready)

    @contextlib.asynccontextmanager
    async def opening(self, thread: discord.Thread) -> AsyncIterator[None]:
        """Around storing the game of the new ``thread``: the sweep leaves it meanwhile, and if storing raises, the
        thread is removed unless a stored game names it after all (an error after the commit) or that cannot be
        read (then the next start's sweep decides); the error goes on. A cancellation (the bot stopping: the
        shielded write may still commit) leaves it to that sweep too."""
        self._opening.add(thread.id)
        try:
            yield
        except Exception:
            await self._drop_if_unused(thread)
            raise
        finally:
            self._opening.discard(thread.id)

    async def _drop_if_unused(self, thread: discord.Thread) -> None:
        try:
            if await self.layer.storage.channels_with_games([thread.id]):
                return
        except Exception as err:
            log.info("thread %s kept for now: whether a game was stored in it cannot be read (%s)", thread.id, err)
            return
        await self.remove(thread, "its game could not be stored")

    async def remove(self, thread: discord.Thread, why: str) -> bool:
        """Delete ``thread``, else archive it; ``True`` when either was done (refusals logged)."""
        try:
            await thread.delete()
            log.info("thread %s deleted: %s", thread.id, why)
            return True
        except discord.NotFound:
            return True
        except discord.HTTPException as err:
            log.info("thread %s: deleting refused (%s); archiving it", thread.id, err)
        try:
            await thread.edit(archived=True)
            log.info("thread %s archived: %s", thread.id, why)
            return True
        except discord.HTTPException as err:
            log.warning("thread %s (%s) could be neither deleted nor archived: %s", thread.id, why, err)
            return False

    def on_ready(self) -> None:
        """After every READY: :meth:`sweep` in a task."""
        self.layer.bot.spawn(self.sweep(), name="orphan-threads")

    async def sweep(self) -> int:
        """Remove the orphan threads of the guilds this process serves (module docstring). Returns how many."""
        bot = self.layer.bot
        me = bot.user.id if bot.user is not None else None
        owns = getattr(bot, "owns", lambda _g: True)
        removed = 0
        for guild in list(bot.guilds):
            if not owns(guild.id):
                continue
            try:
                threads = [
                    th
                    for th in guild.threads  # the active threads of GUILD_CREATE: no request per guild
                    if th.owner_id == me
                    and th.id not in self._opening
                    and self.started - FRESH_S < discord.utils.snowflake_time(th.id).timestamp() < self.started
                    and not th.message_count  # Discord's count (None on old threads): 0 spares a game's thread
                    and isinstance(th.parent, discord.TextChannel)
                ]
                if not threads:
                    continue
                named = await self.layer.storage.channels_with_games([th.id for th in threads])
                for th in threads:
                    if th.id in named or th.id in self._opening or not await _empty(th):
                        continue
                    if await self.layer.storage.channels_with_games([th.id]):  # stored meanwhile
                        continue
                    removed += await self.remove(th, "no game was stored for it (a crash while it opened)")
            except Exception as err:
                log.warning("guild %s: orphan threads not looked at (%s); the next READY tries again", guild.id, err)
        return removed


async def _empty(thread: discord.Thread) -> bool:
    """No message was ever posted in ``thread`` (one history read)."""
    async for _ in thread.history(limit=1):
        return False
    return True
