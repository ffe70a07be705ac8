"""``/tournament create|join|leave|start|withdraw|standings|cancel``: tournaments (``bot/services/tournaments.py``).

Creating, starting and cancelling answer in the channel (everyone should know); joining, leaving, withdrawing and
the standings answer privately. Refusals are private and say why. The ``game`` choices are the registered games.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.clock import CLOCK_HELP
from bot.core.mentions import ping
from bot.core.names import plain
from bot.errors import BotError
from bot.first_response import PRIVATE_ANSWER
from bot.i18n import t, tn
from bot.services import tourney_text
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.core.layer import GameLayer

Clock = Literal["live", "daily", "none"]
Format = Literal["swiss", "roundrobin"]


class TournamentCog(
    commands.GroupCog, name="tournament", group_name="tournament", group_description="Tournaments: Swiss or round robin"
):
    """The tournament commands."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        super().__init__()
        choices: list[app_commands.Choice[str | int | float]] = [
            app_commands.Choice(name=name, value=name) for name in bot.games.kinds
        ]
        command = self.create
        command._params["game"] = replace(command._params["game"], choices=choices)  # the registered games

    @property
    def games(self) -> GameLayer:
        return self.bot.games

    def _title(self, kind: str) -> str:
        found = self.games.kinds.get(kind)
        return found.title if found else kind

    @app_commands.command(name="create", description="Open a tournament in this channel (one per server at a time)")
    @app_commands.describe(
        game="Which game",
        format="swiss (a fixed number of rounds) or roundrobin (everyone plays everyone, 3-10 players)",
        rounds="Swiss only: how many rounds (default 3)",
        clock=CLOCK_HELP,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: Format = "swiss",
        rounds: app_commands.Range[int, 1, 10] | None = None,
        clock: Clock | None = None,
    ) -> None:
        kind = self.games.kinds.get(game)
        if kind is None:
            raise BotError("err.no_such_kind", game=game)
        tour = await self.games.tournaments.create(interaction, kind, format, rounds, clock)
        loc = tour.locale
        rounds_text = t("tourney.rounds_text", loc, rounds=tour.rounds) if tour.format == "swiss" else ""
        said = t(
            "tourney.created",
            loc,
            organiser=interaction.user.mention,
            game=kind.title,
            format=tourney_text.fmt_name(tour.format, loc),
            rounds_text=rounds_text,
            clock=t(f"clk.preset_{tour.clock}", loc),
        )
        await reply(interaction, said)

    @app_commands.command(name="join", description="Take part in this server's tournament", extras=PRIVATE_ANSWER)
    async def join(self, interaction: discord.Interaction) -> None:
        tour, n = await self.games.tournaments.join(interaction)
        said = tn("tourney.joined", n, interaction.locale, game=self._title(tour.kind))
        await reply(interaction, said, ephemeral=True)

    @app_commands.command(
        name="leave", description="Take back your entry before the tournament starts", extras=PRIVATE_ANSWER
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        tour = await self.games.tournaments.leave(interaction)
        await reply(interaction, t("tourney.left", interaction.locale, game=self._title(tour.kind)), ephemeral=True)

    @app_commands.command(
        name="start", description="Start the tournament (organiser or admin): round 1 is paired and its games open"
    )
    async def start(self, interaction: discord.Interaction) -> None:
        tour, _games, failed = await self.games.tournaments.begin(interaction)
        loc = tour.locale
        players = await self.games.storage.tourney_players(tour.id)
        head = t(
            "tourney.started_text",
            loc,
            game=self._title(tour.kind),
            n=len(players),
            format=tourney_text.fmt_name(tour.format, loc),
            rounds=tour.rounds,
        )
        late = f"\n{tn('tourney.not_opened', failed, loc)}" if failed else ""
        for text, mentions in tourney_text.round_text(tour, self._title(tour.kind), _games, lead=head + late):
            await reply(interaction, text, allowed_mentions=ping(mentions))  # the answer, then followups

    @app_commands.command(
        name="withdraw", description="Leave a running tournament: you are not paired again", extras=PRIVATE_ANSWER
    )
    async def withdraw(self, interaction: discord.Interaction) -> None:
        tour = await self.games.tournaments.withdraw(interaction)
        said = t("tourney.withdrew", interaction.locale, game=self._title(tour.kind))
        await reply(interaction, said, ephemeral=True)

    @app_commands.command(
        name="standings", description="The tournament's standings, with the tie-breaks", extras=PRIVATE_ANSWER
    )
    @app_commands.describe(page="Which page")
    async def standings(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100] = 1) -> None:
        if not interaction.guild_id:
            raise BotError("err.guild_only")
        tour = await self.games.storage.tourney_current(interaction.guild_id)
        if tour is None:
            raise BotError("tourney.none_ever")
        storage = self.games.storage
        entrants = await storage.tourney_players(tour.id)
        games = self.games.tournaments.as_games(await storage.tourney_games(tour.id))
        text, _n = tourney_text.standings_page(tour, self._title(tour.kind), entrants, games, page, interaction.locale)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="cancel", description="Cancel the tournament before it starts (organiser or admin)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        tour = await self.games.tournaments.cancel(interaction)
        said = t(
            "tourney.cancelled", tour.locale, name=plain(interaction.user.display_name), game=self._title(tour.kind)
        )
        await reply(interaction, said)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.tournament")``."""
    await bot.add_cog(TournamentCog(bot))
