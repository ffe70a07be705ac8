"""Games that never get stuck (issue 12), the commands and events every game shares: the bot removed from a
server (``on_guild_remove``, :mod:`bot.games.departure`), mutual abort (``/abandon``, :mod:`bot.games.mutual`),
the result card's Rematch (:mod:`bot.games.rematch`) and the admins' ``/games`` (:mod:`bot.games.admin`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.games import departure

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


class LifecycleCog(commands.Cog, name="lifecycle"):
    """Shared commands and events of the games' lifecycle."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from (or the owner deleted) the guild: its games end aborted, nothing more goes there."""
        await departure.guild_removed(self.bot.games, guild.id)

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        """A Discord outage, not a removal: the games stay as they are."""
        log.warning("guild %s is unavailable (outage); its games are kept", guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        departure.guild_joined(self.bot.games, guild.id)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.lifecycle")``."""
    await bot.add_cog(LifecycleCog(bot))
