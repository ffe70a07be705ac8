"""Games that never get stuck (issue 12), the commands and events every game shares: the bot removed from a
server (``on_guild_remove``, :mod:`bot.services.departure`), players who leave (rule L1, :mod:`bot.services.leavers`:
member removal, channel and role updates, a check when the game needs the player), mutual abort (``/abandon``,
:mod:`bot.ui.mutual`), the result card's Rematch (:mod:`bot.ui.rematch`) and the admins' ``/games``
(:mod:`bot.ui.admin`).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.first_response import PRIVATE_ANSWER
from bot.services import departure, leavers
from bot.ui import admin, mutual, rematch, watch

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


class UnstuckCog(commands.Cog, name="unstuck"):
    """Shared commands and events of the games' lifecycle."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.sweeper = leavers.Sweeper(bot.games, getattr(bot.config, "departure_check_s", 0.0))

    @app_commands.command(
        name="abandon", description="Propose to abort this channel's game: every player must agree; not rated"
    )
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction) -> None:
        record = await self.bot.games.channel_record(interaction.channel_id or 0, user_id=interaction.user.id)
        await mutual.agree(interaction, record.id)

    @app_commands.command(
        name="games", description="This server's open games: watch one (admins: abort one)", extras=PRIVATE_ANSWER
    )
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        await admin.listing(interaction)

    @app_commands.command(
        name="mygames",
        description="Your open games in this server: whose turn, time left, links",
        extras=PRIVATE_ANSWER,
    )
    @app_commands.guild_only()
    async def mygames(self, interaction: discord.Interaction) -> None:
        await watch.my_games(interaction)

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

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.sweeper.start()  # once: games idle on a seat are checked for players who left (L1)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Whoever uses the bot is present in its guild: no member lookup for them for a while (L1)."""
        leavers.seen(interaction.guild_id, interaction.user.id)

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Only with the (privileged) members intent: the member's running games lose that seat (L1)."""
        await leavers.member_removed(self.bot.games, payload.guild_id, payload.user.id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """A channel's overwrites changed: players who can no longer see a game there forfeit their seat (L1)."""
        if before.overwrites != after.overwrites:
            await leavers.channel_changed(self.bot.games, after.guild.id, after.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions:
            await leavers.channel_changed(self.bot.games, after.guild.id, None)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.unstuck")``."""
    bot.add_dynamic_items(*mutual.DYNAMIC_ITEMS, *rematch.DYNAMIC_ITEMS, *admin.DYNAMIC_ITEMS, *watch.DYNAMIC_ITEMS)
    bot.games.on_committed.append(partial(mutual.on_commit, bot.games))
    bot.games.on_committed.append(partial(leavers.on_commit, bot.games))
    await bot.add_cog(UnstuckCog(bot))
