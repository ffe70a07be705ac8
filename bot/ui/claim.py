"""The "Claim the win" button of a player whose time ran out (``clk:claim:<game>``; the timers post it)."""

from __future__ import annotations

import discord

from bot.core.kind import Snapshot
from bot.ui.common import GameButton, games


class ClaimButton(GameButton, template=r"clk:claim:(?P<game>[0-9]+)"):
    """``clk:claim:<game>``: claim the win of a player whose time ran out (:meth:`Timers.claim`)."""

    prefix = "clk"
    verb = "claim"
    label_key = "ui.claim"
    style = discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await games(interaction).timers.claim(interaction, self.game_id)


def claim_view(snap: Snapshot) -> discord.ui.View:
    """The view of the claim message of ``snap``'s game (persistent: the button survives restarts)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ClaimButton(snap.id, locale=snap.locale))
    return view
