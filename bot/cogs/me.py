"""``/mysettings``: a player's own settings (private): turn alerts by DM (:mod:`bot.services.alerts`), their own
language (:mod:`bot.services.language`), and how the pictures only they see look: theme and palette
(:mod:`bot.services.looks`).

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
from bot.services.looks import look_from
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
    @app_commands.describe(
        theme="Your private pictures (hand, hints, zoom, analysis): dark or light background",
        palette="Player colours of your private pictures: standard, or colour-blind (with patterns)",
    )
    @app_commands.describe(language="The language the bot uses for you alone (auto: your Discord's)")
    @anywhere
    async def mysettings(
        self,
        interaction: discord.Interaction,
        alerts: Literal["on", "off"] | None = None,
        theme: Literal["dark", "light"] | None = None,
        palette: Literal["standard", "colour-blind"] | None = None,
        language: Literal["auto", "en", "es"] | None = None,
    ) -> None:
        games = self.bot.games
        lines: list[str] = []
        if language is not None:  # first: the rest of the answer is already in the chosen language
            await games.languages.choose(interaction, language)
        loc = interaction.locale
        prefs = await self.bot.storage.get_prefs(interaction.user.id)
        look_changes = {k: v for k, v in (("theme", theme), ("palette", palette)) if v is not None}
        if look_changes:
            prefs = await self.bot.storage.set_prefs(interaction.user.id, **look_changes)
            if alerts is None and language is None:
                lines.append(t("settings.saved", loc))
        look = look_from(prefs)
        look_line = t(
            "me.look", loc, theme=t(f"me.theme_{look.theme}", loc), palette=t(f"me.palette_{look.palette}", loc)
        )
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
                await reply(interaction, "\n".join([*lines, t("me.alerts_closed", loc), look_line]), ephemeral=True)
                return
            await games.alerts.set(interaction.user.id, True)
            state = True
            lines.append(t("settings.saved", loc))
        elif alerts == "off":
            await games.alerts.set(interaction.user.id, False)
            state = False
            lines.append(t("settings.saved", loc))
        lines.append(t("me.alerts_on" if state else "me.alerts_off", loc))
        lines.append(t(f"me.language_{games.languages.chosen_by(interaction.user.id)}", loc))
        lines.append(look_line)
        if language is not None and alerts is None:
            lines.insert(0, t("settings.saved", loc))
        await reply(interaction, "\n".join(lines), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.me")``."""
    await bot.add_cog(MeCog(bot))
