"""Game records of every registered game (issue 16): ``/history [user] [game]`` and ``/replay game:<id>``.

``/history`` answers privately with a page of the player's finished games in this server (``bot/ui/history.py``:
Newer / Older buttons and a select opening a game's record). ``/replay`` posts the animated replay, the move list
and the record JSON of a finished game of this server (``private:True``: only the caller sees it); its ``game``
option suggests the caller's recent games. Running, aborted and other servers' games are refused
(``bot/services/records.py``). The persistent components of records (result card buttons, history paging) are
registered here.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError, storage_failure
from bot.first_response import PRIVATE_ANSWER
from bot.ui import history, record_views, stepper
from bot.ui.common import reply

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_GAMES = 25
MAX_INTEGER_OPTION = 2**53 - 1  # Discord's INTEGER option range is ±(2^53 - 1) (Int53Type in its OpenAPI spec)


class RecordsCog(commands.Cog, name="records"):
    """``/history`` and ``/replay``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        choices: list[app_commands.Choice[str | int | float]] = [
            app_commands.Choice(name=kind.title, value=name) for name, kind in bot.games.kinds.items()
        ]
        command = self.history
        command._params["game"] = replace(command._params["game"], choices=choices)  # the registered games

    @app_commands.command(name="history", description="A player's recent games in this server", extras=PRIVATE_ANSWER)
    @app_commands.describe(user="Whose games (you by default)", game="Only games of this kind")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction, user: discord.User | None = None, game: str | None = None
    ) -> None:
        if game is not None and game not in self.bot.games.kinds:
            raise BotError("err.no_such_kind", game=game)
        target = user or interaction.user
        layer = self.bot.games
        page = await history.load_page(layer, interaction.guild_id or 0, target.id, game, "t0")
        await reply(interaction, ephemeral=True, **await history.page_message(layer, page, interaction.locale))

    @app_commands.command(name="replay", description="Replay a finished game: animation, move list and record")
    @app_commands.describe(
        game="Game number (your recent games are suggested)",
        private="Only you see the replay (default: the channel sees it)",
    )
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1, MAX_INTEGER_OPTION],
        private: bool = False,
    ) -> None:
        await record_views.send_replay(interaction, game, ephemeral=private)

    @replay.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str | int
    ) -> list[app_commands.Choice[int]]:
        """The caller's recent finished games here (newest first), filtered by the digits typed."""
        typed = str(current or "").strip().lstrip("#")
        try:
            rows = await self.bot.storage.finished_games(
                interaction.guild_id or 0, interaction.user.id, limit=AUTOCOMPLETE_GAMES
            )
        except Exception as err:  # no suggestions rather than a traceback (a storage failure is one line)
            failure = storage_failure(err)
            if failure is None:
                raise
            log.warning("storage failure (%s) in /replay's autocomplete: %s", failure, err)
            return []
        titles = history.titles_of(self.bot.games)
        out = []
        for row in rows:
            if typed and not str(row.game_id).startswith(typed):
                continue
            outcome = history.outcome_text(row, interaction.locale)  # "2nd of 4" as /history says it, not "loss"
            when = row.finished_at.astimezone(UTC).strftime("%Y-%m-%d")
            name = f"#{row.game_id} · {titles.get(row.kind, row.kind)} · {outcome} · {when}"
            out.append(app_commands.Choice(name=name[:100], value=row.game_id))
        return out


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.records")``; registers the records' persistent
    components (Replay, Download record, history paging, the replay stepper)."""
    bot.add_dynamic_items(*record_views.DYNAMIC_ITEMS, *history.DYNAMIC_ITEMS, *stepper.DYNAMIC_ITEMS)
    await bot.add_cog(RecordsCog(bot))
