"""The **Leave the queue** button on the private answer of ``/play`` (``bot/services/matchqueue.py``).

Custom id ``qm:leave`` (persistent: it works after a restart; the queue is the clicker's own, read from storage).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.respond import update
from bot.i18n import t
from bot.ui.common import games, report_errors


class LeaveQueueButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qm:leave"):
    """Leave the quick-match queue the clicker waits in; the private answer then says so and loses the button."""

    def __init__(self, *, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("queue.leave_button", locale), style=discord.ButtonStyle.secondary, custom_id="qm:leave"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaveQueueButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            layer = games(interaction)
            left = await layer.queue.leave(interaction.user.id)
            note = await layer.queue.notice(interaction.user.id, interaction.locale)
            await update(interaction, content=left_text(layer, left, interaction.locale, note), view=None)

        await report_errors(interaction, work)


def left_text(layer: Any, left: Any, locale: Any, note: str | None = None) -> str:
    """What leaving says: the queue left (``left``: the removed ``Waiting``), or that there was none; ``note``
    (``MatchQueue.notice``: why the player was taken out of a queue earlier) replaces "not in a queue"."""
    if left is None:
        return note or t("queue.not_queued", locale)
    kind = layer.kinds.get(left.kind)
    said = t("queue.left", locale, game=kind.title if kind else left.kind)
    return f"{note}\n{said}" if note else said


def leave_view(locale: str | None) -> discord.ui.View:
    """The private answer's view: the **Leave the queue** button."""
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveQueueButton(locale=locale))
    return view


DYNAMIC_ITEMS = (LeaveQueueButton,)
