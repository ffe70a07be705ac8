"""``/puzzle play [difficulty]``, ``/puzzle streaks`` and ``/puzzle daily_channel`` (issue 25.3).

``play`` answers privately with one puzzle of the shipped set (``puzzle_service``); ``streaks`` shows the server's
daily-puzzle streaks privately, paged; ``daily_channel`` (Manage Server, re-checked here like ``/settings``) sets
or stops the server's daily puzzle: a channel and an hour (UTC, default 12 or the hour already set). A channel
where the bot lacks View Channel, Send Messages or Attach Files (``bot.services.access``) is refused naming what is
missing, and nothing is changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.first_response import PRIVATE_ANSWER
from bot.games.constructo import puzzle_views
from bot.games.constructo.puzzle_service import DailyPuzzles, next_time
from bot.i18n import t
from bot.services import access
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot

Level = Literal["easy", "medium", "hard"]
DEFAULT_HOUR = 12
LAST_HOUR = 23


class PuzzleCog(
    commands.GroupCog, name="puzzle", group_name="puzzle", group_description="Puzzles: find the one best move"
):
    """The puzzle commands."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.daily = DailyPuzzles(bot.games, puzzle_views.answer_view)
        super().__init__()

    @app_commands.command(
        name="play",
        description="A puzzle for you alone: find the one move that keeps the best result",
        extras=PRIVATE_ANSWER,
    )
    @app_commands.describe(difficulty="easy, medium or hard (default: any)")
    async def play(self, interaction: discord.Interaction, difficulty: Level | None = None) -> None:
        await puzzle_views.send_puzzle(interaction, difficulty)

    @app_commands.command(
        name="streaks", description="Who solved the most daily puzzles in a row here", extras=PRIVATE_ANSWER
    )
    @app_commands.guild_only()
    async def streaks(self, interaction: discord.Interaction) -> None:
        content, view = await puzzle_views.streaks_page(interaction, 0)
        await reply(interaction, content, ephemeral=True, view=view, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name="daily_channel", description="Admins: post a daily puzzle in a channel", extras=PRIVATE_ANSWER
    )
    @app_commands.describe(
        channel="Where the daily puzzle is posted",
        hour="Hour of the day (UTC, 0-23) it is posted (default: 12, or the hour already set)",
        off="Stop the daily puzzle",
    )
    @app_commands.guild_only()
    async def daily_channel(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel | None = None,
        hour: app_commands.Range[int, 0, LAST_HOUR] | None = None,
        off: bool = False,
    ) -> None:
        if not interaction.permissions.manage_guild:
            raise BotError("err.forbidden")
        if hour is not None and not 0 <= hour <= LAST_HOUR:  # Discord's client keeps to the range; a forged one may not
            raise BotError("pz.bad_hour", value=str(hour)[:20], min=0, max=LAST_HOUR)
        loc = interaction.locale
        storage = self.bot.storage
        gid = interaction.guild_id or 0
        current = await storage.puzzle_daily_get(gid)
        if off:
            if channel is not None or hour is not None:
                raise BotError("pz.off_alone")
            stopped = await storage.puzzle_daily_off(gid)
            await reply(interaction, t("pz.daily_off" if stopped else "pz.daily_was_off", loc), ephemeral=True)
            return
        if channel is None:
            if current is None:
                await reply(interaction, t("pz.daily_none", loc), ephemeral=True)
                return
            if hour is None:
                text = t("pz.daily_is", loc, channel=current.channel_id, hour=current.hour, at=int(current.next_at))
                await reply(interaction, text, ephemeral=True)
                return
        channel_id = channel.id if channel is not None else current.channel_id  # type: ignore[union-attr]
        lacking = access.channel_missing(self.bot, channel_id)
        if lacking is not None:  # "Saved." would be false: the puzzle could never be posted there
            raise BotError("pz.daily_missing_perms", channel=channel_id, perms=lacking, count=len(lacking.flags))
        hour = hour if hour is not None else current.hour if current is not None else DEFAULT_HOUR
        if current is not None and (current.channel_id, current.hour) == (channel_id, hour):
            text = t("pz.daily_same", loc, channel=channel_id, hour=hour, at=int(current.next_at))
            await reply(interaction, text, ephemeral=True)
            return
        at = next_time(self.bot.games.clock.now(), hour)
        locale = interaction.guild_locale.value if interaction.guild_locale is not None else None
        await storage.puzzle_daily_set(gid, channel_id, hour, locale, at)
        self.daily.poke()
        text = f"{t('settings.saved', loc)}\n{t('pz.daily_is', loc, channel=channel_id, hour=hour, at=int(at))}"
        await reply(interaction, text, ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Add the cog and its persistent components (called by the game's ``cog.setup``)."""
    await bot.add_cog(PuzzleCog(bot))
    bot.add_dynamic_items(*puzzle_views.DYNAMIC_ITEMS)
