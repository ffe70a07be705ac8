"""``/learn <game>``: a guided first game against a gentle AI (``bot/services/tutorial.py``), one subcommand per
registered game that ships a lesson (``<package>/tutorial.py``), named after the game.

The answer is private (a link to the tutorial's thread); the game itself is a real one in that thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.first_response import PRIVATE_ANSWER
from bot.services.tutorial import lesson_of
from bot.ui import learn_views

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.core.kind import GameKind

SUBCOMMAND = "A guided first game of this game against a gentle AI, one rule at a time"


class LearnCog(
    commands.GroupCog,
    name="learn",
    group_name="learn",
    group_description="Learn a game: a guided first game against a gentle AI, one rule at a time",
):
    """The tutorial commands: ``/learn <game>`` for each game with a lesson."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()
        for kind in bot.games.kinds.values():
            if lesson_of(kind) is not None:
                self.app_command.add_command(self._command(kind))

    def _command(self, kind: GameKind) -> app_commands.Command[Any, ..., None]:
        bot = self.bot

        async def learn(interaction: discord.Interaction) -> None:
            await bot.games.tutorials.open(interaction, kind)

        return app_commands.Command(name=kind.name, description=SUBCOMMAND, callback=learn, extras=PRIVATE_ANSWER)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.learn")``."""
    await bot.add_cog(LearnCog(bot))
    bot.add_dynamic_items(*learn_views.DYNAMIC_ITEMS)
