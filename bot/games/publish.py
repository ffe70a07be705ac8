"""Publishing boards: every accepted action posts a new board message; exactly one board per game keeps live
components; a board that failed to post is recovered later.

The game's current board message is stored under the message key ``"board"`` and the game version it shows
under ``"board.version"`` (a number, not a message id). Posting and recording happen under the game's publish
lock (distinct from the action lock: actions never wait for Discord), so the newest version becomes the stored
board and every other board loses its components (a board landing after a newer one is stripped itself).

Durability: every commit of a game that shows a board owes a ``board`` effect (the outbox, ``bot/core/outbox.py``),
and recording a new board owes a ``strip`` of the one it replaces. The committing process posts the board at once
(answering the player's interaction) and marks the effect done; if it cannot (it died, Discord refused, the
database was away), the outbox's workers run :meth:`Publisher.board_effect` later: it re-posts the board of the
game's latest version only if the stored board is still older. On every READY :meth:`Publisher.recover_all` also
re-posts stale boards (games stored before the outbox existed); a successful recovery hands the game to the AI.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING, Any

import discord

from bot.core.outbox import Drop, Later
from bot.first_response import InteractionGone, is_dead, token_fresh
from bot.games import access
from bot.games.base import Picture, Snapshot
from bot.games.delivery import Delivery, GuildGone
from bot.games.results import rating_line
from bot.i18n import t
from bot.storage import Effect, Owed
from bot.views.common import defer, png_file

if TYPE_CHECKING:
    from bot.games.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

BOARD_KEY = "board"
"""Message key of a game's current board message."""
HISTORY_LOOKBACK = 25
"""Latest channel messages searched for a board posted but never recorded (a crash in between) before re-posting."""
BOARD_VERSION_KEY = "board.version"
"""Key (in ``GameRecord.messages``) of the game version the current board shows; not a message id."""
VERSION_SUFFIX = ".version"
BOARD_GRACE_S = 10.0
"""A board owed by a commit is left to the committing process this long before the outbox's workers post it."""
STRIP_GRACE_S = 10.0
BOARD_STATUSES: tuple[str, ...] = ("active", "finished")
"""Statuses in which a game shows a board of its latest version (a lobby has none; an aborted game keeps its
last board, stripped)."""


def render_png(draw: Any, /, *args: Any, **kwargs: Any) -> bytes:
    """``draw(*args, **kwargs)`` (a PIL image) PNG-encoded: the CPU job of one picture."""
    from render import to_png

    return to_png(draw(*args, **kwargs))


def message_ids(record: GameRecord) -> dict[str, int]:
    """The game's stored message ids by key (``"board"``, ``"lobby"``...), without ``*.version`` keys."""
    return {k: v for k, v in record.messages.items() if not k.endswith(VERSION_SUFFIX)}


def board_version(record: GameRecord) -> int | None:
    """The game version the stored board shows, or ``None`` (no board recorded yet)."""
    if BOARD_KEY not in record.messages:
        return None
    return record.messages.get(BOARD_VERSION_KEY)


def board_stale(record: GameRecord) -> bool:
    """True when the game should show a board (``active``/``finished``) and its stored board is missing or
    older than ``record.version`` (a post failed, or the process died in between)."""
    if record.status not in BOARD_STATUSES:
        return False
    shown = board_version(record)
    return shown is None or shown < record.version


def clock_line(snap: Snapshot) -> str:
    """Whose clock runs and when it runs out (``<t:EPOCH:R>``: every client shows it in local time), on its own
    line; empty without a running clock."""
    from bot.games.clock import running, stamp
    from bot.i18n import t

    run = running(snap.env) if snap.status == "active" else None
    if run is None:
        return ""
    seat, deadline = run
    return "\n" + t("clk.line", snap.locale, name=snap.names[seat], when=stamp(deadline),
                    preset=t(f"clk.preset_{snap.env.clock.get('preset')}", snap.locale))


class Publisher:
    """Boards of every game (see the module docstring)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.delivery = Delivery(layer.bot)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._recovering = False
        self._recent: dict[int, discord.Interaction] = {}
        """The latest live interaction that published each game's board (a fallback route for its next boards)."""
        self.grace_s = BOARD_GRACE_S
        """Seconds a board owed by a commit is left to the committing process (tests shorten it)."""
        layer.outbox.subscribe("board", self.board_effect, rule=self.owed)
        layer.outbox.subscribe("strip", self.strip_effect)
        self.blocked: dict[int, access.Perms] = {}
        """Games whose channel refused a board (403) and what the bot lacks there; said to the next who acts."""
        self._inflight: dict[int, list[int]] = {}
        self._unrecorded: dict[int, tuple[int, int]] = {}
        """Boards posted whose recording failed (the database went away): game -> (version, message id); the
        ``board`` effect records them instead of posting them again."""

    def owed(self, snap: Snapshot, _change: Any) -> list[Owed]:
        """The rule of the outbox: every commit after which the game shows a board owes that board."""
        return [Owed("board", delay_s=self.grace_s)] if snap.status in BOARD_STATUSES else []

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game publish lock (held while a board is posted and recorded, or messages stripped)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # -- payload -----------------------------------------------------------------------------------------------
    async def draw(self, pictures: list[Picture]) -> tuple[list[discord.File], str]:
        """PNG files of ``pictures`` drawn off the loop, and the text twins of those that failed."""
        files: list[discord.File] = []
        text = ""
        for pic in pictures:
            try:
                png = await self.layer.cpu(render_png, pic.draw, *pic.args, **pic.kwargs)
                files.append(png_file(png, pic.filename))
            except Exception:
                log.exception("drawing %s failed; sending its text instead", pic.filename)
                text += "\n" + pic.fallback()
        return files, text

    async def payload(self, snap: Snapshot, headline: str, *,
                      pictures: bool = True) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """Content (headline, status line; a finished game's rating line), files (board unless ``pictures`` is
        False: a commit that changed nothing the picture shows; result card) and components of the board of
        ``snap``."""
        kind = snap.kind
        content = f"{headline}\n{kind.status_line(snap)}{clock_line(snap)}".strip()
        view = kind.board_view(snap) if snap.status == "active" else None
        if snap.status == "finished":
            from bot.games.record_views import result_view

            view = result_view(snap)  # the result card's record buttons
        files, fallback = await self.draw(kind.board_pictures(snap) if pictures else [])
        content += fallback
        if snap.status == "finished":
            result = kind.result_picture(snap)
            if result is not None:
                more, fallback = await self.draw([result])
                files += more
                content += fallback
            line = rating_line(snap, await self.layer.storage.rating_changes(snap.id))
            if line:
                content = f"{content}\n{line}"
        return content[:2000], files, view

    # -- posting -----------------------------------------------------------------------------------------------
    async def publish(
        self, snap: Snapshot, *, headline: str, interaction: discord.Interaction | None = None, pictures: bool = True,
    ) -> discord.Message:
        """Post the board of ``snap`` as the game's new board message.

        With an interaction not answered yet: defer (thinking), draw off the loop, then edit the response in; with
        an answered one: a followup; without (AI, recovery): a channel message. A picture that fails to draw is
        replaced by its text twin. If the post fails, the board is recovered later and the error is raised.
        """
        inflight = self._inflight.setdefault(snap.id, [])
        inflight.append(snap.version)
        try:
            return await self._publish(snap, headline, interaction, pictures)
        finally:
            inflight.remove(snap.version)
            if not inflight:
                self._inflight.pop(snap.id, None)

    async def _publish(self, snap: Snapshot, headline: str, interaction: discord.Interaction | None,
                       pictures: bool) -> discord.Message:
        deferred = False
        if interaction is not None and is_dead(interaction):
            interaction = None
        if interaction is not None and not interaction.response.is_done():
            try:
                await defer(interaction)
                deferred = interaction.extras.pop("loading", None) == "public"
            except (discord.HTTPException, InteractionGone) as err:  # e.g. 10062: post to the channel
                log.info("could not defer interaction %s (%s); posting to the channel", interaction.id, err)
                interaction = None
        self._forget_old()
        if interaction is not None and snap.status == "active":
            self._recent[snap.id] = interaction
            blocked = self.blocked.pop(snap.id, None)
            if blocked is not None:  # say it to the next one who touches the game
                headline = f"{t('pub.blocked', snap.locale, perms=blocked)}\n{headline}"
        content, files, view = await self.payload(snap, headline, pictures=pictures)
        async with self.lock(snap.id):
            return await self._post(snap.record, content, files, view, interaction, deferred=deferred, snap=snap)

    async def _post(
        self, record: GameRecord, content: str, files: list[discord.File], view: discord.ui.View | None,
        interaction: discord.Interaction | None, *, deferred: bool = False, snap: Snapshot | None = None,
    ) -> discord.Message:
        try:
            try:
                msg = await self.delivery.send(record, content, files=files, view=view, interaction=interaction,
                                               deferred=deferred)
            except discord.Forbidden as err:  # 403: the bot may not post (or attach) in the game's channel
                msg = await self._undeliverable(record, content, files, view, snap, err)
            except discord.HTTPException as err:
                if interaction is None:
                    raise
                # the answer through the interaction failed (edits refused...): the board goes to the channel now
                log.info("answering interaction %s with game %s's board failed (%s); posting to the channel",
                         interaction.id, record.id, err)
                for f in files:
                    f.reset()
                msg = await self.delivery.send(record, content, files=files, view=view, carry=False)
                if deferred:  # our own "thinking" message, never a component's message
                    await self._drop_thinking(interaction)
        except GuildGone:  # removed from the guild: no retry either
            log.info("not posting the board of game %s: the bot was removed from its guild", record.id)
            raise
        except Exception as err:
            log.warning("posting the board of game %s v%s failed (%s); the outbox posts it later", record.id,
                        record.version, err)
            await self.failed(record.id)
            raise
        try:
            await self._recorded(record, msg.id, record.version)
        except Exception as err:  # the board is out but the database went away: recorded by the outbox, not re-posted
            self._unrecorded[record.id] = (record.version, msg.id)
            log.warning("the board of game %s v%s is posted (message %s) but could not be recorded (%s); the outbox "
                        "records it", record.id, record.version, msg.id, err)
        return msg

    async def _recorded(self, record: GameRecord, message_id: int, version: int) -> None:
        """Record a posted board (under :meth:`lock`), mark its ``board`` effect done and strip the previous one."""
        strip = await self.record_board(record.id, message_id, version)
        await self.layer.outbox.done(record.id, version, "board")
        if strip is not None:
            await self.delivery.edit(record, strip, view=None)
            await self.layer.outbox.done(record.id, version, "strip", up_to=False)

    def _forget_old(self) -> None:
        """Drop the fallback interactions whose tokens expired (a finished game's is never stored)."""
        if len(self._recent) < 256:
            return
        for game_id, interaction in list(self._recent.items()):
            if not token_fresh(interaction):
                del self._recent[game_id]

    @staticmethod
    async def _drop_thinking(interaction: discord.Interaction) -> None:
        """Remove the interaction's "thinking" message the board could not fill (the board is in the channel)."""
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as err:
            log.info("could not remove the thinking message of interaction %s: %s", interaction.id, err)

    async def _undeliverable(self, record: GameRecord, content: str, files: list[discord.File],
                             view: discord.ui.View | None, snap: Snapshot | None,
                             err: discord.Forbidden) -> discord.Message:
        """A channel post of the game was refused (403). Without only Attach Files: the board as text. Else, the
        latest interaction of the game still alive (the player whose action led here): a followup there naming
        what is missing. Else the game is marked blocked (said to the next one who touches it) and ``err``
        raised (the bounded retries go on)."""
        perms = access.channel_missing(self.layer.bot, record.channel_id)
        loc = snap.locale if snap is not None else None
        if perms is not None and perms.flags == ("attach_files",) and files and snap is not None:
            text = "\n".join(p.fallback() for p in snap.kind.board_pictures(snap))
            board = f"{content}\n{t('pub.text_board', loc)}\n{text}"[:2000]
            channel = self.delivery.channel(record)
            return await (channel.send(board, view=view) if view is not None else channel.send(board))
        recent = self._recent.get(record.id)
        if recent is not None and token_fresh(recent) and not is_dead(recent):
            note = t("pub.not_posted", loc, perms=perms or access.Perms(("send_messages",)))
            for f in files:
                f.reset()
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            try:
                return await recent.followup.send(f"{note}\n{content}"[:2000], files=files, wait=True, **kwargs)
            except discord.HTTPException as again:
                log.info("could not post game %s's board through interaction %s either: %s", record.id,
                         recent.id, again)
        self.blocked[record.id] = perms or access.Perms(("send_messages",))
        log.warning("game %s: the bot may not post in channel %s (%s)", record.id, record.channel_id,
                    perms or err)
        raise err

    async def record_board(self, game_id: int, message_id: int, version: int) -> int | None:
        """Record ``message_id`` (showing ``version``) as the game's board unless a newer one is recorded.
        **Call under** :meth:`lock`. Returns the message whose components must be stripped now: the previous
        board, or ``message_id`` itself when it is already out of date; ``None`` when nothing is to strip."""
        current = await self.layer.record(game_id)
        shown = board_version(current)
        if (shown is not None and version < shown) or (not current.is_open and version < current.version):
            return message_id
        old = current.messages.get(BOARD_KEY)
        strip = old if old is not None and old != message_id else None
        owed = [Owed("strip", {"message_id": strip}, delay_s=STRIP_GRACE_S, version=version)] if strip else []
        await self.layer.storage.set_messages(game_id, {BOARD_KEY: message_id, BOARD_VERSION_KEY: version},
                                              owed=owed)
        return strip

    async def strip_all(self, record: GameRecord) -> int:
        """Strip the components of every stored message of the game (board, lobby...) under the publish lock, so
        no board posted meanwhile stays live. Returns how many edits succeeded."""
        done = 0
        async with self.lock(record.id):
            fresh = await self.layer.record(record.id)
            for message_id in message_ids(fresh).values():
                done += await self.delivery.edit(fresh, message_id, view=None)
        return done

    # -- recovery ----------------------------------------------------------------------------------------------
    async def recover(self, game_id: int) -> bool:
        """Under the publish lock: if the game's board is stale, post its current board as a channel message
        headed by the last action. Returns True if it posted one (then the AI scheduler gets the game). Raises
        if the post fails."""
        async with self.lock(game_id):
            record = await self.layer.record(game_id)
            if not board_stale(record) or max(self._inflight.get(game_id, ()), default=-1) >= record.version:
                return False  # fresh, or its board is being posted right now (a failure schedules a retry)
            snap = self.layer.snapshot(record)
            actions = await self.layer.storage.actions(game_id, after_seq=max(record.version - 1, 0))
            headline = snap.kind.last_headline(snap, actions[-1] if actions else None)
            content, files, view = await self.payload(snap, headline)
            posted = await self._posted_unrecorded(record, content)
            if posted is not None:  # the process died between the post and its record: record it, never post twice
                log.info("the board of game %s v%s is already out (message %s): recorded", game_id, record.version,
                         posted)
                await self._recorded(record, posted, record.version)
            else:
                await self._post(record, content, files, view, None)
        self.layer.ai.notify(snap)
        return True

    async def _posted_unrecorded(self, record: GameRecord, content: str) -> int | None:
        """The id of a board of ``record``'s version this bot already posted in the game's channel but never
        recorded (a crash between the post and the record), found among the channel's latest
        :data:`HISTORY_LOOKBACK` messages newer than the recorded board by the ``:<game>:<version>`` its components
        carry, or (a board without components: the AI to move) by its ``content`` and an attachment; ``None`` when
        there is none or the history cannot be read (then the board is posted)."""
        shown = record.messages.get(BOARD_KEY)
        mark = f":{record.id}:{record.version}"
        try:
            async for msg in self.delivery.channel(record).history(limit=HISTORY_LOOKBACK):
                if shown is not None and msg.id <= shown:
                    return None
                if msg.author.id != self.layer.bot_user_id:
                    continue
                if msg.content == content and msg.attachments:
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
                try:
                    if await self.recover(record.id):
                        posted += 1
                        log.info("re-posted the stale board of game %s (%s) v%s", record.id, record.kind,
                                 record.version)
                except Exception:
                    log.exception("could not re-post the board of game %s; retrying later", record.id)
        finally:
            self._recovering = False
        return posted

    async def failed(self, game_id: int) -> None:
        """Posting a board of ``game_id`` failed: make sure a ``board`` effect is owed (a commit owes one already;
        a board re-posted on request may not), so the outbox's workers post it once Discord lets them."""
        try:
            await self.layer.storage.add_effects(game_id, [Owed("board", delay_s=min(2.0, self.grace_s))])
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
            self._unrecorded.pop(effect.game_id, None)
            return
        if record.kind not in self.layer.kinds or record.guild_id in self.delivery.removed:
            raise Drop(f"game {record.id} cannot show a board here")
        if max(self._inflight.get(record.id, ()), default=-1) >= record.version:
            raise Later(3.0)
        posted = self._unrecorded.pop(record.id, None)
        if posted is not None and posted[0] <= record.version:  # posted already: record it, never post it twice
            try:
                async with self.lock(record.id):
                    await self._recorded(record, posted[1], posted[0])
            except Exception:
                self._unrecorded[record.id] = posted
                raise
            record = await self.layer.storage.get_game(effect.game_id)
            if record is None or not board_stale(record):
                return
        try:
            await self.recover(record.id)
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
        async with self.lock(record.id):
            await self.delivery.edit(record, message_id, view=None)

    def close(self) -> None:
        """Forget the fallback interactions (the bot is closing)."""
        self._recent.clear()
