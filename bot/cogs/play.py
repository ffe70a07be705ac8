"""``/play join game:<game> [seats] [clock] [bots]`` and ``/play leave``: quick-match queues
(``bot/services/matchqueue.py``).

The answer to joining is private (queued, how many wait, a **Leave the queue** button) unless the join completes a
group: then the game opens as a challenge accepted by everyone would (``Lobby.open``) and the paired players are
mentioned in the channel with a link to the board. The ``game`` choices are the registered games.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.clock import CLOCK_HELP
from bot.errors import BotError
from bot.first_response import PRIVATE_ANSWER
from bot.ui import queue_views
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.core.layer import GameLayer

Clock = Literal["live", "daily", "none"]


class PlayCog(commands.GroupCog, name="play", group_name="play", group_description="Quick match: get paired"):
    """The quick-match commands."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()
        choices: list[app_commands.Choice[str | int | float]] = [
            app_commands.Choice(name=name, value=name) for name in bot.games.kinds
        ]
        command = self.join
        command._params["game"] = replace(command._params["game"], choices=choices)  # the registered games

    @property
    def games(self) -> GameLayer:
        return self.bot.games

    @app_commands.command(name="join", description="Wait for players of a game: you are paired with the first ones")
    @app_commands.describe(
        game="Which game",
        seats="Players at the table (default: the game's largest table)",
        clock=CLOCK_HELP,
        bots="After a short wait, fill the free seats with AI players (default: wait for people)",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 2, 8] | None = None,
        clock: Clock | None = None,
        bots: bool = False,
    ) -> None:
        kind = self.games.kinds.get(game)
        if kind is None:
            raise BotError("err.no_such_kind", game=game)
        wanted = kind.seating.max_seats if seats is None else seats
        await self.games.queue.join(interaction, kind, seats=wanted, clock=clock, bots=bots)

    @app_commands.command(name="leave", description="Leave the quick-match queue you wait in", extras=PRIVATE_ANSWER)
    async def leave(self, interaction: discord.Interaction) -> None:
        left = await self.games.queue.leave(interaction.user.id)
        note = await self.games.queue.notice(interaction.user.id, interaction.locale)
        await reply(interaction, queue_views.left_text(self.games, left, interaction.locale, note), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.play")``."""
    await bot.add_cog(PlayCog(bot))
    bot.add_dynamic_items(*queue_views.DYNAMIC_ITEMS)
