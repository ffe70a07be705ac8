"""Publishing boards: every accepted action posts a new board message; exactly one board per game keeps live
components; a board that failed to post is recovered later.

The game's current board message is stored under the message key ``"board"`` and the game version it shows
under ``"board.version"`` (a number, not a message id). Posting and recording happen under the game's publish
lock (distinct from the action lock: actions never wait for Discord), so the newest version becomes the stored
board and every other board loses its components (a board landing after a newer one is stripped itself).

Durability: every commit of a game that shows a board owes a ``board`` effect (the outbox, ``bot/core/outbox.py``).
The committing process posts the board at once (answering the player's interaction) and records it with the effect
done in the same transaction (then strips the board it replaces: a board a crash left live is refused as stale); if
it cannot (it died, Discord refused, the database was away), the outbox's workers run :meth:`BoardRecovery.board_effect`
later: it re-posts the board of the game's latest version only if the stored board is still older. On every READY
``BoardRecovery.recover_all`` also re-posts stale boards (games stored before the outbox existed); a successful
recovery hands the game to the AI.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.core.kind import Picture, Snapshot
from bot.core.mentions import board_pings
from bot.core.respond import png_file
from bot.core.results import rating_line
from bot.errors import BotError
from bot.first_response import is_dead, token_fresh
from bot.i18n import t
from bot.services import access, reach
from bot.services.answered import Answered
from bot.services.board_answer import answer_or_defer, drop_thinking, point_to_board
from bot.services.boards import (
    BOARD_GRACE_S,
    BOARD_KEY,
    BOARD_STATUSES,
    BOARD_VERSION_KEY,
    VERSION_SUFFIX,
    ShownBoards,
    board_nonce,
    board_stale,
    board_version,
    clock_line,
    late_words,
    message_ids,
    render_png,
    text_twin,
)
from bot.services.delivery import Delivery, GuildGone
from bot.services.recovery import BoardRecovery
from bot.services.refusals import why
from bot.storage import Owed

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

CARRIED_ON = ("err.stale", "err.game_closed")
"""Refusals of a click that, in a game reached through interactions only, carry the board instead (:meth:`carry`)."""
MAX_KEPT = 1024
"""At most this many games' refusals (``blocked``) and unrecorded boards are kept in memory (oldest dropped)."""

__all__ = [
    "BOARD_KEY",
    "BOARD_STATUSES",
    "BOARD_VERSION_KEY",
    "VERSION_SUFFIX",
    "Publisher",
    "board_nonce",
    "board_stale",
    "board_version",
    "clock_line",
    "message_ids",
    "render_png",
]


class Publisher:
    """Boards of every game (see the module docstring); ``recovery`` (:class:`~bot.services.recovery.BoardRecovery`)
    posts what the committing process could not."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.delivery = Delivery(layer.bot)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._recent: dict[int, Answered] = {}
        """The latest live interaction that published each running game's board (a fallback route for its next
        boards); forgotten when the game closes (:meth:`forget`) or the token expires."""
        self.result_view: Callable[[Snapshot], discord.ui.View | None] | None = None
        """The components of a result card (the UI's record buttons), given by the wiring root (``bot/wiring.py``)."""
        self.notes: list[Callable[[Snapshot], Awaitable[str]]] = []
        """Lines a service adds to a board between its headline and status line (``note(snap) -> str``, empty for
        none; e.g. a tutorial's step: ``bot/services/tutorial.py``)."""
        self.footprint: Any = None
        """The game's footprint (``bot/services/footprint.py``: replaced boards deleted), given by the wiring root."""
        self.board_items: list[Callable[[Snapshot], discord.ui.Item[Any] | None]] = []
        """More components under every running board (e.g. the live table's launch button), added by their owner."""
        self.grace_s = BOARD_GRACE_S
        """Seconds a board owed by a commit is left to the committing process (tests shorten it)."""
        self.recovery = BoardRecovery(self)
        """Recovery of stale boards and the outbox's ``board``/``strip`` handlers."""
        layer.outbox.subscribe("board", self.recovery.board_effect, rule=self.owed)
        layer.on_shown.append(self.shown)
        layer.on_ready_hooks.append(self.recovery.recover_all)
        layer.outbox.subscribe("strip", self.recovery.strip_effect)
        layer.on_committed.append(self.closed)
        self.blocked: dict[int, access.Perms | str] = {}
        """Games whose channel refused a board and why (what the bot lacks there, or the reason key of
        ``bot.services.refusals.place_refused``); said to the next who acts."""
        self.delivery.cpu = layer.cpu
        self._inflight: dict[int, list[int]] = {}
        self._unrecorded: dict[int, tuple[int, int]] = {}
        self._shown = ShownBoards(MAX_KEPT)  # a second post of a version already out is skipped (:meth:`_publish`)
        """Boards posted whose recording failed (the database went away): game -> (version, message id); the
        ``board`` effect records them instead of posting them again."""

    def owed(self, snap: Snapshot, _change: Any) -> list[Owed]:
        """The rule of the outbox: every commit after which the game shows a board owes that board."""
        return [Owed("board", delay_s=self.grace_s)] if snap.status in BOARD_STATUSES else []

    async def shown(self, committed: Any, headline: str, interaction: discord.Interaction | None) -> None:
        """A commit to show (the layer's ``on_shown``): post its board, answering ``interaction`` when given; no new
        picture when the commit changed nothing the picture shows (the kind says; but see :meth:`publish`)."""
        pictures = committed.finished or committed.snap.kind.pictures.picture_changed(committed)
        await self.publish(committed.snap, headline=headline, interaction=interaction, pictures=pictures)

    async def show_board(self, interaction: discord.Interaction, snap: Snapshot) -> None:
        """Post the game's current board again as the answer to ``interaction`` (``/<game> board``); an AI turn
        left pending is played then (a safety net). Refused past the ``board`` cooldown (``fairshare.py``)."""
        self.layer.fair.check(interaction, "board")
        headline = snap.kind.narration.board_headline(interaction.locale)
        await self.publish(snap, headline=headline, interaction=interaction)
        self.layer.ai.notify(snap)

    async def carry(self, interaction: discord.Interaction, game_id: int, err: BaseException) -> bool:
        """A click on an out-of-date board of a game the bot may not post in (``bot/services/reach.py``) whose
        latest board never went out (its token went stale before an AI move, a timeout...): that board answers the
        click, headed by why. Returns False (nothing sent) for any other case: the caller refuses as usual."""
        if not isinstance(err, BotError) or err.key not in CARRIED_ON:
            return False
        record = await self.layer.storage.get_game(game_id)
        if record is None or record.kind not in self.layer.kinds or not reach.interactions_only(record):
            return False
        shown = board_version(record)
        if record.status not in BOARD_STATUSES or (shown is not None and shown >= record.version):
            return False
        snap = self.layer.snapshot(record)
        actions = await self.layer.storage.actions(game_id, after_seq=max(record.version - 1, 0))
        last = snap.kind.narration.last_headline(snap, actions[-1] if actions else None)
        await self.publish(snap, headline=f"{t('uinst.carried', snap.locale)}\n{last}", interaction=interaction)
        self.layer.ai.notify(snap)  # an AI turn left pending is played then (as /<game> board does)
        return True

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

    async def payload(
        self, snap: Snapshot, headline: str, *, pictures: bool = True
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """Content (headline, status line; a finished game's rating line), files (board unless ``pictures`` is
        False: a commit that changed nothing the picture shows; result card) and components of the board of
        ``snap``."""
        kind = snap.kind
        notes = [line for line in [await note(snap) for note in self.notes] if line]
        if notes:
            headline = "\n".join([headline, *notes])
        content = f"{headline}\n{kind.narration.status_line(snap)}{clock_line(snap)}".strip()
        view = kind.components.board_view(snap) if snap.status == "active" else None
        for extra in self.board_items if snap.status == "active" else ():
            item = extra(snap)
            if item is not None:
                view = view if view is not None else discord.ui.View(timeout=None)
                try:
                    view.add_item(item)
                except ValueError:  # the board's rows are full: the board's own components come first
                    log.info("no room for %s under game %s's board", type(item).__name__, snap.id)
        if snap.status == "finished":
            view = self.result_view(snap) if self.result_view is not None else None  # its record buttons
        files, fallback = await self.draw(kind.pictures.board_pictures(snap) if pictures else [])
        content += fallback
        if snap.status == "finished":
            result = kind.pictures.result_picture(snap)
            if result is not None:
                more, fallback = await self.draw([result])
                files += more
                content += fallback
            line = rating_line(snap, await self.layer.storage.rating_changes(snap.id))
            if line:
                content = f"{content}\n{line}"
        return content[:2000], files, view

    twin = staticmethod(text_twin)

    # -- posting -----------------------------------------------------------------------------------------------
    async def publish(
        self,
        snap: Snapshot,
        *,
        headline: str,
        interaction: discord.Interaction | None = None,
        pictures: bool = True,
    ) -> discord.Message | discord.PartialMessage:
        """Post the board of ``snap`` as the game's new board message (without an interaction: unless out already).

        With an interaction not answered yet: the board itself as its first response when drawn within 1 s, else
        defer (thinking), draw off the loop, then edit the response in (``board_answer.py``); with an answered one:
        a followup; without (AI, recovery): a channel message. A picture that fails to draw is replaced by its text
        twin. If the post fails, the board is recovered later and the error is raised. ``pictures=False`` (no new
        image) holds only where replaced boards stay: a game deleting them (its own thread) always shows the table."""
        if not pictures and self.footprint is not None and self.footprint.deletes_replaced(snap.record):
            pictures = True
        inflight = self._inflight.setdefault(snap.id, [])
        inflight.append(snap.version)
        started = time.monotonic()
        try:
            msg = await self._publish(snap, headline, interaction, pictures)
            metrics.board_posted(snap.record.kind, time.monotonic() - started, interaction is not None)
            return msg
        finally:
            inflight.remove(snap.version)
            if not inflight:
                self._inflight.pop(snap.id, None)

    async def _publish(
        self, snap: Snapshot, headline: str, interaction: discord.Interaction | None, pictures: bool
    ) -> discord.Message | discord.PartialMessage:
        deferred = False
        if interaction is not None and is_dead(interaction):
            interaction = None
        self._forget_old()
        if interaction is not None and snap.status == "active":
            blocked = self.blocked.pop(snap.id, None)
            if blocked is not None:  # say it to the next one who touches the game
                said = (
                    t("pub.blocked", snap.locale, perms=blocked)
                    if isinstance(blocked, access.Perms)
                    else t("pub.blocked_why", snap.locale, why=why(blocked, snap.locale))
                )
                headline = f"{said}\n{headline}"
        drawing = asyncio.ensure_future(self.payload(snap, headline, pictures=pictures))
        try:
            if interaction is not None:
                interaction, deferred = await answer_or_defer(interaction, drawing)
            content, files, view = await drawing
        finally:
            drawing.cancel()  # a no-op once done; else (cancelled meanwhile) the drawing is not wanted any more
        self._carrier(snap, interaction)  # deferred: its followups may carry the board if the channel refuses it
        async with self.lock(snap.id):
            out = self._shown.covering(snap.id, snap.version) if interaction is None else None
            if out is not None:  # another publish of this version (a click carrying it, the outbox) got there first
                log.info(
                    "game %s v%s: its board (message %s) is out already, not posted twice", snap.id, snap.version, out
                )
                return self.delivery.channel(snap.record).get_partial_message(out)
            msg = await self._post(snap.record, content, files, view, interaction, deferred=deferred, snap=snap)
        self._carrier(snap, interaction)  # answered by the board itself
        return msg

    def _carrier(self, snap: Snapshot, interaction: discord.Interaction | None) -> None:
        """Keep ``interaction`` as the game's fallback route (``rescue``: its followups need no channel
        permission) once it has a first response and is alive; an interaction not answered yet cannot carry a
        followup, so the previous one stays."""
        if (
            interaction is not None
            and snap.status == "active"
            and interaction.response.is_done()
            and not is_dead(interaction)
        ):
            self._recent[snap.id] = Answered.of(interaction)

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
    ) -> discord.Message:
        pings = board_pings(snap) if snap is not None else []  # whom the board notifies (bot.core.mentions)
        chain: dict[str, Any] = {
            "twin": (lambda: self.twin(snap)) if snap is not None and files else None,  # made only if needed
            "locale": snap.locale if snap is not None else None,
            "rescue": self._recent.get(record.id),
            "nonce": board_nonce(record),
            "mentions": pings,
        }
        try:
            try:
                msg = await self.delivery.send(
                    record, content, files=files, view=view, interaction=interaction, deferred=deferred, **chain
                )
            except discord.HTTPException as err:
                if interaction is None or getattr(err, "refusal", None) is not None:
                    raise
                # the answer through the interaction failed (edits and followups refused...): the board goes to
                # the channel now
                log.info(
                    "answering interaction %s with game %s's board failed (%s); posting to the channel",
                    interaction.id,
                    record.id,
                    err,
                )
                for f in files:
                    f.reset()
                msg = await self.delivery.send(record, content, files=files, view=view, carry=False, **chain)
                if deferred:  # our own "thinking" message, never a component's message
                    await drop_thinking(interaction)
                else:  # the board was to be its first response: it still gets one, true and private
                    await point_to_board(interaction, snap.locale if snap is not None else None)
        except GuildGone:  # removed from the guild: no retry either
            log.info("not posting the board of game %s: the bot was removed from its guild", record.id)
            raise
        except reach.Unreachable:  # a user install's game, no fresh interaction: the next player's carries it
            log.info("the board of game %s v%s waits for the next player's interaction", record.id, record.version)
            raise
        except Exception as err:
            reason = getattr(err, "refusal", None)
            if reason is not None:  # said to the next one who touches the game, with the board
                self.blocked[record.id] = (
                    access.channel_missing(self.layer.bot, record.channel_id) or access.Perms(("send_messages",))
                    if reason == "perms"
                    else reason
                )
            log.warning(
                "posting the board of game %s v%s failed (%s); the outbox posts it later",
                record.id,
                record.version,
                err,
            )
            await self.recovery.failed(record.id)
            raise
        try:
            await self._recorded(record, msg.id, record.version)
        except Exception as err:  # the board is out but the database went away: recorded by the outbox, not re-posted
            self._unrecorded[record.id] = (record.version, msg.id)
            while len(self._unrecorded) > MAX_KEPT:  # the oldest is found in the channel's history instead
                del self._unrecorded[next(iter(self._unrecorded))]
            log.warning(
                "the board of game %s v%s is posted (message %s) but could not be recorded (%s); the outbox records it",
                record.id,
                record.version,
                msg.id,
                err,
            )
        return msg

    async def _recorded(self, record: GameRecord, message_id: int, version: int) -> None:
        """Record a posted board (under :meth:`lock`) with its ``board`` effect done in the same transaction, then
        strip the previous one (a click on a board left live by a crash in between is refused by its version)."""
        strip = await self.record_board(record.id, message_id, version)
        if strip != message_id:  # recorded as the game's board
            self._shown.note(record.id, version, message_id)
        if not record.is_open and version >= record.version:  # the game's last board is out
            self.forget(record.id)
        if strip is None:
            return
        foot = self.footprint  # a game in a thread of its own deletes a replaced or late board (footprint.py)
        if foot is None or not await foot.pruned(record, strip, version, late=strip == message_id):
            said = await late_words(self.layer, record.id, late=strip == message_id)  # an aborted game's late board
            await self.delivery.edit(record, strip, view=None, **said)

    def forget(self, game_id: int) -> None:
        """Drop what is kept in memory for a closed game (its fallback route, a refusal to tell): :meth:`closed`."""
        self._recent.pop(game_id, None)
        self.blocked.pop(game_id, None)

    def closed(self, committed: Any) -> None:
        """``layer.on_committed`` hook: nothing is kept of an aborted game (no last board); a finished one keeps its
        fallback route until its last board (the result card) is recorded (:meth:`_recorded`)."""
        if committed.snap.status not in BOARD_STATUSES:
            self.forget(committed.snap.id)

    def _forget_old(self) -> None:
        """Drop the fallback interactions whose tokens expired (a closed game's is dropped at once: :meth:`forget`)."""
        if len(self._recent) < 256:
            return
        for game_id, interaction in list(self._recent.items()):
            if not token_fresh(interaction):
                del self._recent[game_id]

    async def record_board(self, game_id: int, message_id: int, version: int) -> int | None:
        """Record ``message_id`` (showing ``version``) as the game's board unless a newer one is recorded.
        **Call under** :meth:`lock`. Returns the message whose components must be stripped now: the previous
        board, or ``message_id`` itself when it is already out of date; ``None`` when nothing is to strip."""
        current = await self.layer.record(game_id, state=False)  # its messages, version and status
        shown = board_version(current)
        if (shown is not None and version < shown) or (not current.is_open and version < current.version):
            return message_id
        old = current.messages.get(BOARD_KEY)
        strip = old if old is not None and old != message_id else None
        owed = self.footprint.prune_owed(current, strip, version) if self.footprint is not None else []
        completed = await self.layer.storage.set_messages(
            game_id, {BOARD_KEY: message_id, BOARD_VERSION_KEY: version}, owed=owed, done=[("board", version)]
        )
        if completed:
            self.layer.outbox.settled_inline("board", completed)
        return strip

    async def strip_all(self, record: GameRecord) -> int:
        """Strip the components of every stored message of the game (board, lobby...) under the publish lock, so
        no board posted meanwhile stays live; the last board of a game that ended without one of its own (aborted)
        says so in its text, which no longer names a player to move nor a running clock. Returns how many edits
        succeeded."""
        done = 0
        async with self.lock(record.id):
            fresh = await self.layer.record(record.id)
            ended = self.layer.snapshot(fresh) if fresh.status == "aborted" else None
            for key, message_id in message_ids(fresh).items():
                if key == BOARD_KEY and ended is not None:
                    status = ended.kind.narration.status_line(ended)
                    edited = await self.delivery.edit(fresh, message_id, content=status, view=None)
                    if edited and self.footprint is not None:  # its ``ended`` effect is done: not edited again
                        await self.footprint.ended_shown(fresh)
                    done += edited
                else:
                    done += await self.delivery.edit(fresh, message_id, view=None)
        return done

    def close(self) -> None:
        self._recent.clear()  # the bot is closing: forget the fallback interactions
