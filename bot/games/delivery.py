"""Delivery: every public message of a game goes out (and is edited) here, so permission checks and fallbacks
(issue 13) land in one place.

- :meth:`Delivery.send`: a game message as the answer to an interaction (after a defer: edit the original
  response; once answered: a followup) or, without one, a channel message;
- :meth:`Delivery.edit`: edit or strip (``view=None``) a stored message of a game;
- :func:`within`: await an action, deferring the interaction if it takes longer than :data:`DEFER_AFTER_S`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.first_response import InteractionGone, is_dead
from bot.views.common import defer, settle_loading

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFER_AFTER_S = 2.0
"""An action still running after this long has its interaction deferred (Discord wants an answer within 3 s)."""
_UNSET: Any = object()


class GuildGone(Exception):
    """The bot was removed from the game's guild: nothing is sent or edited there any more."""


class Delivery:
    """Sends and edits the public messages of games for ``bot``. ``removed``: guilds the bot was removed from
    (:mod:`bot.games.departure`); nothing goes there."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.removed: set[int] = set()

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)

    async def send(
        self, record: GameRecord, content: str, *, files: list[discord.File] | None = None,
        view: discord.ui.View | None = None, interaction: discord.Interaction | None = None,
        deferred: bool = False,
    ) -> discord.Message:
        """Post a public game message: ``interaction``'s deferred response edited in (``deferred``), else a
        followup of the answered ``interaction``, else a channel message; also a channel message when the
        interaction is dead (Discord refused its first response, 10062). Raises ``discord.HTTPException``, and
        :class:`GuildGone` (no request) in a guild the bot was removed from."""
        if record.guild_id in self.removed:
            raise GuildGone(record.guild_id)
        files = files or []
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if interaction is not None:
            try:
                return await self._answer(content, files, view, kwargs, interaction, deferred)
            except (discord.NotFound, InteractionGone) as err:  # 10062: the interaction is dead
                if not is_dead(interaction):
                    raise
                log.info("interaction %s is dead (%s); posting game %s's message to the channel", interaction.id,
                         err, record.id)
                for f in files:
                    f.reset()
        return await self.channel(record).send(content, files=files, **kwargs)

    async def _answer(self, content: str, files: list[discord.File], view: discord.ui.View | None,
                      kwargs: dict[str, Any], interaction: discord.Interaction, deferred: bool) -> discord.Message:
        if is_dead(interaction):
            raise InteractionGone(interaction)
        if deferred or interaction.extras.get("loading") == "public":
            interaction.extras.pop("loading", None)
            return await interaction.edit_original_response(content=content, attachments=files, view=view)
        if interaction.response.is_done():
            await settle_loading(interaction, False)
            return await interaction.followup.send(content, files=files, wait=True, **kwargs)
        callback = await interaction.response.send_message(content, files=files, **kwargs)
        resource = callback.resource if callback is not None else None
        if isinstance(resource, discord.Message):
            return resource
        return await interaction.original_response()

    async def edit(
        self, record: GameRecord, message_id: int, *, content: str | None = None, view: Any = _UNSET
    ) -> bool:
        """Edit a stored message of the game (``view=None`` strips its components). Returns False (logged) when
        Discord refuses (the message is gone, no permission...) and, without a request, in a removed guild."""
        if record.guild_id in self.removed:
            return False
        kwargs: dict[str, Any] = {}
        if content is not None:
            kwargs["content"] = content
        if view is not _UNSET:
            kwargs["view"] = view
        try:
            await self.channel(record).get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as err:
            log.info("could not update message %s of game %s: %s", message_id, record.id, err)
            return False
        return True


async def within(interaction: discord.Interaction | None, work: Awaitable[T]) -> T:
    """Await ``work``; if it takes longer than :data:`DEFER_AFTER_S`, defer ``interaction`` (public, thinking)
    meanwhile so Discord's 3 s limit is kept. If ``work`` then fails, the refusal that follows
    (:func:`bot.views.common.reply`, ephemeral) deletes the public "thinking" message first, so it stays private."""
    task = asyncio.ensure_future(work)
    if interaction is None:
        return await task
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
    if not done:
        try:
            await defer(interaction)
        except discord.HTTPException:
            log.warning("could not defer slow interaction %s", interaction.id)
    return await task
