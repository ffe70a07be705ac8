"""``/settings`` (Manage Server): the guild's game settings (``Storage.set_guild_settings``).

- ``clock``: the time-control preset of new games whose command chooses none (``bot/core/clock.py``: ``live``,
  ``daily``, ``none``);
- ``expiry``: minutes before an unanswered challenge or lobby expires (1-1440);
- ``games_per_member``, ``games_per_server``, ``threads``: the caps on open games and on the threads the bot opens
  (``bot/services/caps.py``, issue 22);
- ``thread_per_game``: open each new game in a thread of its own where the bot may (``bot/services/footprint.py``);
- house rules (``bot/services/house.py``): ``allow_channel`` / ``remove_channel`` / ``any_channel`` (where games may
  start), ``game_on`` / ``game_off``, ``rated`` (new games rated or not), ``block`` / ``unblock`` (a member may
  neither start nor join games here; refused for oneself and for the bot); ``reset_ratings`` asks to confirm
  (``bot/ui/server_settings.py``).

"Saved." is said only when a setting changed; an option already so (before the command and in what it saves) is said
so in words, and nothing changing at all is said ("Nothing was changed.", ``bot/ui/settings_same.py``). Options that
pull one setting both ways (``game_on``/``game_off`` of one game, ``allow_channel``/``remove_channel`` of one
channel, ``block``/``unblock`` of one member, ``any_channel:true`` with a channel) are refused: nothing is saved.

Without options it shows the settings in force. Hidden from members without Manage Server (default permissions)
and re-checked here; the answer is ephemeral.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core import clock as clocks
from bot.errors import BotError
from bot.i18n import t
from bot.services import caps, footprint, house
from bot.ui import server_settings, settings_same
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot

Preset = Literal["live", "daily", "none"]


class SettingsCog(commands.Cog, name="settings"):
    """The guild's game settings."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        choices: list[app_commands.Choice[str | int | float]] = [
            app_commands.Choice(name=kind.title, value=name) for name, kind in bot.games.kinds.items()
        ]
        params = self.settings._params
        for option in ("game_on", "game_off", "reset_ratings"):  # the registered games
            params[option] = replace(params[option], choices=choices)

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
        allow_channel="Let games start in this channel (once one is listed, only listed channels)",
        remove_channel="Take a channel off the list of channels where games may start",
        any_channel="True: games may start in any channel again (empties the list)",
        game_on="Turn a game on in this server",
        game_off="Turn a game off in this server (games already open go on)",
        rated="Whether new games here are rated (default: on)",
        reset_ratings="Reset a game's ratings in this server (asks you to confirm)",
        block="Stop a member from starting or joining games here",
        unblock="Let a blocked member play again",
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
        allow_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        any_channel: bool | None = None,
        game_on: str | None = None,
        game_off: str | None = None,
        rated: bool | None = None,
        reset_ratings: str | None = None,
        block: discord.User | None = None,
        unblock: discord.User | None = None,
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
        if block is not None and block.id == interaction.user.id:
            raise BotError("house.block_self")
        loc = interaction.locale
        current = await storage.get_guild_settings(guild_id)
        changes, same = settings_same.same_core(self.bot.games, current, changes, loc)
        house_options = house.HouseOptions(
            allow_channel=allow_channel.id if allow_channel is not None else None,
            remove_channel=remove_channel.id if remove_channel is not None else None,
            any_channel=any_channel,
            game_on=game_on,
            game_off=game_off,
            rated=rated,
            block=block.id if block is not None else None,
            unblock=unblock.id if unblock is not None else None,
        )
        settings_same.refuse_contradictions(self.bot.games, house_options)  # one setting both ways: nothing saved
        rules = server_settings.house_changes(self.bot.games, current, house_options)
        changes.update({k: v for k, v in rules.items() if current.get(k) != v})  # a value already so: no change
        saved = {k: v for k, v in {**current, **changes}.items() if v is not None}  # what this command leaves stored
        same += settings_same.same_house(self.bot.games, current, loc, house_options, saved)
        if changes:
            current = await storage.set_guild_settings(guild_id, **changes)
        given = same or house_options.given()
        head = [t("settings.saved", loc)] if changes else [*same, t("same.nothing", loc)] if given else []
        if changes:
            head += same
        if reset_ratings is not None:  # a confirmation first: nothing is reset by the command itself
            await server_settings.ask_reset(interaction, reset_ratings, "\n".join(head))
            return
        text = "\n".join([*head, server_settings.describe(self.bot.games, current, loc)])
        await reply(interaction, text[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.settings")``."""
    await bot.add_cog(SettingsCog(bot))
    bot.add_dynamic_items(*server_settings.DYNAMIC_ITEMS)
