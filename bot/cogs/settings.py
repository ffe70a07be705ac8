"""``/settings`` (Manage Server): the guild's game settings (``Storage.set_guild_settings``).

- ``clock``: the time-control preset of new games whose command chooses none (``bot/core/clock.py``: ``live``,
  ``daily``, ``none``);
- ``expiry``: minutes before an unanswered challenge or lobby expires (1-1440);
- ``games_per_member``, ``games_per_server``, ``threads``: the caps on open games and on the threads the bot opens
  (``bot/services/caps.py``, issue 22);
- ``thread_per_game``: open each new game in a thread of its own where the bot may (``bot/services/footprint.py``).

Without options it shows the settings in force. Hidden from members without Manage Server (default permissions)
and re-checked here; the answer is ephemeral.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import clock as clocks
from bot.errors import BotError
from bot.i18n import t
from bot.services import caps, footprint
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot

Preset = Literal["live", "daily", "none"]


class SettingsCog(commands.Cog, name="settings"):
    """The guild's game settings."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings",
        description="Game settings of this server: clock of new games, expiry of challenges and lobbies",
    )
    @app_commands.describe(
        clock="Clock of new games when the command chooses none",
        expiry="Minutes before an unanswered challenge or lobby expires (1-1440)",
        games_per_member="Open games one member may have here (1-100; default 5)",
        games_per_server="Open games this server may have at once (1-1000; default 50)",
        threads="Open games the bot may put in new threads here (0-500; default 20)",
        thread_per_game="Open each new game in a thread of its own (default: on)",
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        clock: Preset | None = None,
        expiry: app_commands.Range[int, 1, 1440] | None = None,
        games_per_member: app_commands.Range[int, 1, 100] | None = None,
        games_per_server: app_commands.Range[int, 1, 1000] | None = None,
        threads: app_commands.Range[int, 0, 500] | None = None,
        thread_per_game: bool | None = None,
    ) -> None:
        if not interaction.permissions.manage_guild:
            raise BotError("err.forbidden")
        guild_id = interaction.guild_id or 0
        storage = self.bot.storage
        clocks.check_preset(clock)
        clocks.check_expiry(expiry)
        changes: dict[str, object] = {}
        if clock is not None:
            changes[clocks.SETTING_CLOCK] = clock
        if expiry is not None:
            changes[clocks.SETTING_EXPIRY] = int(expiry)
        for name, value in (
            (caps.SETTING_MEMBER, games_per_member),
            (caps.SETTING_SERVER, games_per_server),
            (caps.SETTING_THREADS, threads),
        ):
            if value is None:
                continue
            low, high = caps.RANGES[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise BotError("settings.bad_cap", value=str(value)[:40], min=low, max=high)
            changes[name] = int(value)
        if thread_per_game is not None:
            changes[footprint.SETTING] = bool(thread_per_game)
        current = await (
            storage.set_guild_settings(guild_id, **changes) if changes else storage.get_guild_settings(guild_id)
        )
        loc = interaction.locale
        preset = clocks.preset_of(None, current)
        text = t(
            "settings.show",
            loc,
            clock=f"`{preset}` ({t(f'clk.preset_{preset}', loc)})",
            minutes=clocks.expiry_minutes(current),
        )
        caps_now = caps.limits(current, caps.operator_caps(self.bot.games))
        text += "\n" + t(
            "settings.caps",
            loc,
            member=caps_now[caps.SETTING_MEMBER],
            server=caps_now[caps.SETTING_SERVER],
            threads=caps_now[caps.SETTING_THREADS],
        )
        own = footprint.enabled(current, footprint.operator_default(self.bot.games))
        text += "\n" + t("settings.thread_per_game", loc, value=t("settings.on" if own else "settings.off", loc))
        if changes:
            text = f"{t('settings.saved', loc)}\n{text}"
        await reply(interaction, text, ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.settings")``."""
    await bot.add_cog(SettingsCog(bot))
