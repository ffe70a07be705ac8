"""Shared commands of every registered game: ``/leaderboard``, ``/stats``, ``/help`` and the admin ``/abort``.

The games come from the game layer (``bot.games.kinds``): ``/leaderboard``'s ``game`` choices, ``/stats``'s lines
and ``/help``'s sections are built from it. ``/abort`` (Manage Server; hidden from others by default permissions
and re-checked here) ends the open game of the channel, whatever its kind, in the admin's own guild only; it is
never rated. An admin who plays in the running game only proposes it (``/abandon``'s offer, issue 22); an aborted
game that hides a deal reveals it in its message (its kind's ``narration.reveal_on_abort``). It goes through the
game layer (lock and version check like every
other action); afterwards every message the game stored (board, lobby) loses its components.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.names import plain
from bot.core.paging import clip, pages
from bot.core.results import place_name
from bot.errors import BotError
from bot.first_response import PRIVATE_ANSWER
from bot.i18n import image_words, t
from bot.services import reach
from bot.services.publish import render_png
from bot.services.stats_records import record_lines
from bot.storage.ratings import PROVISIONAL_GAMES
from bot.ui import installs, mutual
from bot.ui.common import defer, fill, png_file, reply, report_errors, update

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


def places_counts(places: dict[int, int]) -> tuple[int, int, int]:
    """Rated places as three counts: 1st, 2nd, 3rd or lower."""
    return places.get(1, 0), places.get(2, 0), sum(n for p, n in places.items() if p >= 3)


def places_text(places: dict[int, int], locale: discord.Locale | str | None) -> str:
    """Counts of places named as places, as ``/history`` names them: ``1st ×2 · 2nd ×1`` (``—`` for none)."""
    return " · ".join(t("stats.place", locale, place=place_name(p, locale), n=n) for p, n in places.items()) or "—"


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
            app_commands.Choice(name=name, value=name) for name in bot.games.kinds
        ]
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
                return plain(member.display_name)
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"user …{str(user_id)[-4:]}"
        return plain(user.display_name)

    @app_commands.command(name="leaderboard", description="The server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        self._title(game)
        await defer(interaction)
        content, files, view = await self.leaderboard_page(interaction, game, 0)
        await reply(interaction, content, files=files, view=view, allowed_mentions=discord.AllowedMentions.none())

    async def leaderboard_page(
        self, interaction: discord.Interaction, game: str, page: int
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """Page ``page`` (0-based) of the leaderboard of ``game``: :data:`LEADERBOARD_SIZE` players as text (whole
        lines, within 2,000 characters) and as a picture, with Previous / Next (``lb:pg:<game>:<page>:p|n``) when
        there is more than one page. An empty page (past the end, or nobody rated) is one sentence."""
        from render.results import leaderboard_text, render_leaderboard

        game_title = self._title(game)
        guild = interaction.guild
        loc = interaction.locale
        title = t("lb.title", loc, game=game_title, guild=guild.name if guild else "")
        rows = await self.bot.storage.leaderboard(
            interaction.guild_id or 0, game, limit=LEADERBOARD_SIZE + 1, offset=page * LEADERBOARD_SIZE
        )
        more, rows = len(rows) > LEADERBOARD_SIZE, rows[:LEADERBOARD_SIZE]
        by_place = self._by_place(game)
        table = []
        for r in rows:
            if by_place:  # a game ranking 3-4 players: how often 1st, 2nd, lower (a 2nd place is no loss)
                stats = await self.bot.storage.player_stats(interaction.guild_id or 0, game, r.user_id)
                counts = places_counts(stats.places)
            else:
                counts = (r.wins, r.losses, r.draws)
            table.append((r.rank, await self.display_name(guild, r.user_id), r.shown, *counts))  # "1563?": provisional
        columns = place_columns(loc) if by_place else wdl_columns(loc)
        if not table:  # nobody rated yet: one sentence, no empty picture
            return t("lb.empty", loc, game=game_title), [], None
        headings = (t("lb.col_player", loc), t("lb.col_rating", loc))
        words = image_words(loc)
        png = await self.bot.games.cpu(
            render_png, render_leaderboard, table, title=title, columns=columns, headings=headings, words=words
        )
        text = leaderboard_text(table, title=title, columns=columns, words=words)
        view = None
        if page > 0 or more:
            text = f"{text}\n{t('lb.page', loc, page=page + 1)}"
            view = discord.ui.View(timeout=None)
            view.add_item(LeaderboardPage(game, page - 1, "p", disabled=page == 0, locale=loc.value))
            view.add_item(LeaderboardPage(game, page + 1, "n", disabled=not more, locale=loc.value))
        return f"```\n{clip(text, 1990)}\n```", [png_file(png, f"leaderboard-{game}.png")], view

    @app_commands.command(name="stats", description="Ratings and results of a player (you by default)")
    @app_commands.describe(user="Whose stats", opponent="Head-to-head: results against this player")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None, opponent: discord.User | None = None
    ) -> None:
        target = user or interaction.user
        if opponent is not None and opponent.id == target.id:
            raise BotError("err.stats_self")
        await defer(interaction)
        lines = [t("stats.title", interaction.locale, name=plain(target.display_name))]
        loc = interaction.locale
        provisional = False
        against = (opponent.id, plain(opponent.display_name)) if opponent is not None else None
        for game in self.bot.games.kinds.values():
            kind, title = game.name, game.title
            stats = await self.bot.storage.player_stats(interaction.guild_id or 0, kind, target.id)
            row = stats.rating
            provisional = provisional or (row is not None and row.provisional)
            if row is None:
                lines.append(t("stats.none", loc, game=title))
            elif self._by_place(kind):
                places = places_text(stats.places, loc)
                lines.append(
                    t(
                        "stats.row_places",
                        loc,
                        game=title,
                        rank=row.rank,
                        rating=row.shown,
                        games=row.games,
                        places=places,
                    )
                )
            else:
                lines.append(
                    t(
                        "stats.row",
                        loc,
                        game=title,
                        rank=row.rank,
                        rating=row.shown,
                        games=row.games,
                        wins=row.wins,
                        losses=row.losses,
                        draws=row.draws,
                    )
                )
            ai = stats.vs_ai
            if ai.wins + ai.draws + ai.losses and self._by_place(kind):  # places, as the rated line (README)
                lines.append(t("stats.vs_ai_places", loc, places=places_text(stats.vs_ai_places, loc)))
            elif ai.wins + ai.draws + ai.losses:  # games against the AI: never rated, counted apart
                lines.append(t("stats.vs_ai", loc, wins=ai.wins, draws=ai.draws, losses=ai.losses))
            guild_id = interaction.guild_id or 0
            lines += await record_lines(self.bot.storage, game, guild_id, target.id, against, loc)  # issue 25
        if provisional:  # a provisional rating is shown: say what "?" means
            lines.append(t("stats.provisional", loc, games=PROVISIONAL_GAMES))
        for part in pages(lines):  # whole lines, within 2,000 characters a message
            await reply(interaction, "\n".join(part), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="help", description="How to play with this bot", extras=PRIVATE_ANSWER)
    @installs.anywhere
    async def help(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        sections = "".join(t(f"{kind.prefix}.help", loc) for kind in self.bot.games.kinds.values())
        sections = self.bot.games.tutorials.help_line(loc) + sections  # new players start with /learn
        text = t("help.head", loc) + sections + t("help.tail", loc)
        if reach.of_interaction(interaction) == reach.INTERACTIONS:  # where the bot is no member: what differs
            text += t("uinst.help", loc, commands=installs.user_commands(self.bot.tree))
        # several private messages of whole lines when the games' sections outgrow one (2,000 characters)
        for part in pages(text.split("\n")):
            await reply(interaction, "\n".join(part), ephemeral=True)

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
        user_id = interaction.user.id
        try:  # a seated admin (on the game as it is when the abort commits) only offers it, like /abandon (issue 22)
            if record.status == "active" and mutual.needs_consent(games.snapshot(record), user_id):
                raise BotError("abort.seated_admin_games")
            check = mutual.refuse_seated(user_id)
            committed = await games.abort(record.id, by=user_id, guild_id=interaction.guild_id or 0, check=check)
        except BotError as err:
            if err.key != "abort.seated_admin_games":
                raise
            await mutual.agree(interaction, record.id)
            await reply(interaction, t("abort.seated_admin", interaction.locale), ephemeral=True)
            return
        title = self._title(record.kind)
        await reply(
            interaction,
            t("abort.done", interaction.locale, name=plain(interaction.user.display_name), game=title)
            + mutual.abort_note(committed.snap, interaction.locale),
        )
        await games.lobby.closed_by_admin(committed, plain(interaction.user.display_name))
        await games.publisher.strip_all(committed.snap.record)


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"lb:pg:(?P<game>[a-z][a-z0-9_]{0,31}):(?P<page>[0-9]{1,3}):(?P<d>[pn])",
):
    """Previous / Next page of a leaderboard. On the public leaderboard it answers the clicker privately with that
    page; on such a private page it turns the page in place."""

    def __init__(self, game: str, page: int, way: str, *, disabled: bool = False, locale: str | None = None) -> None:
        self.game, self.page = game, max(0, page)
        label = t("ui.page_prev" if way == "p" else "ui.page_next", locale)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:pg:{game}:{self.page}:{way}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardPage:
        return cls(match["game"], int(match["page"]), match["d"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            cog = interaction.client.get_cog("shared")  # type: ignore[attr-defined]
            assert isinstance(cog, SharedCog)
            none = discord.AllowedMentions.none()
            message = interaction.message
            if message is not None and message.flags.ephemeral:
                content, files, view = await cog.leaderboard_page(interaction, self.game, self.page)
                await update(interaction, content=content, attachments=files, view=view, allowed_mentions=none)
                return
            await defer(interaction, ephemeral=True)
            content, files, view = await cog.leaderboard_page(interaction, self.game, self.page)
            await fill(interaction, content, ephemeral=True, files=files, view=view, allowed_mentions=none)

        await report_errors(interaction, work)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.shared")``."""
    await bot.add_cog(SharedCog(bot))
    bot.add_dynamic_items(LeaderboardPage)
