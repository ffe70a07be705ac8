"""Nim's one component (``bot/games/nim/views.py`` in a shipped game): ``nm:take:<game>:<version>``, a select of
the legal takes (at most 25); the click goes to the game layer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import t
from bot.ui.common import GameSelect
from tests.games.nim.engine import Take


class TakeSelect(GameSelect, template=r"nm:take:(?P<game>[0-9]+):(?P<ver>[0-9]+)"):
    """Take stones: the options are the legal takes of the player to move, on the board drawn at ``version``."""

    prefix, verb, placeholder_key = "nm", "take", "ui.nm_take"

    def __init__(self, game_id: int, version: int, takes: Sequence[Take] = (), *, locale: str | None = None) -> None:
        options = [
            discord.SelectOption(label=t("ui.nm_option", locale, heap=m.heap, count=m.count), value=str(m))
            for m in list(takes)[:25]
        ]
        super().__init__(game_id, version, options, locale=locale)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TakeSelect,)


def take_view(game_id: int, version: int, takes: Sequence[Take], *, locale: str | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSelect(game_id, version, takes, locale=locale))
    return view
