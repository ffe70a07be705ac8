"""The bot leaving a server (issue 12): when it is removed from a guild (discord.py's ``on_guild_remove``: a
GUILD_DELETE without ``unavailable``), every open game there ends ``aborted`` (never rated, reason
``guild_removed``, one storage transaction) and nothing more is sent or edited there: pending board retries are
cancelled and :class:`~bot.services.delivery.Delivery` refuses the guild without a request. A guild that only becomes
unavailable (a Discord outage: ``on_guild_unavailable``) keeps its games. Other guilds are not touched.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

REASON = "guild_removed"


async def guild_removed(layer: GameLayer, guild_id: int) -> list[GameRecord]:
    """The bot was removed from ``guild_id``: stop sending there, abort its open games. Returns them."""
    publisher = layer.publisher
    publisher.delivery.removed.add(guild_id)
    aborted = await layer.storage.abort_guild_games(guild_id, reason=REASON)  # its owed effects go with them
    log.info(
        "removed from guild %s: %d open game(s) aborted (%s)",
        guild_id,
        len(aborted),
        ", ".join(str(r.id) for r in aborted) or "none",
    )
    return aborted


def guild_joined(layer: GameLayer, guild_id: int) -> None:
    """The bot was (re-)invited to ``guild_id``: messages may go there again."""
    layer.publisher.delivery.removed.discard(guild_id)
