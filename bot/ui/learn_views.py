"""The closing message of a tutorial (``bot/services/tutorial.py``): buttons that open a real game.

Persistent custom ids (they work after a restart; the game is named, nothing else is needed):
``ln:ai:<game>:<level>`` (a game against the AI at that level), ``ln:ch:<game>`` (an open challenge, or a lobby for
a game of lobbies), ``ln:qm:<game>`` (the quick-match queue). Anyone may click: each click opens the clicker's own
game (refusals are private, as for the commands that do the same).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.errors import BotError
from bot.i18n import t
from bot.ui.common import games, report_errors

_GAME = r"(?P<game>[a-z][a-z0-9_]{0,31})"
_AI = r"ln:ai:" + _GAME + r":(?P<level>[a-z]{1,16})"


def _kind(interaction: discord.Interaction, game: str) -> Any:
    kind = games(interaction).kinds.get(game)
    if kind is None:
        raise BotError("err.no_such_kind", game=game)
    return kind


class PlayAIButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_AI):
    """Play the AI at a level: the game opens in the clicker's channel (or the tutorial's thread) and starts."""

    def __init__(self, game: str, level: str, locale: str | None = None) -> None:
        self.game, self.level = game, level
        word = t(f"ai.level_{level}", locale)
        super().__init__(
            discord.ui.Button(
                label=t("learn.btn_ai", locale, level=word)[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"ln:ai:{game}:{level}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlayAIButton:
        return cls(match["game"], match["level"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await games(interaction).tutorials.play_ai(interaction, _kind(interaction, self.game), self.level)

        await report_errors(interaction, work)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ln:ch:" + _GAME):
    """Open a challenge anyone may accept (a lobby, for a game of lobbies)."""

    def __init__(self, game: str, locale: str | None = None) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label=t("learn.btn_challenge", locale)[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ln:ch:{game}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await games(interaction).tutorials.open_challenge(interaction, _kind(interaction, self.game))

        await report_errors(interaction, work)


class QuickMatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ln:qm:" + _GAME):
    """Join the game's quick-match queue (answered privately, as ``/play join``)."""

    def __init__(self, game: str, locale: str | None = None) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label=t("learn.btn_queue", locale)[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ln:qm:{game}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QuickMatchButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await games(interaction).tutorials.quick_match(interaction, _kind(interaction, self.game))

        await report_errors(interaction, work)


DYNAMIC_ITEMS: tuple[type[Any], ...] = (PlayAIButton, ChallengeButton, QuickMatchButton)


def end_view(game: str, levels: tuple[str, ...], locale: str | None) -> discord.ui.View:
    """The closing message's buttons: the AI at each of ``levels`` (row 0), a challenge and the quick match
    (row 1)."""
    view = discord.ui.View(timeout=None)
    for level in levels[:5]:
        item = PlayAIButton(game, level, locale)
        item.row = 0
        view.add_item(item)
    for item in (ChallengeButton(game, locale), QuickMatchButton(game, locale)):
        item.row = 1
        view.add_item(item)
    return view
