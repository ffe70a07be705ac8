"""Delivery: every public message of a game goes out (and is edited) here, so permission checks and fallbacks
(issue 13) land in one place.

- :meth:`Delivery.send`: a game message as the answer to an interaction (after a defer: edit the original
  response; once answered: a followup) or, without one, a channel message;
- :meth:`Delivery.edit`: edit or strip (``view=None``) a stored message of a game.

The first response of an interaction is not given here: :mod:`bot.first_response` answers any that a handler
has not answered in time (load-aware), with the right response type for its kind.

Requests per move: only the interaction endpoints (the callback and the interaction's webhook: followups and
edits of its messages) are exempt from Discord's global rate limit (50 requests/s per bot, all processes). So a
message sent through an interaction is remembered with it while its token is fresh (15 minutes from the
interaction's creation, never from the token's last use: :func:`bot.first_response.token_fresh`):
editing or stripping it goes through that interaction's webhook, and a board without an interaction of its own
(an AI's move, a recovery) is a followup of the latest interaction that posted in the game's channel. Only
when no fresh interaction is at hand (after a restart, an idle quarter of an hour) does a board or an edit spend
a channel request. A game where the bot is no member (a user install's DM: :mod:`bot.services.reach`) never does:
its messages are interaction answers and followups only, or nothing (:class:`~bot.services.reach.Unreachable`).

What is remembered of such an interaction is an :class:`Answered`: its id, channel, creation time and followup
webhook (application id + token), never the ``discord.Interaction`` itself, whose payload, clicked message and
cached responses would stay in memory for the token's 15 minutes (about 9 KB per answered move).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.core.mentions import ping
from bot.core.respond import settle_loading
from bot.first_response import InteractionGone, is_dead, token_fresh
from bot.i18n import t
from bot.services import access, reach
from bot.services.answered import UNSET as _UNSET
from bot.services.answered import Answered
from bot.services.refusals import (
    ARCHIVED_THREAD,
    Cpu,
    Outgoing,
    interaction_limit,
    place_refused,
    too_large,
    why,
)

if TYPE_CHECKING:
    from bot.core.host import Host
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

T = TypeVar("T")
REMEMBERED = 20_000
"""At most this many messages remembered with their interaction (oldest forgotten first; those whose token
expired are forgotten as new ones come)."""
LATEST_SWEEP_S = 10.0
"""Seconds between two sweeps of the channels' latest interactions for expired tokens (a sweep reads them all)."""


def guild_limit(bot: Any, guild_id: int | None) -> int | None:
    """Bytes a file may have in the guild by its boost level (discord.py's ``filesize_limit``), if known."""
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    limit = getattr(guild, "filesize_limit", None)
    return int(limit) if isinstance(limit, int) and limit > 0 else None


class GuildGone(Exception):
    """The bot was removed from the game's guild: nothing is sent or edited there any more."""


class Delivery:
    """Sends and edits the public messages of games for ``bot``. ``removed``: guilds the bot was removed from
    (:mod:`bot.services.departure`); nothing goes there. ``channel_requests`` counts the requests it spent outside
    the interaction endpoints, ``webhook_requests`` those it sent through an interaction instead."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.removed: set[int] = set()
        self._sent_by: OrderedDict[int, tuple[Answered, bool]] = OrderedDict()
        self._latest: dict[int, Answered] = {}
        self._latest_swept = 0.0
        self.channel_requests = 0
        self.webhook_requests = 0
        self.cpu: Cpu | None = None
        """Runs a picture job in the CPU workers (the layer's ``cpu``, set by the publisher): smaller pictures."""

    # -- interactions whose webhook may still be used ------------------------------------------------------------
    def _remember(self, msg: discord.Message, interaction: discord.Interaction | Answered, original: bool) -> None:
        if not token_fresh(interaction):
            return
        interaction = Answered.of(interaction)
        self._sent_by[msg.id] = (interaction, original)
        self._sent_by.move_to_end(msg.id)
        self._forget_expired()
        if interaction.channel_id is not None:
            latest = self._latest.get(interaction.channel_id)
            if latest is None or latest.id <= interaction.id:  # the youngest interaction carries the longest
                self._latest[interaction.channel_id] = interaction

    def _forget_expired(self) -> None:
        """Forget messages whose interaction's token expired (oldest first), and any over :data:`REMEMBERED`."""
        while self._sent_by:
            first = next(iter(self._sent_by.values()))[0]
            if token_fresh(first) and len(self._sent_by) <= REMEMBERED:
                break
            self._sent_by.popitem(last=False)
        now = time.monotonic()
        if len(self._latest) > 64 and now >= self._latest_swept + LATEST_SWEEP_S:  # O(channels): not on every send
            self._latest_swept = now
            for channel_id, interaction in list(self._latest.items()):
                if not token_fresh(interaction):
                    del self._latest[channel_id]

    @property
    def remembered(self) -> int:
        """How many messages are remembered with their interaction (memory checks)."""
        return len(self._sent_by)

    def _sender(self, message_id: int) -> tuple[Answered, bool] | None:
        found = self._sent_by.get(message_id)
        if found is None or not token_fresh(found[0]):
            self._sent_by.pop(message_id, None)
            return None
        return found

    def _carrier(self, record: GameRecord) -> Answered | None:
        """A fresh interaction that posted in the game's channel: its webhook can carry the next board."""
        found = self._latest.get(record.channel_id)
        if found is None or not token_fresh(found):
            self._latest.pop(record.channel_id, None)
            return None
        return found

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)

    async def send(
        self,
        record: GameRecord,
        content: str,
        *,
        files: list[discord.File] | None = None,
        view: discord.ui.View | None = None,
        interaction: discord.Interaction | None = None,
        deferred: bool = False,
        carry: bool = True,
        nonce: str | None = None,
        mentions: Collection[int] = (),
        twin: str | Callable[[], str] | None = None,
        locale: str | None = None,
        rescue: discord.Interaction | None = None,
    ) -> discord.Message:
        """Post a public game message through the fallback chain (:mod:`bot.services.refusals`):
        ``interaction``'s deferred response edited in (``deferred``), else a followup of the answered
        ``interaction``, else a channel message; also a channel message when the interaction is dead (Discord
        refused its first response, 10062). Without an interaction, a followup of the channel's fresh interaction
        while the channel is usable (``carry=False``: straight to the channel). On each route a file too large is
        sent smaller, then as ``twin`` (the text replacing the files, or a function making it), and refused files
        as ``twin``. A channel that refuses the post itself (permissions, access, archived or locked thread,
        deleted channel) hands it to ``rescue`` or the channel's fresh interaction, headed by what went wrong (in
        ``locale``). A channel message carries ``nonce`` (enforced: Discord returns the message already posted
        with it in the past few minutes instead of a second one; a webhook message has no such key).
        ``mentions``: the user ids the message may notify (none by default: ``bot.core.mentions``). Raises
        ``discord.HTTPException`` (its ``refusal`` attribute names a channel's refusal, see
        :func:`bot.services.refusals.place_refused`), and :class:`GuildGone` (no request) in a guild the bot was
        removed from."""
        if record.guild_id in self.removed:
            raise GuildGone(record.guild_id)
        out = Outgoing(content, list(files or []), twin, locale)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if mentions:
            kwargs["allowed_mentions"] = ping(mentions)
        if interaction is not None:
            try:
                msg, original = await self._ladder(
                    out,
                    interaction_limit(interaction),
                    lambda: self._answer(out.text, out.files, view, kwargs, interaction, deferred),
                )
                self._remember(msg, interaction, original)
                return msg
            except (discord.NotFound, InteractionGone) as err:  # 10062: the interaction is dead
                if not is_dead(interaction):
                    raise
                log.info(
                    "interaction %s is dead (%s); posting game %s's message to the channel",
                    interaction.id,
                    err,
                    record.id,
                )
                out.reset()
        if reach.interactions_only(record):  # the bot is not in the channel: followups only (bot/services/reach.py)
            carriers = (self._latest.get(record.channel_id), rescue)
            return await reach.carry(record.id, carriers, lambda other: self._followup(out, other, kwargs), out.reset)
        carrier = self._carrier(record) if carry else None
        if carrier is not None and not is_dead(carrier) and access.channel_missing(self.bot, record.channel_id) is None:
            # the channel is usable: the message goes as a followup all the same (no global-limited request)
            try:
                return await self._followup(out, carrier, kwargs)
            except discord.HTTPException as err:
                if isinstance(err, discord.NotFound) and err.code == 10003:  # the channel is gone: no second try
                    raise
                log.info(
                    "could not post game %s's message through interaction %s (%s); using the channel",
                    record.id,
                    carrier.id,
                    err,
                )
                self._latest.pop(record.channel_id, None)
        self.channel_requests += 1
        if nonce is not None:  # Discord returns the message already posted with it (the past few minutes)
            kwargs["nonce"] = nonce[:25]
        channel = self.channel(record)
        try:
            return await self._ladder(
                out,
                guild_limit(self.bot, record.guild_id),
                lambda: channel.send(out.text, files=out.files, **kwargs),
                channel_id=record.channel_id,
            )
        except discord.HTTPException as err:
            reason = place_refused(err)
            if reason is None:
                raise
            err.refusal = reason  # type: ignore[attr-defined]
            kwargs.pop("nonce", None)
            return await self._rescue(record, out, kwargs, err, reason, rescue)

    async def _rescue(
        self,
        record: GameRecord,
        out: Outgoing,
        kwargs: dict[str, Any],
        err: discord.HTTPException,
        reason: str,
        rescue: discord.Interaction | None,
    ) -> discord.Message:
        """The channel refused the post (``reason``): a followup of ``rescue`` or of the channel's fresh
        interaction (an interaction's webhook needs no channel permission), headed by what went wrong. Raises
        ``err`` when no interaction can carry it."""
        perms = access.channel_missing(self.bot, record.channel_id) if reason == "perms" else None
        if reason == "perms" and perms is None:
            perms = access.Perms(("send_messages",))
        tried: set[int] = set()
        for other in (rescue, self._latest.get(record.channel_id)):
            if other is None or other.id in tried or not token_fresh(other) or is_dead(other):
                continue
            tried.add(other.id)
            out.head(
                t("pub.not_posted", out.locale, perms=perms)
                if reason == "perms"
                else t("pub.not_posted_why", out.locale, why=why(reason, out.locale))
            )
            try:
                return await self._followup(out, other, kwargs)
            except discord.HTTPException as again:
                log.info(
                    "could not post game %s's message through interaction %s either: %s", record.id, other.id, again
                )
        log.warning("game %s: the bot may not post in channel %s (%s: %s)", record.id, record.channel_id, reason, err)
        raise err

    async def _followup(
        self, out: Outgoing, interaction: discord.Interaction, kwargs: dict[str, Any]
    ) -> discord.Message:
        """``out`` as a followup of ``interaction`` (remembered with it), through the form's fallbacks."""
        msg: discord.Message = await self._ladder(
            out,
            interaction_limit(interaction),
            lambda: interaction.followup.send(out.text, files=out.files, wait=True, **kwargs),
        )
        self.webhook_requests += 1
        Answered.of(interaction).followups += 1
        self._remember(msg, interaction, False)
        return msg

    async def _ladder(
        self, out: Outgoing, limit: int | None, post: Callable[[], Awaitable[T]], *, channel_id: int | None = None
    ) -> T:
        """``post()`` until it succeeds or ``out`` has no next best form (``Outgoing.degrade``): then raise.
        ``channel_id``: a channel post (files count as refused there when Attach Files is all the bot lacks)."""
        while True:
            try:
                return await post()
            except discord.HTTPException as err:
                lacking = access.channel_missing(self.bot, channel_id) if channel_id is not None else None
                refused = lacking is not None and lacking.flags == ("attach_files",)
                if not await out.degrade(err, limit, self.cpu, files_refused=refused):
                    raise

    async def _answer(
        self,
        content: str,
        files: list[discord.File],
        view: discord.ui.View | None,
        kwargs: dict[str, Any],
        interaction: discord.Interaction,
        deferred: bool,
    ) -> tuple[discord.Message, bool]:
        """The message answering ``interaction`` and whether it is its original response. A refused edit of the
        "thinking" answer (other than for a file's size) is replaced by a followup, which Discord puts in place of
        the thinking message: the answer never stays "thinking…"."""
        if is_dead(interaction):
            raise InteractionGone(interaction)
        if deferred or interaction.extras.get("loading") == "public":
            interaction.extras.pop("loading", None)
            try:
                return await interaction.edit_original_response(
                    content=content, attachments=files, view=view, allowed_mentions=kwargs.get("allowed_mentions")
                ), True
            except discord.HTTPException as err:
                if too_large(err) or is_dead(interaction):
                    raise
                log.info(
                    "editing the answer of interaction %s failed (%s); answering with a followup", interaction.id, err
                )
                for f in files:
                    f.reset()
                return await interaction.followup.send(content, files=files, wait=True, **kwargs), False
        if interaction.response.is_done():
            await settle_loading(interaction, False)
            return await interaction.followup.send(content, files=files, wait=True, **kwargs), False
        try:
            callback = await interaction.response.send_message(content, files=files, **kwargs)
        except discord.InteractionResponded:  # the first-response guard answered meanwhile: fill its answer
            for f in files:
                f.reset()
            return await self._answer(content, files, view, kwargs, interaction, deferred)
        resource = callback.resource if callback is not None else None
        if isinstance(resource, discord.Message):
            return resource, True
        return await interaction.original_response(), True

    async def edit(
        self,
        record: GameRecord,
        message_id: int,
        *,
        content: str | None = None,
        view: Any = _UNSET,
        mentions: Collection[int] = (),
    ) -> bool:
        """Edit a stored message of the game (``view=None`` strips its components): through the interaction that
        sent it while its token is fresh, else through the channel; in an archived thread (50083) the thread is
        unarchived and the edit tried once more. Returns False (logged) when Discord refuses (the message is gone,
        no permission, a locked thread...) and, without a request, in a removed guild."""
        if record.guild_id in self.removed:
            return False
        kwargs: dict[str, Any] = {}
        if content is not None:
            kwargs["content"] = content
        if view is not _UNSET:
            kwargs["view"] = view
        if mentions:
            kwargs["allowed_mentions"] = ping(mentions)
        sender = self._sender(message_id)
        if sender is not None:
            interaction, original = sender
            try:
                if original:
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.followup.edit_message(message_id, **kwargs)
                self.webhook_requests += 1
                return True
            except discord.HTTPException as err:
                log.info(
                    "could not update message %s of game %s through its interaction (%s); using the channel",
                    message_id,
                    record.id,
                    err,
                )
                self._sent_by.pop(message_id, None)
        if reach.interactions_only(record):  # no channel endpoint where the bot is not a member: left as it is
            return False
        self.channel_requests += 1
        message = self.channel(record).get_partial_message(message_id)
        try:
            await message.edit(**kwargs)
        except discord.HTTPException as err:
            if err.code == ARCHIVED_THREAD and await self._unarchive(record):
                try:  # the thread is open again (as Discord's own client does before an edit there)
                    await message.edit(**kwargs)
                    return True
                except discord.HTTPException as again:
                    err = again
            log.info("could not update message %s of game %s: %s", message_id, record.id, err)
            return False
        return True

    async def delete(self, record: GameRecord, message_id: int) -> None:
        """Delete a message of the game (a replaced board, ``bot/services/footprint.py``): through the interaction
        that posted it while its token is fresh, else through the channel. A message already gone counts as
        deleted. Raises ``discord.HTTPException`` (other refusals), :class:`GuildGone` in a removed guild."""
        if record.guild_id in self.removed:
            raise GuildGone(record.guild_id)
        sender = self._sender(message_id)
        self._sent_by.pop(message_id, None)
        try:
            if sender is not None:
                interaction, original = sender
                try:
                    if original:
                        await interaction.delete_original_response()
                    else:
                        await interaction.followup.delete_message(message_id)
                    self.webhook_requests += 1
                    return
                except discord.HTTPException as err:
                    if isinstance(err, discord.NotFound) and err.code == 10008:  # Unknown Message: gone already
                        return
                    log.info(
                        "could not delete message %s of game %s through its interaction (%s)",
                        message_id,
                        record.id,
                        err,
                    )
            if reach.interactions_only(record):  # no channel endpoint where the bot is not a member
                return
            self.channel_requests += 1
            await self.channel(record).get_partial_message(message_id).delete()
        except discord.NotFound:
            return

    async def _unarchive(self, record: GameRecord) -> bool:
        """Unarchive the game's thread (an edit there was refused: 50083). False when Discord refuses (a locked
        thread: 160005)."""
        http = getattr(self.bot, "http", None)
        if http is None:
            return False
        self.channel_requests += 1
        try:
            await http.edit_channel(record.channel_id, archived=False)
        except discord.HTTPException as err:
            log.info("could not unarchive thread %s of game %s: %s", record.channel_id, record.id, err)
            return False
        log.info("unarchived thread %s of game %s to update a message there", record.channel_id, record.id)
        return True
