"""A game's footprint in its channel ("quiet channels"): a thread of its own, one live board, the result in the
channel, and a last board that says the game ended.

- **A thread per game** (guild setting :data:`SETTING`, ``/settings thread_per_game``; operator default
  ``THREAD_PER_GAME``, on): a game opened in a guild text channel where the bot may create public threads and speak
  in them gets a public thread of its own (:func:`wants_thread`); the opening command's answer in the channel
  points to it. A game opened inside a public thread (a rematch from a result card there) keeps that thread as
  its own. The envelope's ``extra["footprint"] = {"parent": <channel id>}`` marks such a game (:func:`parent_of`).
  Without the permission, or with the guild's thread cap reached (``bot/services/caps.py``), the game stays where
  it was opened, every board kept (the behaviour before threads per game).
- **One live board** (games in a thread of their own): when a new board is recorded the previous one is
  **deleted**, not only stripped; the new board mentions the player to move (``bot/core/mentions.py``), so the
  thread notifies every turn with one message. The deletion is the ``prune`` effect, owed in the transaction
  that records the new board (keyed ``(game, version, "prune")``, payload ``message_id``), done at once by the
  recording process and otherwise by the outbox's workers.
- **The result in the channel**: a finished game in a thread of its own owes a ``result`` effect: the result
  card (text, result picture and record buttons, no board) posted in the parent channel once (message key
  :data:`RESULT_KEY`, nonce ``r<game>``).
- **The last board says the game ended**: an abort (``/abandon``, ``/abort``, ``/games``) of a game with a board
  owes an ``ended`` effect: the board's text is replaced by the aborted game's status line, without the clock
  line, and loses its components (its picture stays).
- **The thread's name follows the seats** (a thread the bot created for the game, marked :data:`MADE_KEY`): an
  open challenge ("<Game>: Alice vs anyone") accepted by Carol, or a lobby ("<Game> lobby of Alice") its host
  starts, owes a ``rename`` effect: the thread is renamed to the real players (``foot.thread_title``, at most 100
  characters). A challenge or lobby that ends without a game (withdrawn, declined, expired, closed, aborted by an
  admin) owes an ``archive`` effect: the thread is
  **archived**, not deleted (what members wrote there stays readable; deleting needs Manage Threads), a few
  seconds after the commit so the set-up's message is edited first. Discord refusing either (no permission, the
  thread gone) is logged and forgotten: the accept or the withdrawal stands.

Every step is an outbox effect (``bot/core/outbox.py``): durable, keyed ``(game, version, kind)``, idempotent (each
handler re-reads the game and does only what is missing), so a restart in between loses or doubles nothing.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core.outbox import Drop
from bot.errors import BotError
from bot.i18n import t
from bot.services import access, caps
from bot.services.boards import BOARD_KEY
from bot.services.delivery import GuildGone
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

SETTING = "thread_per_game"
"""Guild setting (``true``/``false``): open each game in a thread of its own."""
EXTRA_KEY = "footprint"
"""Key of the envelope's ``extra`` marking a game in a thread of its own: ``{"parent": <channel id>}``."""
RESULT_KEY = "result"
"""Message key of the result card posted in the parent channel."""
MADE_KEY = "made_thread"
"""Key of the envelope's ``extra`` (``true``): the game's channel is a thread the bot created for it."""
PRUNE, RESULT, ENDED = "prune", "result", "ended"
"""Effect kinds: delete a replaced board; post the result card in the parent channel; mark the last board ended."""
RENAME, ARCHIVE = "rename", "archive"
"""Effect kinds: rename the game's thread to its players; archive the thread of a set-up that ended without a game."""
ARCHIVE_DELAY_S = 3.0
"""Seconds after the commit before the thread is archived (the set-up's message is edited first: an edit in an
archived thread is refused, 50083)."""


def enabled(settings: dict[str, Any], default: bool = True) -> bool:
    """Whether a guild with ``settings`` opens each game in a thread of its own (its :data:`SETTING` if a bool,
    else ``default``: the operator's ``THREAD_PER_GAME``)."""
    value = settings.get(SETTING)
    return value if isinstance(value, bool) else default


def operator_default(layer: GameLayer) -> bool:
    """The operator's ``THREAD_PER_GAME`` (``Config.thread_per_game``; on without a config)."""
    return bool(getattr(getattr(layer.bot, "config", None), "thread_per_game", True))


def parent_of(record: GameRecord) -> int | None:
    """The channel whose thread the game was opened in for itself, or ``None`` (a game in its channel)."""
    extra = record.state.get("extra") if isinstance(record.state, dict) else None
    mark = extra.get(EXTRA_KEY) if isinstance(extra, dict) else None
    parent = mark.get("parent") if isinstance(mark, dict) else None
    return parent if isinstance(parent, int) else None


def marked(extra: dict[str, Any], parent: int) -> dict[str, Any]:
    """``extra`` with the mark of a game in a thread of its own opened from channel ``parent``."""
    return {**extra, EXTRA_KEY: {"parent": parent}}


def placed(extra: dict[str, Any], quiet: tuple[bool, int] | None, thread: discord.Thread | None) -> dict[str, Any]:
    """``extra`` of a game opened with :func:`wants_thread`'s answer ``quiet`` and the ``thread`` the bot created
    for it (``None``: none): a game in a thread of its own gets :func:`marked`; a created thread gets
    :data:`MADE_KEY`."""
    if quiet is not None and (quiet[0] or thread is None):
        extra = marked(extra, quiet[1])
    return {**extra, MADE_KEY: True} if thread is not None else extra


async def wants_thread(
    layer: GameLayer, interaction: discord.Interaction, settings: dict[str, Any]
) -> tuple[bool, int] | None:
    """Where a game opened by ``interaction`` goes when the guild's setting is on: ``(True, channel)``: a new thread
    of its own (a guild text channel where the bot may create public threads and speak in them, the guild's cap on
    games in threads not reached); ``(False, parent)``: the public thread the command came from (a rematch, a
    challenge typed in a game's thread), kept as the game's own. ``None``: today's place, the channel, with every
    board kept (the setting is off, or no thread can be had; nothing is refused for it)."""
    channel = interaction.channel
    if not enabled(settings, operator_default(layer)):
        return None
    if isinstance(channel, discord.Thread) and channel.type == discord.ChannelType.public_thread:
        return (False, channel.parent_id)
    if not isinstance(channel, discord.TextChannel):
        return None
    if access.missing(interaction.app_permissions, thread=True, extra=access.THREAD_FALLBACK_NEEDS):
        return None
    try:
        await caps.check_thread(layer, interaction)
    except BotError:
        return None
    return (True, channel.id)


async def open_thread(layer: GameLayer, interaction: discord.Interaction, title: str) -> discord.Thread:
    """A public thread of the command's text channel. Raises ``BotError("err.channel_busy_in_thread")`` in a thread
    (Discord opens no thread in a thread: the player is pointed to its channel, whatever the permissions),
    ``BotError("err.channel_busy_not_text")`` in another channel that is no text channel (a voice channel's chat),
    ``BotError("err.channel_busy_no_thread")`` when the bot may not create threads or speak in them,
    ``BotError("cap.threads")`` at the guild's cap."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        raise BotError("err.channel_busy_in_thread", parent=channel.parent_id or 0)
    if not isinstance(channel, discord.TextChannel):
        raise BotError("err.channel_busy_not_text")
    lacking = access.missing(interaction.app_permissions, thread=True, extra=access.THREAD_FALLBACK_NEEDS)
    if lacking:
        raise BotError("err.channel_busy_no_thread", perms=access.Perms(lacking or ("create_public_threads",)))
    await caps.check_thread(layer, interaction)  # issue 22: threads per server
    return await channel.create_thread(
        name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
    )


class Footprint:
    """The ``prune``, ``result`` and ``ended`` effects (see the module docstring). ``publisher``: the board
    publisher (its lock, delivery and payload)."""

    def __init__(self, layer: GameLayer, publisher: Any) -> None:
        self.layer = layer
        self.publisher = publisher
        layer.outbox.subscribe(PRUNE, self.prune_effect)
        layer.outbox.subscribe(RESULT, self.result_effect, rule=self.owed)
        layer.outbox.subscribe(ENDED, self.ended_effect)
        layer.outbox.subscribe(RENAME, self.rename_effect, prompt=True)  # nobody does them inline
        layer.outbox.subscribe(ARCHIVE, self.archive_effect, prompt=True)

    def owed(self, snap: Snapshot, change: Any) -> list[Owed]:
        """The rule: a finished game in a thread of its own owes its result card in the parent channel; an aborted
        game with a board owes the ended mark on that board. In a thread the bot made for the game: an accepted
        open challenge or a started lobby owes the thread's new name; a set-up ending without a game owes the thread's
        archiving."""
        out: list[Owed] = []
        env = getattr(snap, "env", None)
        made = env is not None and env.extra.get(MADE_KEY) is True
        quiet = env is not None and env.options.get("tutorial") is True  # a tutorial keeps to its thread
        if snap.status == "finished" and parent_of(snap.record) is not None and not quiet:
            out.append(Owed(RESULT))
        if snap.status == "aborted" and BOARD_KEY in snap.record.messages:
            out.append(Owed(ENDED))
        action = getattr(change, "action", None)
        if made and ((action == "accept" and env.options.get("open") is True) or action == "start"):
            out.append(Owed(RENAME))  # an open challenge accepted, or a lobby started: the thread gets its players
        if made and snap.status == "aborted" and env.engine is None:
            out.append(Owed(ARCHIVE, delay_s=ARCHIVE_DELAY_S))
        return out

    # -- one live board ----------------------------------------------------------------------------------------
    @staticmethod
    def deletes_replaced(record: GameRecord) -> bool:
        """True when the game deletes the board a new one replaces (a game in a thread of its own): the new board
        is then the only picture of the table left, so it always carries it (``Publisher.publish``)."""
        return parent_of(record) is not None

    def prune_owed(self, record: GameRecord, old: int | None, version: int) -> list[Owed]:
        """What recording a new board of ``version`` owes for the replaced board ``old``: its deletion (a game in a
        thread of its own), else nothing (the publisher strips it, as before)."""
        if old is None or not self.deletes_replaced(record):
            return []
        return [Owed(PRUNE, {"message_id": int(old)}, delay_s=self.publisher.grace_s, version=version)]

    async def pruned(self, record: GameRecord, old: int, version: int, *, late: bool = False) -> bool:
        """Delete the replaced board ``old`` now (**under the publish lock**) if the game prunes its boards; True when
        it does (the outbox retries a failed deletion), False when the caller strips it instead. ``late``: ``old`` is
        the board of ``version`` itself, landed after a newer one was recorded: its ``prune`` effect is owed here
        (recording did not owe it) before the deletion is tried."""
        if parent_of(record) is None:
            return False
        if late:
            try:
                await self.layer.storage.add_effects(record.id, self.prune_owed(record, old, version), version=version)
            except Exception as err:  # the database is away: the deletion below is tried all the same
                log.warning("could not owe the deletion of late board %s of game %s: %s", old, record.id, err)
        try:
            await self.publisher.delivery.delete(record, old)
        except (discord.HTTPException, GuildGone) as err:
            log.info("could not delete board %s of game %s (%s); the outbox tries again", old, record.id, err)
            return True
        await self.layer.outbox.done(record.id, version, PRUNE, up_to=False)
        return True

    async def prune_effect(self, effect: Effect) -> None:
        """The ``prune`` effect: delete the replaced board ``payload["message_id"]`` (never the game's live board; a
        board already gone counts as deleted)."""
        message_id = effect.payload.get("message_id")
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or not isinstance(message_id, int):
            return
        async with self.publisher.lock(record.id):
            fresh = await self.layer.storage.get_game(record.id)
            if fresh is None or fresh.messages.get(BOARD_KEY) == message_id:
                return
            try:
                await self.publisher.delivery.delete(fresh, message_id)
            except GuildGone as err:
                raise Drop("the bot was removed from the guild") from err

    # -- the result in the channel -----------------------------------------------------------------------------
    async def result_effect(self, effect: Effect) -> None:
        """The ``result`` effect: post the finished game's result card in the channel its thread was opened from,
        once (its message is recorded under :data:`RESULT_KEY`; a channel post carries the nonce ``r<game>``)."""
        record = await self.layer.storage.get_game(effect.game_id)
        parent = parent_of(record) if record is not None else None
        if record is None or parent is None or record.status != "finished" or RESULT_KEY in record.messages:
            return
        if record.kind not in self.layer.kinds:
            raise Drop(f"game {record.id}: unknown kind {record.kind}")
        snap = self.layer.snapshot(record)
        headline = t("foot.result", snap.locale, game=snap.kind.title, thread=f"<#{record.channel_id}>")
        content, files, view = await self.publisher.payload(snap, headline, pictures=False)
        try:
            posted = await self.publisher.delivery.send(
                replace(record, channel_id=parent), content, files=files, view=view, carry=False, nonce=f"r{record.id}"
            )
        except GuildGone as err:
            raise Drop("the bot was removed from the guild") from err
        except discord.NotFound as err:
            if err.code == 10003:  # the parent channel was deleted
                raise Drop(f"channel {parent} is gone") from err
            raise
        await self.layer.storage.set_message(record.id, RESULT_KEY, posted.id)

    # -- the last board of an aborted game ---------------------------------------------------------------------
    async def ended_shown(self, record: GameRecord) -> None:
        """The aborting process edited the aborted game's board itself (``Publisher.strip_all``): its ``ended``
        effect is done, so the outbox's workers do not edit it a second time."""
        await self.layer.outbox.done(record.id, record.version, ENDED)

    async def ended_effect(self, effect: Effect) -> None:
        """The ``ended`` effect: the aborted game's board says so (its status line, no clock line) and loses its
        components; its picture stays. Discord refusing (the message is gone) is logged, not retried."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.status != "aborted" or record.kind not in self.layer.kinds:
            return
        board = record.messages.get(BOARD_KEY)
        if board is None:
            return
        snap = self.layer.snapshot(record)
        said = snap.kind.narration.status_line(snap)  # the aborted game's words (no clock runs)
        async with self.publisher.lock(record.id):
            await self.publisher.delivery.edit(record, board, content=said[:2000], view=None)

    # -- the thread's name and archiving -----------------------------------------------------------------------
    async def rename_effect(self, effect: Effect) -> None:
        """The ``rename`` effect: the game's thread is named after its players (``foot.thread_title``, in the
        game's language, within Discord's 100 characters)."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.kind not in self.layer.kinds or len(record.players) < 2:
            return
        snap = self.layer.snapshot(record)
        names = snap.names
        name = t("foot.thread_title", snap.locale, game=snap.kind.title, a=names[0], b=", ".join(names[1:]))
        await self._edit_thread(record, name=name[:100])

    async def archive_effect(self, effect: Effect) -> None:
        """The ``archive`` effect: the thread of a set-up that ended without a game is archived."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.status != "aborted":
            return
        await self._edit_thread(record, archived=True)

    async def _edit_thread(self, record: GameRecord, **fields: Any) -> None:
        """Edit the game's thread (``PATCH /channels/{id}``). Discord refusing for good (no permission, the thread
        or guild gone: 403, 404) raises :class:`Drop` (logged, never retried); other errors are retried."""
        http = getattr(self.layer.bot, "http", None)
        if http is None:
            return
        try:
            await http.edit_channel(record.channel_id, **fields)
        except (discord.Forbidden, discord.NotFound) as err:
            raise Drop(f"thread {record.channel_id} of game {record.id} refused {sorted(fields)}: {err}") from err
