"""Board recovery and the outbox's handlers of boards: :class:`BoardRecovery`, the ``recovery`` collaborator of
:class:`bot.services.publish.Publisher`.

Every commit of a game that shows a board owes a ``board`` effect (the outbox, ``bot/core/outbox.py``); ``strip``
effects (stored by earlier versions) are still run. What the committing process could not post (it died, Discord
refused, the database was away) is posted here: the board of the game's latest version, only while the stored board
is older; a board already out but never recorded (a crash between the post and the record) is found in the
channel's latest messages and recorded instead of being posted twice.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core.outbox import Drop, Later
from bot.services import reach
from bot.services.boards import BOARD_KEY, HISTORY_LOOKBACK, board_stale
from bot.services.delivery import Delivery, GuildGone
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)


class Boards(Protocol):
    """What recovery uses of the publisher (:class:`bot.services.publish.Publisher`): posting and recording a board
    under the game's publish lock, and what it knows of boards in flight (``_inflight``: game -> versions being
    posted) or posted but not recorded (``_unrecorded``: game -> (version, message id))."""

    layer: Any
    delivery: Delivery
    grace_s: float
    _inflight: dict[int, list[int]]
    _unrecorded: dict[int, tuple[int, int]]

    def lock(self, game_id: int) -> asyncio.Lock: ...

    async def payload(
        self, snap: Snapshot, headline: str, *, pictures: bool = True
    ) -> tuple[str, list[discord.File], discord.ui.View | None]: ...

    async def _post(
        self,
        record: GameRecord,
        content: str,
        files: list[discord.File],
        view: discord.ui.View | None,
        interaction: discord.Interaction | None,
        *,
        deferred: bool = False,
        snap: Snapshot | None = None,
    ) -> discord.Message: ...

    async def _recorded(self, record: GameRecord, message_id: int, version: int) -> None: ...


class BoardRecovery:
    """Recovery of stale boards and the ``board``/``strip`` effect handlers of ``boards`` (the publisher)."""

    def __init__(self, boards: Boards) -> None:
        self.boards = boards
        self.layer = boards.layer
        self.delivery = boards.delivery
        self._recovering = False

    # -- recovery ----------------------------------------------------------------------------------------------
    async def recover(self, game_id: int) -> bool:
        """Under the publish lock: if the game's board is stale, post its current board as a channel message
        headed by the last action. Returns True if it posted one (then the AI scheduler gets the game). Raises
        if the post fails."""
        async with self.boards.lock(game_id):
            record = await self.layer.record(game_id)
            if not board_stale(record) or max(self.boards._inflight.get(game_id, ()), default=-1) >= record.version:
                return False  # fresh, or its board is being posted right now (a failure schedules a retry)
            snap = self.layer.snapshot(record)
            actions = await self.layer.storage.actions(game_id, after_seq=max(record.version - 1, 0))
            headline = snap.kind.narration.last_headline(snap, actions[-1] if actions else None)
            content, files, view = await self.boards.payload(snap, headline)
            posted = await self._posted_unrecorded(record, content, {f.filename for f in files})
            if posted is not None:  # the process died between the post and its record: record it, never post twice
                log.info(
                    "the board of game %s v%s is already out (message %s): recorded", game_id, record.version, posted
                )
                await self.boards._recorded(record, posted, record.version)
            else:
                await self.boards._post(record, content, files, view, None, snap=snap)
        self.layer.ai.notify(snap)
        return True

    async def _posted_unrecorded(self, record: GameRecord, content: str, filenames: set[str]) -> int | None:
        """The id of a board of ``record``'s version this bot already posted in the game's channel but never
        recorded (a crash between the post and the record), found among the channel's latest
        :data:`HISTORY_LOOKBACK` messages newer than the recorded board by the ``:<game>:<version>`` its components
        carry, by a picture named as this version's board is (``filenames``: the game and version are in the name,
        whatever headline the first post had: e.g. "started" when the AI moves first), or by its ``content`` and an
        attachment; ``None`` when there is none or the history cannot be read (then the board is posted)."""
        if reach.interactions_only(record):  # no channel history where the bot is not a member
            return None
        shown = record.messages.get(BOARD_KEY)
        mark = f":{record.id}:{record.version}"
        try:
            async for msg in self.delivery.channel(record).history(limit=HISTORY_LOOKBACK):
                if shown is not None and msg.id <= shown:
                    return None
                if msg.author.id != self.layer.bot_user_id:
                    continue
                if msg.attachments and (msg.content == content or {a.filename for a in msg.attachments} & filenames):
                    return msg.id
                for row in msg.components:
                    for child in getattr(row, "children", ()):
                        custom_id = getattr(child, "custom_id", None) or ""
                        if custom_id.endswith(mark) or f"{mark}:" in custom_id:
                            return msg.id
        except (discord.HTTPException, GuildGone) as err:
            log.info("could not read channel %s to find game %s's board: %s", record.channel_id, record.id, err)
        return None

    async def recover_all(self) -> int:
        """Re-post every stale board (READY). A failing game is logged and retried later; the others go on.
        Returns how many boards were posted."""
        if self._recovering:
            return 0
        self._recovering = True
        posted = 0
        try:
            for record in await self.layer.storage.list_active_games():
                if record.kind not in self.layer.kinds or not board_stale(record) or not self.layer.owns(record):
                    continue
                if reach.interactions_only(record):  # no interaction at READY: the next player's carries it
                    continue
                try:
                    if await self.recover(record.id):
                        posted += 1
                        log.info(
                            "re-posted the stale board of game %s (%s) v%s", record.id, record.kind, record.version
                        )
                except Exception:
                    log.exception("could not re-post the board of game %s; retrying later", record.id)
        finally:
            self._recovering = False
        return posted

    async def failed(self, game_id: int) -> None:
        """Posting a board of ``game_id`` failed: make sure a ``board`` effect is owed (a commit owes one already;
        a board re-posted on request may not), so the outbox's workers post it once Discord lets them."""
        try:
            await self.layer.storage.add_effects(game_id, [Owed("board", delay_s=min(2.0, self.boards.grace_s))])
        except Exception as err:  # the database is away too: READY's recovery is the last resort
            log.warning("could not owe a board for game %s: %s", game_id, err)
        self.layer.outbox.poke()

    # -- the outbox's handlers -----------------------------------------------------------------------------------
    async def board_effect(self, effect: Effect) -> None:
        """The ``board`` effect: post the game's latest board unless a board of that version (or newer) is out.
        Raises :class:`~bot.core.outbox.Later` while this process is posting it, ``Drop`` where it can never be
        posted (the guild left, the channel deleted), and what Discord raised (then it is tried again later)."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or not board_stale(record):
            self.boards._unrecorded.pop(effect.game_id, None)
            return
        if record.kind not in self.layer.kinds or record.guild_id in self.delivery.removed:
            raise Drop(f"game {record.id} cannot show a board here")
        if max(self.boards._inflight.get(record.id, ()), default=-1) >= record.version:
            raise Later(3.0)
        posted = self.boards._unrecorded.pop(record.id, None)
        if posted is not None and posted[0] <= record.version:  # posted already: record it, never post it twice
            try:
                async with self.boards.lock(record.id):
                    await self.boards._recorded(record, posted[1], posted[0])
            except Exception:
                self.boards._unrecorded[record.id] = posted
                raise
            record = await self.layer.storage.get_game(effect.game_id)
            if record is None or not board_stale(record):
                return
        try:
            await self.recover(record.id)
        except reach.Unreachable as err:  # a user install's game, no fresh interaction: the next one carries it
            raise Drop(f"game {record.id}: no interaction can carry its board now") from err
        except GuildGone as err:
            raise Drop("the bot was removed from the guild") from err
        except discord.NotFound as err:
            if err.code == 10003:  # Unknown Channel: the game's channel was deleted
                raise Drop(f"channel {record.channel_id} is gone") from err
            raise

    async def strip_effect(self, effect: Effect) -> None:
        """The ``strip`` effect: remove the components of a replaced board (Discord refusing is logged: the
        message is gone or out of reach, and a click on it is refused as stale anyway)."""
        record = await self.layer.storage.get_game(effect.game_id)
        message_id = effect.payload.get("message_id")
        if record is None or not isinstance(message_id, int):
            return
        async with self.boards.lock(record.id):
            await self.delivery.edit(record, message_id, view=None)
