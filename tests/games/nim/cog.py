"""``/nim challenge`` and ``/nim take`` (``bot/games/nim/cog.py`` in a shipped game): commands only, everything
else is the game layer's (the command group's helpers: :class:`bot.ui.common.GameCog`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core.envelope import Seat
from bot.i18n import t
from bot.ui.common import GameCog, guild_locale
from tests.games.nim.kind import KIND

if TYPE_CHECKING:
    from bot.app import TableBot


@app_commands.guild_only()
class NimCog(GameCog, name="nim", group_name="nim", group_description="Play Nim (a test game)"):
    kind = KIND

    @app_commands.command(name="challenge", description="Challenge someone (or me) to Nim")
    @app_commands.describe(opponent="Who you play against", heaps="Heap sizes, e.g. 3 4 5")
    async def challenge(
        self, interaction: discord.Interaction, opponent: discord.User, heaps: str | None = None
    ) -> None:
        loc, me = guild_locale(interaction), interaction.user
        vs_ai = self.vs_ai(interaction, opponent)
        options = KIND.rules.validate_options({"heaps": heaps})
        ai_name = KIND.narration.ai_seat_name("perfect", 1, loc)
        second = Seat.of(ai_name, "perfect") if vs_ai else Seat.of(opponent.display_name)
        await self.games.lobby.open(
            interaction,
            KIND,
            options=options,
            seats=[Seat.of(me.display_name), second],
            players=[me.id, opponent.id],
            invited=None if vs_ai else opponent.id,
            title=t("nm.thread_title", loc, a=me.display_name, b=second.name),
        )

    @app_commands.command(name="take", description="Take stones from one heap")
    @app_commands.describe(heap="Heap number (from 1)", count="How many stones")
    async def take(self, interaction: discord.Interaction, heap: int, count: int) -> None:
        record = await self.here(interaction)
        await self.games.play(interaction, record.id, f"take {heap} {count}")


async def setup(bot: TableBot) -> None:
    await bot.add_cog(NimCog(bot))
