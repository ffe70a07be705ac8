"""``/nim challenge`` and ``/nim take`` (``bot/games/nim/cog.py`` in a shipped game): commands only, everything
else is the game layer's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.envelope import Seat
from bot.errors import BotError
from bot.i18n import t
from tests.games.nim.kind import KIND

if TYPE_CHECKING:
    from bot.app import TableBot


@app_commands.guild_only()
class NimCog(commands.GroupCog, name="nim", group_name="nim", group_description="Play Nim (a test game)"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="challenge", description="Challenge someone (or me) to Nim")
    @app_commands.describe(opponent="Who you play against", heaps="Heap sizes, e.g. 3 4 5")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User,
                        heaps: str | None = None) -> None:
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        me, games = interaction.user, self.bot.games
        if opponent.id == me.id:
            raise BotError("err.self_challenge")
        vs_ai = opponent.id == games.bot_user_id
        if opponent.bot and not vs_ai:
            raise BotError("err.bot_opponent")
        options = KIND.rules.validate_options({"heaps": heaps})
        second = Seat.of(KIND.narration.ai_seat_name("perfect", 1, loc), "perfect") if vs_ai else Seat.of(opponent.display_name)
        await games.lobby.open(interaction, KIND, options=options, seats=[Seat.of(me.display_name), second],
                               players=[me.id, opponent.id], invited=None if vs_ai else opponent.id,
                               title=t("nm.thread_title", loc, a=me.display_name, b=second.name))

    @app_commands.command(name="take", description="Take stones from one heap")
    @app_commands.describe(heap="Heap number (from 1)", count="How many stones")
    async def take(self, interaction: discord.Interaction, heap: int, count: int) -> None:
        record = await self.bot.games.channel_record(interaction.channel_id or 0, KIND)
        await self.bot.games.play(interaction, record.id, f"take {heap} {count}")


async def setup(bot: TableBot) -> None:
    await bot.add_cog(NimCog(bot))
