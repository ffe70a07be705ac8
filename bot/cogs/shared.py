"""Shared commands of every registered game: ``/leaderboard``, ``/stats``, ``/help`` and the admin ``/abort``.

The games come from the game layer (``bot.games.kinds``): ``/leaderboard``'s ``game`` choices, ``/stats``'s lines
and ``/help``'s sections are built from it. ``/abort`` (Manage Server; hidden from others by default permissions
and re-checked here) ends the open game of the channel, whatever its kind, in the admin's own guild only; it is
never rated. An admin who plays in the running game only proposes it (``/abandon``'s offer, issue 22); an aborted
CONEX game's message reveals the deal's seed. It goes through the game layer (lock and version check like every
other action); afterwards every message the game stored (board, lobby) loses its components.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.games import mutual
from bot.games.publish import render_png
from bot.i18n import t
from bot.views.common import defer, png_file, reply

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


def places_counts(places: dict[int, int]) -> tuple[int, int, int]:
    """Rated places as three counts: 1st, 2nd, 3rd or lower."""
    return places.get(1, 0), places.get(2, 0), sum(n for p, n in places.items() if p >= 3)


def wdl_columns(locale: discord.Locale | str | None) -> tuple[str, str, str]:
    """The leaderboard's count columns of a two-player game: wins, losses, draws."""
    return t("lb.col_w", locale), t("lb.col_l", locale), t("lb.col_d", locale)


def place_columns(locale: discord.Locale | str | None) -> tuple[str, str, str]:
    """The leaderboard's count columns of a game of 3-4 players: 1st, 2nd, 3rd or lower places."""
    return t("lb.col_1", locale), t("lb.col_2", locale), t("lb.col_3", locale)


class SharedCog(commands.Cog, name="shared"):
    """Commands common to every game."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        choices: list[app_commands.Choice[str | int | float]] = [
            app_commands.Choice(name=name, value=name) for name in bot.games.kinds]
        command = self.leaderboard
        command._params["game"] = replace(command._params["game"], choices=choices)  # the registered games

    def _by_place(self, name: str) -> bool:
        """Results of this game are places (a game of 3 or more seats), not wins and losses."""
        kind = self.bot.games.kinds.get(name)
        return kind is not None and kind.seating.max_seats > 2

    def _title(self, name: str) -> str:
        kind = self.bot.games.kinds.get(name)
        if kind is None:
            raise BotError("err.no_such_kind", game=name)
        return kind.title

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
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        from render.results import leaderboard_text, render_leaderboard

        game_title = self._title(game)
        await defer(interaction)
        guild = interaction.guild
        title = t("lb.title", interaction.locale, game=game_title, guild=guild.name if guild else "")
        rows = await self.bot.storage.leaderboard(interaction.guild_id or 0, game, limit=LEADERBOARD_SIZE)
        by_place = self._by_place(game)
        table = []
        for r in rows:
            if by_place:  # a game ranking 3-4 players: how often 1st, 2nd, lower (a 2nd place is no loss)
                stats = await self.bot.storage.player_stats(interaction.guild_id or 0, game, r.user_id)
                counts = places_counts(stats.places)
            else:
                counts = (r.wins, r.losses, r.draws)
            table.append((r.rank, await self.display_name(guild, r.user_id), r.display, *counts))
        columns = place_columns(interaction.locale) if by_place else wdl_columns(interaction.locale)
        if not table:  # nobody rated yet: one sentence, no empty picture
            await reply(interaction, t("lb.empty", interaction.locale, game=game_title),
                        allowed_mentions=discord.AllowedMentions.none())
            return
        png = await self.bot.games.cpu(render_png, render_leaderboard, table, title=title, columns=columns)
        text = leaderboard_text(table, title=title, columns=columns)
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
        loc = interaction.locale
        for kind, title in ((k.name, k.title) for k in self.bot.games.kinds.values()):
            stats = await self.bot.storage.player_stats(interaction.guild_id or 0, kind, target.id)
            row = stats.rating
            if row is None:
                lines.append(t("stats.none", loc, game=title))
            elif self._by_place(kind):
                places = " · ".join(t("stats.place", loc, place=p, n=n) for p, n in stats.places.items())
                lines.append(t("stats.row_places", loc, game=title, rank=row.rank, rating=row.display,
                               games=row.games, places=places or "—"))
            else:
                lines.append(t("stats.row", loc, game=title, rank=row.rank, rating=row.display, games=row.games,
                               wins=row.wins, losses=row.losses, draws=row.draws))
            ai = stats.vs_ai
            if ai.wins + ai.draws + ai.losses:  # games against the AI: never rated, counted apart
                lines.append(t("stats.vs_ai", loc, wins=ai.wins, draws=ai.draws, losses=ai.losses))
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="help", description="How to play with this bot")
    async def help(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        sections = "".join(t(f"{kind.prefix}.help", loc) for kind in self.bot.games.kinds.values())
        await reply(interaction, t("help.head", loc) + sections + t("help.tail", loc), ephemeral=True)

    @app_commands.command(name="abort", description="Admins: end this channel's game (not rated)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def abort(self, interaction: discord.Interaction) -> None:
        if not interaction.permissions.manage_guild:
            raise BotError("err.forbidden")
        record = await self.bot.storage.active_game_in_channel(interaction.channel_id or 0)
        if record is None or record.guild_id != interaction.guild_id or record.kind not in self.bot.games.kinds:
            raise BotError("err.no_game_in_channel")
        games = self.bot.games
        if record.status == "active" and mutual.needs_consent(games.snapshot(record), interaction.user.id):
            await mutual.agree(interaction, record.id)  # a seated admin: an offer, like /abandon (issue 22)
            await reply(interaction, t("abort.seated_admin", interaction.locale), ephemeral=True)
            return
        committed = await games.abort(record.id, by=interaction.user.id, guild_id=interaction.guild_id or 0)
        title = self._title(record.kind)
        await reply(interaction, t("abort.done", interaction.locale, name=interaction.user.display_name, game=title)
                    + mutual.abort_note(committed.snap, interaction.locale))
        await games.lobby.closed_by_admin(committed, interaction.user.display_name)
        await games.publisher.strip_all(committed.snap.record)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.shared")``."""
    await bot.add_cog(SharedCog(bot))
