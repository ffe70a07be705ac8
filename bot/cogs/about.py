"""``/about``: what is running (version, uptime, servers, shards) and the link to invite the bot elsewhere.

The invite link asks for the scopes ``bot`` and ``applications.commands`` and the permissions integer
:data:`INVITE_PERMISSIONS`: exactly what the games check in a channel and its threads (``bot.services.access``): View
Channel, Send Messages, Send Messages in Threads, Create Public Threads (a busy channel's game opens in a thread),
Attach Files (boards are pictures). No embeds are sent and no message is read back, so nothing more is asked.
"""

from __future__ import annotations

import time
from importlib import metadata
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t, tn
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot

INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    attach_files=True,
).value
"""309237681152: the permissions the invite link asks for (see the module docstring)."""
INVITE_SCOPES = ("bot", "applications.commands")
INVITE_URL = (
    "https://discord.com/oauth2/authorize?client_id={client_id}&scope=bot+applications.commands"
    "&permissions={permissions}"
)


USER_INSTALL_URL = (
    "https://discord.com/oauth2/authorize?client_id={client_id}&integration_type=1&scope=applications.commands"
)
"""Adds the app to the reader's own account (USER_INSTALL: its commands in DMs and group DMs, ``bot/ui/installs.py``;
only the ``applications.commands`` scope exists for a user install)."""


def invite_url(client_id: int) -> str:
    """The OAuth2 URL that adds the bot with application ``client_id`` to a server, with its commands and
    :data:`INVITE_PERMISSIONS`."""
    return INVITE_URL.format(client_id=client_id, permissions=INVITE_PERMISSIONS)


def version() -> str:
    """The installed ``tablebot`` distribution's version (``unknown`` when run from a bare source tree)."""
    try:
        return metadata.version("tablebot")
    except metadata.PackageNotFoundError:
        return "unknown"


def duration(seconds: float, locale: discord.Locale | str | None) -> str:
    """``3 d 4 h``, ``4 h 5 min``, ``5 min`` (whole minutes; units from the catalogue)."""
    minutes = int(seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return t("about.days_hours", locale, d=days, h=hours)
    if hours:
        return t("about.hours_minutes", locale, h=hours, m=mins)
    return t("about.minutes", locale, m=mins)


class AboutCog(commands.Cog, name="about"):
    """``/about``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    def text(self, locale: discord.Locale | str | None) -> str:
        """The ``/about`` answer in ``locale``."""
        bot = self.bot
        shard_count = bot.shard_count or 1
        mine = bot.config.shard_ids
        shards = (
            tn("about.shards_some", len(mine), locale, ids=", ".join(map(str, mine)), count=shard_count)
            if mine is not None and len(mine) < shard_count
            else tn("about.shards_all", shard_count, locale)
        )
        games = ", ".join(kind.title for kind in bot.games.kinds.values())
        return t(
            "about.text",
            locale,
            version=version(),
            games=games,
            uptime=duration(time.time() - bot.started_at, locale),
            servers=tn("about.servers", len(bot.guilds), locale),
            shards=shards,
            invite=invite_url(bot.application_id or 0),
        ) + t("uinst.about", locale, url=USER_INSTALL_URL.format(client_id=bot.application_id or 0))

    @app_commands.command(name="about", description="What this bot is, how long it has run, and how to invite it")
    async def about(self, interaction: discord.Interaction) -> None:
        await reply(interaction, self.text(interaction.locale), ephemeral=True)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(AboutCog(bot))
