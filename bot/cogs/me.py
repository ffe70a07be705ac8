"""``/mysettings``: a player's own settings (private): turn alerts by DM (:mod:`bot.services.alerts`).

``/settings`` stays the admins' command: Discord hides it from members through its default permissions, which a
subcommand cannot override, so a player's own settings have a command of their own, next to ``/mygames``.
Turning alerts on sends a DM at once: when Discord refuses it (closed DMs), the alerts stay off and the answer says
how to open DMs. Alerts turned off by an undeliverable DM are announced here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.first_response import PRIVATE_ANSWER
from bot.i18n import t
from bot.services.alerts import FAILED, ON, UNDELIVERABLE
from bot.ui.common import reply
from bot.ui.installs import anywhere

if TYPE_CHECKING:
    from bot.app import TableBot


class MeCog(commands.Cog, name="me"):
    """A player's own settings."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="mysettings", description="Your own settings: turn alerts by DM", extras=PRIVATE_ANSWER)
    @app_commands.describe(alerts="A DM when a game waits for your move (one per turn; off by default)")
    @anywhere
    async def mysettings(self, interaction: discord.Interaction, alerts: Literal["on", "off"] | None = None) -> None:
        loc = interaction.locale
        games = self.bot.games
        prefs = await self.bot.storage.get_prefs(interaction.user.id)
        lines: list[str] = []
        if prefs.get("alerts") == FAILED:  # said once, then it reads as off
            lines.append(t("me.alerts_failed", loc))
            await self.bot.storage.set_prefs(interaction.user.id, alerts=None)
        state = prefs.get("alerts") == ON
        if alerts == "on":
            try:
                await interaction.user.send(t("me.alerts_hello", loc), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                if getattr(err, "code", None) not in UNDELIVERABLE:
                    raise
                await games.alerts.set(interaction.user.id, False)
                await reply(interaction, "\n".join([*lines, t("me.alerts_closed", loc)]), ephemeral=True)
                return
            await games.alerts.set(interaction.user.id, True)
            state = True
            lines.append(t("settings.saved", loc))
        elif alerts == "off":
            await games.alerts.set(interaction.user.id, False)
            state = False
            lines.append(t("settings.saved", loc))
        lines.append(t("me.alerts_on" if state else "me.alerts_off", loc))
        await reply(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.me")``."""
    await bot.add_cog(MeCog(bot))
