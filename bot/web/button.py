"""The board's "Play in the live table" button: its answer is ``LAUNCH_ACTIVITY`` (interaction callback type 12),
Discord then opens the app's Activity in the channel (the page finds the channel's game).

Custom id ``lt:open:<game>``; shown under a running board only when the bot serves the live table (``WEB_PORT``)
and the game has a live adapter.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.ui.common import report_errors
from bot.web.adapter import live_of

if TYPE_CHECKING:
    from bot.core.kind import Snapshot


class LiveTableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lt:open:(?P<game>[0-9]+)"):
    """Launch the Activity (anyone may: players act in it, the others watch)."""

    def __init__(self, game_id: int, *, locale: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t("live.button", locale), style=discord.ButtonStyle.success, custom_id=f"lt:open:{game_id}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LiveTableButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: interaction.response.launch_activity(), game_id=self.game_id)


def board_item(snap: Snapshot) -> discord.ui.Item[Any] | None:
    """The button for a running board of a server's game the live table shows (the publisher's ``board_items``);
    none in DMs (a DM game is played through its interactions only)."""
    if snap.status != "active" or snap.record.guild_id is None or live_of(snap.kind) is None:
        return None
    return LiveTableButton(snap.id, locale=snap.locale)
