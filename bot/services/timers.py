"""The one scheduler of every timer of the game layer (``layer.timers``): reminders, timeouts, set-up expiry.

One asyncio task (started on READY) wakes at the earliest stored ``wake_at`` of any open game
(``Storage.due_games``), handles every due game of its shards (:meth:`Timers.mine`: with several processes each
game's timers run in one), and sleeps again until the next one, at most :data:`MAX_SLEEP_S` (a commit that sets an
earlier ``wake_at`` wakes it at once). Everything is re-read from storage,
so a restart keeps every deadline. Time is ``layer.clock`` (``bot/core/clock.py``).

What a due game gets:

- a **challenge or lobby** (status ``lobby``): it expires (``aborted``, logged ``expire``), its message is edited
  to say so and loses its buttons; the channel is free again;
- a running game **before its deadline** (the reminder time): ``wake_at`` moves to the deadline first, then one
  reminder mentioning the player to move is posted (at most one per turn, even across a restart);
- a running game **at its deadline**: a kind with ``timeout_claim`` gets one message with a **Claim the win**
  button for the other human players (``wake_at`` cleared first; the late player may still move until someone
  claims; an AI opponent claims at once); any other kind gets the engine's ``Timeout(seat)`` applied by the layer
  (e.g. the turn skipped; the game decides; the n-th consecutive timeout may forfeit the seat) and its board
  published.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.changes import Change, Committed
from bot.core.kind import Snapshot, not_player
from bot.core.mentions import human_ids
from bot.core.names import listed
from bot.errors import BotError
from bot.i18n import t
from bot.services import reach
from bot.services.delivery import GuildGone
from bot.services.lobby import LOBBY_KEY
from bot.services.seat_text import text
from bot.storage.records import GameRecord
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

MAX_SLEEP_S = 60.0
"""The scheduler re-reads storage at least this often (wakes set by another process are seen then)."""
MIN_SLEEP_S = 1.0
"""The shortest sleep when the earliest due game is not this process's to handle."""
RETRY_S = 30.0
"""A game whose timer failed (Discord refused...) is looked at again after this long, doubled at every failure in a
row up to :data:`MAX_RETRY_S` (a deleted channel is not hammered every 30 s)."""
MAX_RETRY_S = 3600.0
BATCH = 50
CLAIM_KEY = "claim"
"""Message key of the "time ran out: claim the win" message of a game (stripped by its next commit)."""
FAR_FUTURE = 1e11
POST_GRACE_S = 10.0
"""A set-up whose message is not recorded yet is given this long before it expires without one."""


class Timers:
    """See the module docstring. ``fired`` counts what was done (``remind``, ``timeout``, ``claim``, ``expire``)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.fired: Counter[str] = Counter()
        self._task: asyncio.Task[Any] | None = None
        self._poked = asyncio.Event()
        self._next: float | None = None
        self._failures: Counter[int] = Counter()
        self.claim_view: Callable[[Snapshot], discord.ui.View] | None = None
        """The "claim the win" button's view (the UI's), given by the wiring root (``bot/wiring.py``)."""
        layer.on_committed.append(self._on_commit)
        layer.on_ready_hooks.append(self.start)

    # -- the task ----------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the scheduler task (idempotent; called on every READY)."""
        if self._task is None or self._task.done():
            self._task = self.layer.bot.spawn(self._run(), name="daemon:timers")

    def poke(self, at: float | None = None) -> None:
        """A game's ``wake_at`` became ``at``: wake the task if that is earlier than its next look."""
        if at is None or self._next is None or at < self._next:
            self._poked.set()

    async def _run(self) -> None:
        while not self.layer.bot.is_closed():
            self._poked.clear()
            try:
                await self.run_due()
                self._next = await self.earliest()
            except Exception:
                log.exception("the timer scheduler failed; trying again shortly")
                self._next = self.layer.clock.now() + RETRY_S
            delay = MAX_SLEEP_S if self._next is None else min(MAX_SLEEP_S, self._next - self.layer.clock.now())
            if self._next is not None and delay <= 0:  # due but not ours (another shard's process): not a busy loop
                delay = MIN_SLEEP_S
            if delay > 0:  # sleep until the next wake or a poke (no helper task)
                handle = asyncio.get_running_loop().call_later(delay, self._poked.set)
                try:
                    await self._poked.wait()
                finally:
                    handle.cancel()

    async def earliest(self) -> float | None:
        """The earliest ``wake_at`` of any open game, or ``None``."""
        first = await self.layer.storage.due_games(FAR_FUTURE, limit=1, shards=self.shards())
        return first[0].wake_at if first else None

    async def run_due(self) -> int:
        """Handle every game due now (a failure is logged and that game looked at again after :data:`RETRY_S`).
        Returns how many games were due."""
        now = self.layer.clock.now()
        due = await self.layer.storage.due_games(now, limit=BATCH, shards=self.shards())
        for record in due:
            if not self.mine(record.guild_id):
                continue
            try:
                await self.handle(record, now)
            except Exception:
                failures = self._failures[record.id]
                self._failures[record.id] += 1
                delay = min(RETRY_S * 2 ** min(failures, 20), MAX_RETRY_S)
                log.exception(
                    "timer of game %s failed (%d in a row); retrying in %.0f s", record.id, failures + 1, delay
                )
                await self.layer.storage.set_wake_at(record.id, now + delay)
            else:
                self._failures.pop(record.id, None)
        return len(due)

    def shards(self) -> tuple[int, list[int]] | None:
        """``(shard_count, shard ids of this process)`` from the bot's ``SHARD_COUNT``/``SHARD_IDS``, or ``None`` when
        it serves every guild (the same settings as :meth:`bot.config.Config.owns_guild`)."""
        config = self.layer.bot.config
        if config.shard_count is None or config.shard_ids is None or config.shard_count <= 1:
            return None
        return int(config.shard_count), [int(i) for i in config.shard_ids]

    def mine(self, guild_id: int) -> bool:
        """True when this process serves the guild's shard (every guild without sharding): each game's timers run
        in one process only (:meth:`bot.app.TableBot.owns`, the rule of all background work)."""
        return self.layer.bot.owns(guild_id)

    def _on_commit(self, committed: Committed) -> None:
        changes: tuple[Change, ...] = committed.changes
        wakes = [c.wake_at for c in changes if isinstance(c.wake_at, int | float)]
        if wakes:
            self.poke(min(wakes))
        claim = committed.before.messages.get(CLAIM_KEY)
        if claim is not None and any(c.seat is not None for c in changes):  # the turn moved on: no claim left
            text = self._claim_closed(committed.before, committed.snap.locale)
            self.layer.bot.spawn(self._drop_claim(committed.snap.record, claim, text), name=f"claim-strip-{claim}")

    def _claim_closed(self, before: GameRecord, locale: str | None) -> str:
        """The words of a claim message whose claim is over, in ``locale``: whose time ran out and when, from the
        game as it was while the claim stood (``before``), else without them."""
        try:
            env = self.layer.envelope(before)
            clock = env.clock or {}
            seat, deadline = clock.get("seat"), clock.get("deadline")
            if isinstance(seat, int) and isinstance(deadline, int | float) and 0 <= seat < len(env.seats):
                return t("clk.claim_closed_of", locale, name=env.seats[seat].name, when=clocks.stamp(deadline))
        except Exception:  # an old or unreadable state: the words without the name still hold
            log.debug("game %s: the claim's words without the late seat", before.id, exc_info=True)
        return t("clk.claim_closed", locale)

    async def _drop_claim(self, record: GameRecord, message_id: int, text: str) -> None:
        """The claim message loses its button and its offer (``text``: :meth:`_claim_closed`); left as posted, its
        words would still invite a claim the game no longer allows."""
        await self.layer.publisher.delivery.edit(record, message_id, content=text, view=None)
        await self.layer.storage.set_message(record.id, CLAIM_KEY, None)

    # -- one due game ------------------------------------------------------------------------------------------
    async def handle(self, record: GameRecord, now: float) -> None:
        """Do what is due for ``record`` (see the module docstring)."""
        layer = self.layer
        if record.kind not in layer.kinds:
            log.warning("game %s of unknown kind %r has a timer; cleared", record.id, record.kind)
            await layer.storage.set_wake_at(record.id, None)
            return
        if record.status == "lobby":
            await self.expire(record)
            return
        snap = layer.snapshot(record)
        running = clocks.running(snap.env)
        if running is None:
            await self._move_wake(record, None)
            return
        seat, deadline = running
        if now < deadline:
            if await self._move_wake(record, deadline):
                await self.remind(snap, seat, deadline)
            return
        if snap.kind.timeout_claim and any(s != seat and not snap.is_ai(s) for s in range(len(snap.players))):
            if await self._move_wake(record, None):
                await self.announce_claim(snap, seat, deadline)
            return
        await self.time_out(snap, seat)

    async def _move_wake(self, record: GameRecord, at: float | None) -> bool:
        """Set the game's ``wake_at`` to ``at`` if nothing changed since ``record`` was read (a compare-and-set in
        storage: of two processes handling the same due game, one wins). Returns False (nothing done) when
        someone acted or another process moved it meanwhile."""
        async with self.layer.lock(record.id):
            return await self.layer.storage.set_wake_at(
                record.id, at, if_version=record.version, if_wake=record.wake_at
            )

    async def remind(self, snap: Snapshot, seat: int, deadline: float) -> None:
        """The one reminder of this turn: a mention of the player to move, in the game's channel. Best effort: a
        post Discord refuses (channel deleted, no permission) is logged and not retried (the turn's wake is already
        its deadline: at most one reminder per turn, no request every 30 s until then)."""
        if reach.interactions_only(snap.record):  # no channel post where the bot is not a member: turn alerts
            return  # by DM only, for those who turned them on (bot/services/alerts.py)
        text = t("clk.remind", snap.locale, who=snap.who(seat), game=snap.kind.title, when=clocks.stamp(deadline))
        try:
            await self.layer.publisher.delivery.send(
                snap.record, text, mentions=human_ids(snap, [seat]), locale=snap.locale
            )
        except (discord.HTTPException, GuildGone) as err:
            log.warning("game %s: the reminder could not be posted (%s); not retried", snap.id, err)
            return
        self.fired["remind"] += 1

    async def announce_claim(self, snap: Snapshot, seat: int, deadline: float) -> None:
        """The late player's time ran out: the others may claim the win (button), or wait."""
        others = [snap.who(s) for s in range(len(snap.players)) if s != seat and not snap.is_ai(s)]
        text = t(
            "clk.claimable", snap.locale, name=snap.names[seat], when=clocks.stamp(deadline), others=", ".join(others)
        )
        view = self.claim_view(snap) if self.claim_view is not None else None
        claimers = human_ids(snap, [s for s in range(len(snap.players)) if s != seat])
        try:
            msg = await self.layer.publisher.delivery.send(
                snap.record, text, view=view, mentions=claimers, locale=snap.locale
            )
        except reach.Unreachable:  # a user install's game whose last token is stale: no claim message (README)
            log.info("game %s: the claim message could not be carried by any interaction", snap.id)
            return
        # Recorded and checked under the game's lock: a move either committed before (its version is seen here) or
        # reads the game after (its commit sees the claim and strips it), never in between.
        async with self.layer.lock(snap.id):
            await self.layer.storage.set_message(snap.id, CLAIM_KEY, msg.id)
            now = await self.layer.storage.get_game(snap.id)
        self.fired["claim"] += 1
        if now is None or now.version != snap.version:  # the late player moved while it was being posted
            await self._drop_claim(snap.record, msg.id, self._claim_closed(snap.record, snap.locale))

    async def time_out(self, snap: Snapshot, seat: int) -> None:
        """Apply the engine's ``Timeout(seat)`` (the layer acts for the late seat) and publish the board."""
        layer = self.layer
        try:
            committed = await layer.act(snap.id, snap.players[seat], "timeout", expected_version=snap.version)
        except BotError as err:
            if err.key in ("err.stale", "err.conflict", "err.game_closed"):
                return  # someone acted first: the new commit set the new wake
            raise
        except RuleError:
            log.warning("game %s: Timeout(%s) refused by the engine; its timer is cleared", snap.id, seat)
            await self._move_wake(snap.record, None)
            return
        self.fired["timeout"] += 1
        await layer.after_commit(committed, layer.headline(committed))

    async def expire(self, record: GameRecord) -> None:
        """A challenge or lobby nobody started in time: ``aborted`` (logged ``expire``), its message says so."""
        if LOBBY_KEY not in record.messages and self.layer.clock.now() - record.created_at.timestamp() < POST_GRACE_S:
            await self.layer.storage.set_wake_at(record.id, self.layer.clock.now() + 1.0)  # its message is on its way
            return

        def step(snap: Snapshot) -> Change:
            return Change(snap.env, "expire", None, status="aborted")

        try:
            committed = await self.layer.transact(record.id, step, statuses=("lobby",), expected_version=record.version)
        except BotError as err:
            if err.key in ("err.stale", "err.conflict", "err.game_closed", "err.wrong_phase"):
                return
            raise
        self.fired["expire"] += 1
        snap = committed.snap
        message_id = snap.record.messages.get(LOBBY_KEY)
        if message_id is not None:  # the whole message: its "accept / join below" no longer holds
            said = text(snap.kind, "expired_of", snap.locale, game=snap.kind.title, players=listed(snap.names))
            await self.layer.publisher.delivery.edit(snap.record, message_id, content=said[:2000], view=None)

    # -- claiming ----------------------------------------------------------------------------------------------
    async def claim(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """Another player claims the win of a late player (``timeout_claim`` kinds): the engine's ``Timeout`` of the
        late seat, committed only if its deadline has passed and it has not moved since. Refused: not a player, the
        late player themself, time not out (``clk.not_late``), the late player's move landing first
        (``clk.moved_in_time``: exactly one of the two applies)."""
        layer = self.layer
        snap = await layer.load(game_id)
        if snap.status != "active":
            raise BotError("err.game_closed", status=snap.status)
        me = snap.seat_of(interaction.user.id) if interaction.user.id in snap.players else None
        if me is None:
            raise not_player()
        running = clocks.running(snap.env)
        if running is None or layer.clock.now() < running[1]:
            raise BotError("clk.not_late")
        seat = running[0]
        if seat == me:
            raise BotError("clk.own_clock")
        try:
            committed = await layer.perform(
                interaction, layer.act(game_id, snap.players[seat], "timeout", expected_version=snap.version, base=snap)
            )
        except BotError as err:
            if err.key in ("err.stale", "err.conflict"):  # the late player moved while the claim was on its way
                raise BotError("clk.moved_in_time", name=snap.names[seat]) from err
            raise
        self.fired["claimed"] += 1
        return committed
