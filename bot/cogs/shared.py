"""Shared commands: ``/leaderboard``, ``/stats``, ``/help`` and the admin ``/abort``.

``/abort`` (Manage Server; hidden from others by default permissions and re-checked here) ends
the open game of the channel, whatever its kind, in the admin's own guild only; it is never
rated. Afterwards every message the game stored (board, CONEX lobby, Constructo challenge) loses
its components. It goes through the game kind's service (``bot.services[kind].abort``), so it takes the
game's lock and version check like every other action.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.i18n import t
from bot.service.base import GameService
from bot.storage.records import GameRecord
from bot.views.common import png_file, reply

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

GAME_TITLES: dict[str, str] = {"constructo": "Constructo", "conex": "CONEX"}
LEADERBOARD_SIZE = 10


class SharedCog(commands.Cog, name="shared"):
    """Commands common to every game."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def display_name(self, guild: discord.Guild | None, user_id: int) -> str:
        """A member's display name from the caches, else a fetched user name, else ``user …1234``."""
        if guild is not None:
            member = guild.get_member(user_id)
            if member is not None:
                return member.display_name
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"user …{str(user_id)[-4:]}"
        return user.display_name

    @app_commands.command(name="leaderboard", description="The server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: Literal["constructo", "conex"]) -> None:
        from render.results import leaderboard_text, render_leaderboard

        await interaction.response.defer(thinking=True)
        guild = interaction.guild
        title = t("lb.title", interaction.locale, game=GAME_TITLES[game], guild=guild.name if guild else "")
        rows = await self.bot.storage.leaderboard(interaction.guild_id or 0, game, limit=LEADERBOARD_SIZE)
        table = [
            (r.rank, await self.display_name(guild, r.user_id), r.ordinal, r.wins, r.losses, r.draws) for r in rows
        ]
        png = await GameService.render_png(render_leaderboard, table, title=title)
        if table:
            text = leaderboard_text(table, title=title)
        else:
            text = t("lb.empty", interaction.locale, game=GAME_TITLES[game])
        await reply(
            interaction,
            f"```\n{text[:1950]}\n```",
            files=[png_file(png, f"leaderboard-{game}.png")],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default)")
    @app_commands.describe(user="Whose stats")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user
        lines = [t("stats.title", interaction.locale, name=target.display_name)]
        for kind, title in GAME_TITLES.items():
            row = await self.bot.storage.rating_of(interaction.guild_id or 0, kind, target.id)
            if row is None:
                lines.append(t("stats.none", interaction.locale, game=title))
            else:
                lines.append(
                    t(
                        "stats.row", interaction.locale, game=title, rank=row.rank, rating=row.ordinal,
                        games=row.games, wins=row.wins, losses=row.losses, draws=row.draws,
                    )
                )
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        conex = t("help.conex", interaction.locale) if "conex" in self.bot.services else ""
        await reply(interaction, t("help.text", interaction.locale, conex=conex), ephemeral=True)

    @app_commands.command(name="abort", description="Admins: end this channel's game (not rated)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def abort(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_guild:
            raise BotError("err.forbidden")
        record = await self.bot.storage.active_game_in_channel(interaction.channel_id or 0)
        if record is None or record.guild_id != interaction.guild_id:
            raise BotError("err.no_game_in_channel")
        service = self.bot.services.get(record.kind)
        if service is None:
            raise BotError("err.no_game_in_channel")
        committed = await service.abort(record.id, by=interaction.user.id, guild_id=interaction.guild_id or 0)
        text = t("abort.done", interaction.locale, name=interaction.user.display_name, game=GAME_TITLES[record.kind])
        await reply(interaction, text)
        await self.strip_messages(service, committed.record)

    async def strip_messages(self, service: GameService, record: GameRecord) -> int:
        """Remove the components of every message the game stored (board, lobby, challenge...), under
        the game's publish lock so no board posted meanwhile stays live. Returns how many edits
        succeeded (a message that is gone or cannot be edited is logged and skipped)."""
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        done = 0
        async with service.publish_lock(record.id):
            fresh = await service.get(record.id)
            for key, message_id in service.message_ids(fresh).items():
                try:
                    await channel.get_partial_message(message_id).edit(view=None)
                    done += 1
                except discord.HTTPException as err:
                    log.info("could not strip the components of %s message %s: %s", key, message_id, err)
        return done


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.shared")``."""
    await bot.add_cog(SharedCog(bot))
