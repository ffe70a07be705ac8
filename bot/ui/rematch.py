"""Rematch (issue 12): the result card's **Rematch** button (``rm:go:<game>``, row :data:`REMATCH_ROW`).

Every human player of the finished game clicks it once (AI seats always agree: against the AI one click is
enough); the last click opens the new game at once: the same players and options, seated by the kind's
``rematch_seating`` (default: rotated by one, the first player of the old game is the last of the new one;
a two-player game may keep the seats, so colours stay with their players, and swap who starts), with the same
clock (a game without one, ``none`` or from before clocks, gets none: never the server's default); a tutorial's
rematch is a real game against the same AI level, not a second tutorial. It opens
in the same channel, or in a new thread when the channel is busy (the layer's :meth:`Lobby.open`), and its first
board answers the last click. Earlier clicks are answered by a public note with the button again (edited to point
to the new game, without the button, once it starts); a click after the rematch started points to it (unless that
game was aborted: then the players may ask again).
Votes: :mod:`bot.services.agreements` (``rematch:<game>``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.core.kind import not_player
from bot.core.mentions import ping
from bot.core.names import plain
from bot.core.results import CASUAL, CHOSEN, casual_extra
from bot.errors import BotError
from bot.i18n import t, versus
from bot.services import tutorial
from bot.services.agreements import agreement, humans, mentions
from bot.ui.common import GameButton, games, reply

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

log = logging.getLogger(__name__)

WHAT = "rematch"
REMATCH_ROW = 0
"""The result card's row of the Rematch button (the record buttons are in row 1)."""


def items(snap: Snapshot) -> list[discord.ui.Item[Any]]:
    """The result card's Rematch button (row :data:`REMATCH_ROW`)."""
    button = RematchButton(snap.id, locale=snap.locale)
    button.row = REMATCH_ROW
    return [button]


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """Count the caller's click on Rematch; the last one opens the new game (see the module docstring)."""
    layer = games(interaction)
    user = interaction.user
    loc = interaction.guild_locale or interaction.locale
    record = await layer.record(game_id)
    if record.status != "finished" or record.guild_id != interaction.guild_id:
        raise BotError("err.game_closed")
    env = layer.envelope(record)
    loc = env.locale or loc  # the game's language, as its result card
    voters = humans(record, env)
    if user.id not in voters:
        raise not_player()
    async with agreement(layer.storage, WHAT, game_id) as deal:
        started = deal.data.get("game")
        if started:
            then = await layer.storage.get_game(int(started))
            if then is not None and then.status == "aborted":  # it was aborted: the players may ask again
                deal.data = {}
            else:
                raise BotError("rematch.started", game_id=started, channel=f"<#{deal.data.get('channel')}>")
        if not deal.add(user.id):
            waiting = [u for u in voters if u not in deal.votes]
            raise BotError("rematch.already", waiting=mentions(waiting))
        waiting = [u for u in voters if u not in deal.votes]
        kind = layer.kind_of(record)
        players, seats, options = kind.rules.rematch_seating(record.players, env.seats, env.options)
        options = {k: v for k, v in options.items() if k != tutorial.MARK}  # a tutorial's rematch is a real game
        first = int(options.get("first", 0))
        names = [s.name for s in seats]
        if waiting:
            await deal.save()
            view = discord.ui.View(timeout=None)
            view.add_item(RematchButton(game_id, locale=getattr(loc, "value", loc)))
            await reply(
                interaction,
                t("rematch.offer", loc, name=plain(user.display_name), first=names[first], waiting=mentions(waiting)),
                view=view,
                allowed_mentions=ping(waiting),
            )
            posted = await interaction.original_response()
            deal.data["notes"] = [*deal.data.get("notes", []), posted.id]
            await deal.save()
            return
        title = t("rematch.thread_title", loc, players=versus(names, loc))
        snap = await layer.lobby.open(
            interaction,
            kind,
            options=options,
            seats=seats,
            players=players,
            title=title[:100],
            start=True,
            clock=env.clock.get("preset") or "none",
            extra=casual_extra(False) if env.extra.get(CASUAL) == CHOSEN else None,  # casual stays casual
        )
        deal.data.update(game=snap.id, channel=snap.record.channel_id)
        await deal.save()
        notes = [int(n) for n in deal.data.get("notes", [])]
    started = t("rematch.started", loc, game_id=snap.id, channel=f"<#{snap.record.channel_id}>")
    for note in notes:  # the earlier clicks' notes no longer wait for anyone
        await layer.publisher.delivery.edit(record, note, content=started, view=None)
    log.info("rematch of game %s: game %s", game_id, snap.id)


class RematchButton(GameButton, template=r"rm:go:(?P<game>[0-9]+)"):
    """Rematch: one click per player."""

    prefix, verb, label_key, style = "rm", "go", "ui.rematch", discord.ButtonStyle.success

    async def run(self, interaction: discord.Interaction) -> None:
        await rematch(interaction, self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RematchButton,)
