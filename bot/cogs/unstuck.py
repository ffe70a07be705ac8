"""Games that never get stuck (issue 12), the commands and events every game shares: the bot removed from a
server (``on_guild_remove``, :mod:`bot.services.departure`), mutual abort (``/abandon``, :mod:`bot.ui.mutual`),
the result card's Rematch (:mod:`bot.ui.rematch`) and the admins' ``/games`` (:mod:`bot.ui.admin`).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.services import departure
from bot.ui import admin, mutual, rematch

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


class UnstuckCog(commands.Cog, name="unstuck"):
    """Shared commands and events of the games' lifecycle."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="abandon",
                          description="Propose to abort this channel's game: every player must agree; not rated")
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction) -> None:
        record = await self.bot.games.channel_record(interaction.channel_id or 0)
        await mutual.agree(interaction, record.id)

    @app_commands.command(name="games", description="Admins: this server's open games, with abort buttons")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def games(self, interaction: discord.Interaction) -> None:
        await admin.listing(interaction)

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
    """Extension entry point: ``bot.load_extension("bot.cogs.unstuck")``."""
    bot.add_dynamic_items(*mutual.DYNAMIC_ITEMS, *rematch.DYNAMIC_ITEMS, *admin.DYNAMIC_ITEMS)
    bot.games.on_committed.append(partial(mutual.on_commit, bot.games))
    await bot.add_cog(UnstuckCog(bot))
