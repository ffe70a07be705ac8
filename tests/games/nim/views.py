"""Nim's one component (``bot/games/nim/views.py`` in a shipped game): ``nm:take:<game>:<version>``, a select of
the legal takes (at most 25); the click goes to the game layer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.ui.common import games, report_errors
from tests.games.nim.engine import Take


class TakeSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"nm:take:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """Take stones: the options are the legal takes of the player to move, on the board drawn at ``version``."""

    def __init__(self, game_id: int, version: int, takes: Sequence[Take] = (), *, locale: str | None = None) -> None:
        self.game_id, self.version = game_id, version
        options = [discord.SelectOption(label=t("ui.nm_option", locale, heap=m.heap, count=m.count), value=str(m))
                   for m in list(takes)[:25]]
        super().__init__(discord.ui.Select(custom_id=f"nm:take:{game_id}:{version}",
                                           placeholder=t("ui.nm_take", locale), options=options))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeSelect:
        return cls(int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await report_errors(interaction, lambda: games(interaction).play(interaction, self.game_id, value,
                                                                         expected_version=self.version))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TakeSelect,)


def take_view(game_id: int, version: int, takes: Sequence[Take], *, locale: str | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSelect(game_id, version, takes, locale=locale))
    return view
