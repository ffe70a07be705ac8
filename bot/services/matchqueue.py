"""Quick-match queues (``/play``): players waiting for a game of a kind in a server are paired, and the game opens
through the one way games open (:meth:`bot.services.lobby.Lobby.open`, ``start=True``: a thread of its own where
the server has them, the caps checked).

- **Groups**: players of one server waiting for the same kind, table size (``seats``: within the kind's
  ``seating.min_seats..max_seats``, default the largest) and clock preset (the server's default resolved at join
  time). When a group holds ``seats`` players, the oldest ones are paired at once by the join that completed it;
  the game opens in that joiner's channel.
- **AI seats after a wait**: a player who queues with ``bots`` gets a deadline (``Config.queue_wait_s``,
  ``QUEUE_WAIT_S``, default 120 s); at it, their group's players (them first, then the oldest others) fill the
  table and the free seats go to AI seats. The deadline is stored (``match_queue.wait_until``) and one task here
  wakes at the earliest one, re-armed at every READY and every join, so a restart keeps it (like
  ``bot/services/timers.py``; not an outbox effect: effects belong to a game, and a queue has none yet).
- **One queue per player**: joining another queue moves the player (the private answer says so); ``/play leave``
  or the **Leave the queue** button on that answer leaves.
- **Other games meanwhile**: a queued player stays queued when they open or join another game; when a match forms,
  each paired player's open games are checked against the member cap (``bot/services/caps.py``) and a player at
  the cap is taken out of the queue (the others keep waiting).
- **The server's settings meanwhile** (``/settings``, :mod:`bot.services.house`): when a group forms (a join, the
  AI-seat timer), every candidate, oldest first, is checked with :func:`house.check_start` (them, the kind, the
  place the game opens in); one who may no longer play (blocked, game turned off, channel no longer allowed) is
  taken out of the queue and the others are paired without them: a joiner is never refused because of someone else.
  Whoever is taken out without asking is told privately the next time they use ``/play`` (a stored note,
  ``match_queue_notes``).
- **Crash safety**: the group is *claimed* (``match_queue.claimed_at``), not deleted, while its game opens; the
  rows go once the game is stored, or wait again when it could not open. At start-up, a claim whose game exists is
  deleted, any other is released and its group paired again: nobody is lost, and no pairing opens two games.
- **Who hears what**: the joiner privately (queued, how many wait in the group, the moved-from queue); when a match
  forms, one public message in the channel where it formed mentions the paired people only (explicit allowed
  mentions) with a jump link to the game's board.

"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.envelope import Seat
from bot.core.names import plain
from bot.core.respond import reply
from bot.errors import BotError
from bot.i18n import t, tn
from bot.services import access, caps, house
from bot.services.boards import BOARD_KEY, message_link
from bot.services.place import Place
from bot.storage.queue import QueueClaimedError, Waiting

if TYPE_CHECKING:
    from bot.core.kind import GameKind, Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

DEFAULT_WAIT_S = 120.0
MAX_SLEEP_S = 60.0
"""The timer re-reads the queue at least this often (deadlines set by another process are seen then)."""
RETRY_S = 30.0
"""A timed match that could not open (Discord refused, the server's cap) is tried again after this long."""
DROPPED = {
    "house.blocked": "queuefix.dropped_blocked",
    "house.game_off": "queuefix.dropped_game_off",
    "house.channel": "queuefix.dropped_channel",
    "cap.member": "queuefix.dropped_cap",
}
"""Why a player was taken out of a queue (a refusal's key) -> the note they read (``bot/locales/*_queuefix.py``)."""


class MatchQueue:
    """See the module docstring. ``fired`` counts timed matches opened (``timed``) and matches by joins
    (``joined``)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.fired: Counter[str] = Counter()
        self.leave_view: Callable[[str | None], discord.ui.View] | None = None
        """The private answer's **Leave the queue** button (the UI's), given by the wiring root."""
        self._task: asyncio.Task[Any] | None = None
        self._poked = asyncio.Event()
        self._recovered = False
        layer.on_ready_hooks.append(self.start)

    @property
    def wait_s(self) -> float:
        """Seconds before AI seats fill in (``Config.queue_wait_s``)."""
        return float(getattr(getattr(self.layer.bot, "config", None), "queue_wait_s", DEFAULT_WAIT_S))

    # -- joining and leaving -----------------------------------------------------------------------------------
    async def join(
        self, interaction: discord.Interaction, kind: GameKind, *, seats: int, clock: str | None, bots: bool
    ) -> None:
        """Queue ``interaction.user`` for ``kind`` at a table of ``seats``; pair at once when the group is complete.
        Raises ``BotError``: ``err.guild_only``, ``house.*`` (the server's settings,
        :func:`bot.services.house.check_start`), ``queue.seats``, ``err.missing_perms``, ``cap.member``/``cap.server``
        (the joiner's own caps, checked before queueing)."""
        guild_id = interaction.guild_id
        if not guild_id:
            raise BotError("err.guild_only")
        low, high = kind.seating.min_seats, kind.seating.max_seats
        if not low <= seats <= high:
            raise BotError("queue.seats" if low < high else "queue.seats_fixed", game=kind.title, min=low, max=high)
        settings = await self.layer.storage.get_guild_settings(guild_id)
        refusal = house.check_start(  # /settings: blocked member, game turned off, channel not allowed
            settings, interaction.channel or interaction.channel_id, interaction.user.id, kind.name, kind.title
        )
        if refusal is not None:
            raise refusal
        access.require(interaction)
        await caps.check_open(self.layer, interaction)
        note = await self.notice(interaction.user.id, interaction.locale)
        now = self.layer.clock.now()
        user = interaction.user
        entry = Waiting(
            user.id,
            guild_id,
            interaction.channel_id or 0,
            kind.name,
            seats,
            clocks.preset_of(clock, settings),
            plain(user.display_name),
            str(interaction.locale),
            now,
            now + self.wait_s if bots else None,
        )
        again = await self.layer.storage.queue_get(user.id)
        if again is not None and again.group == entry.group:  # joining the same queue again keeps one's place
            waited = now - again.joined_at
            entry = replace(
                entry, joined_at=again.joined_at, wait_until=None if not bots else now + self.wait_s - waited
            )
        try:
            before = await self.layer.storage.queue_put(entry)
        except QueueClaimedError:
            raise BotError("queuefix.pairing") from None
        if bots:
            self._poked.set()
        group = await self.layer.storage.queue_group(*entry.group)
        mine = [w for w in group if w.user_id == user.id]
        place = interaction.channel or interaction.channel_id
        rest = [w for w in group if w.user_id != user.id]
        others = await self._pick(kind, rest, place, user.id, seats - 1)  # the oldest who may play, and the joiner
        if mine and len(others) == seats - 1 and await self._match(kind, [*others, *mine], interaction, entry):
            if note:
                await reply(interaction, note, ephemeral=True)
            return
        group = await self.layer.storage.queue_group(*entry.group)
        await self._tell_queued(interaction, kind, entry, before, len(group), note)

    async def _tell_queued(
        self,
        interaction: discord.Interaction,
        kind: GameKind,
        entry: Waiting,
        before: Waiting | None,
        n: int,
        note: str | None = None,
    ) -> None:
        loc = interaction.locale
        lines = [note] if note else []
        if before is not None and before.group != entry.group:
            old = self.layer.kinds.get(before.kind)
            lines.append(t("queue.moved", loc, game=old.title if old else before.kind, seats=before.seats))
        lines.append(tn("queue.waiting", n, loc, game=kind.title, seats=entry.seats))
        if entry.wait_until is not None:
            lines.append(t("queue.bots_after", loc, seconds=round(self.wait_s)))
        view = self.leave_view(str(loc)) if self.leave_view is not None else None
        await reply(interaction, "\n".join(lines), ephemeral=True, view=view)

    async def leave(self, user_id: int) -> Waiting | None:
        """Take ``user_id`` out of their queue; the row removed, or ``None``."""
        return await self.layer.storage.queue_remove(user_id)

    async def notice(self, user_id: int, locale: Any) -> str | None:
        """Why ``user_id`` was taken out of a queue without asking (blocked, game turned off, channel no longer
        allowed, at the cap), in ``locale``, said once (the note is deleted); ``None`` when there is nothing to say."""
        note = await self.layer.storage.queue_note_pop(user_id)
        if note is None:
            return None
        kind = self.layer.kinds.get(note[0])
        return t(note[1], locale, game=kind.title if kind else note[0])

    # -- pairing -----------------------------------------------------------------------------------------------
    async def _pick(
        self, kind: GameKind, candidates: Sequence[Waiting], place: Any, opener: int, need: int
    ) -> list[Waiting]:
        """The first ``need`` of ``candidates`` (oldest first) who may still play: the server's settings
        (:func:`house.check_start`: blocked, ``kind`` turned off, ``place``, the channel or thread the game opens
        in, no longer allowed) and, but for ``opener`` (whose caps ``Lobby.open`` checks), the member cap. Each one
        who may not is taken out of the queue with a note (:meth:`notice`); the others keep waiting."""
        out: list[Waiting] = []
        settings: dict[str, Any] | None = None
        for w in candidates:
            if len(out) >= need:
                break
            if settings is None:
                settings = await self.layer.storage.get_guild_settings(w.guild_id)
            refusal = house.check_start(settings, place, w.user_id, kind.name, kind.title)
            if refusal is None and w.user_id != opener:
                try:
                    await caps.check_member(self.layer, w.guild_id, w.user_id)
                except BotError as err:
                    refusal = err
            if refusal is None:
                out.append(w)
            else:
                await self._drop(w, refusal.key)
        return out

    async def _drop(self, w: Waiting, key: str) -> None:
        """Take ``w`` out of the queue because of the refusal ``key``, leaving them a note."""
        log.info("quick match: %s taken out of the %s queue (%s)", w.user_id, w.kind, key)
        await self.layer.storage.queue_drop(w, DROPPED.get(key, "queuefix.dropped_other"))

    async def _match(
        self,
        kind: GameKind,
        players: Sequence[Waiting],
        opener: discord.Interaction | Place,
        head: Waiting,
        *,
        fill: bool = False,
    ) -> Snapshot | None:
        """Open the game of ``players`` (oldest first; with ``fill`` the free seats go to AI seats) through
        ``Lobby.open`` from ``opener`` (the joiner who completed the group, or a :class:`Place` for a timed match),
        then ping the paired people where ``head`` queued. ``None`` when the group is no longer complete (someone
        left or was taken by a racing match, or was at their cap). A refusal by ``Lobby.open`` puts the players
        back and is raised. The players' rows are claimed while it opens and deleted as soon as the game is stored
        (``Lobby.open``'s ``on_stored``, before anything is posted)."""
        if not players or (not fill and len(players) < head.seats):
            return None
        claim = await self.layer.storage.queue_take(players)
        if claim is None:
            return None
        loc = str(opener.guild_locale) if opener.guild_locale else head.locale  # public texts: the server's language
        seats = [Seat.of(w.name) for w in players]
        ids = [w.user_id for w in players]
        level = kind.seating.default_level
        while fill and len(ids) < head.seats:
            uid = self._ai_id(kind, ids)
            seats.append(Seat.of(kind.narration.ai_seat_name(level, len(seats) - len(players) + 1, loc), level))
            ids.append(uid)
        title = t("queue.thread_title", loc, game=kind.title, players=", ".join(s.name for s in seats))
        try:
            snap = await self.layer.lobby.open(
                opener,
                kind,
                options=kind.rules.validate_options({}),
                seats=seats,
                players=ids,
                title=title[:100],
                clock=head.clock,
                start=True,
                on_stored=lambda _snap: self.layer.storage.queue_settle([w.user_id for w in players], claim),
            )
        except BaseException:  # nothing stored: they wait again, as they were (once stored: a no-op)
            await self.layer.storage.queue_release([w.user_id for w in players], claim)
            raise
        self.fired["timed" if fill else "joined"] += 1
        await self._announce(snap, [w.user_id for w in players], head, opener, loc)
        return snap

    def _ai_id(self, kind: GameKind, players: list[int]) -> int:
        if kind.seating.ai_ids == "negative":
            return next(-k for k in range(1, kind.seating.max_seats + 1) if -k not in players)
        bot_id = self.layer.bot_user_id
        if bot_id is None or bot_id in players:
            raise BotError("queue.no_ai", game=kind.title)
        return bot_id

    async def _announce(
        self, snap: Snapshot, humans: list[int], head: Waiting, opener: discord.Interaction | Place, loc: str | None
    ) -> None:
        """The public ping: the paired people only, with a jump link to the board (else to the game's channel)."""
        record = await self.layer.storage.get_game(snap.id) or snap.record
        link = message_link(record, BOARD_KEY)
        content = t(
            "queue.paired",
            loc,
            players=" ".join(f"<@{u}>" for u in humans),
            game=snap.kind.title,
            game_id=snap.id,
            link=link,
        )
        where = replace(record, channel_id=opener.channel_id or head.channel_id)
        interaction = opener if isinstance(opener, discord.Interaction) else None
        try:
            await self.layer.publisher.delivery.send(
                where, content, interaction=interaction, mentions=humans, carry=False, locale=loc
            )
        except Exception as err:  # the game is open and its board pings the player to move: log only
            log.warning("quick match %s: the pairing message could not be posted: %s", snap.id, err)

    # -- the timer ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the timer task (idempotent; called on every READY)."""
        if self._task is None or self._task.done():
            self._task = self.layer.bot.spawn(self._run(), name="daemon:match-queue")
        self._poked.set()

    async def _run(self) -> None:
        if not self._recovered:
            try:
                await self.recover()
                self._recovered = True
            except Exception as err:
                log.warning("quick-match claims could not be recovered (%s); trying again", err)
        while not self.layer.bot.is_closed():
            self._poked.clear()
            delay = MAX_SLEEP_S
            try:
                await self.fire_due()
                nxt = await self.layer.storage.queue_next_wait()
                if nxt is not None:
                    delay = min(MAX_SLEEP_S, max(1.0, nxt - self.layer.clock.now()))
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("the quick-match queue could not be read (%s); trying again", err)
                delay = 5.0
            handle = asyncio.get_running_loop().call_later(delay, self._poked.set)  # a timeout with no helper task
            try:
                await self._poked.wait()
            finally:
                handle.cancel()

    async def recover(self) -> int:
        """At start-up (before the timer's first look): every claim left by a crash, in a guild this process serves,
        is deleted when its game was stored (no second game), else released, and its group paired again when it is
        complete (:meth:`pair_now`). Returns how many claims were released."""
        owns = getattr(self.layer.bot, "owns", lambda _g: True)
        claims: dict[tuple[float, int, str], list[Waiting]] = {}
        for w, stamp in await self.layer.storage.queue_claims():
            if owns(w.guild_id):
                claims.setdefault((stamp, w.guild_id, w.kind), []).append(w)
        released = 0
        for (stamp, guild_id, kind), rows in claims.items():
            ids = [w.user_id for w in rows]
            game = await self.layer.storage.queue_game_since(guild_id, kind, ids, stamp)
            if game is not None:
                log.info("quick match: the claim of %s had opened game %s; settled", ids, game)
                await self.layer.storage.queue_settle(ids, stamp)
                continue
            log.warning("quick match: the claim of %s opened no game (a crash); they wait again", ids)
            released += await self.layer.storage.queue_release(ids, stamp)
            head = min(rows, key=lambda w: (w.joined_at, w.user_id))
            try:
                await self.pair_now(head, fill=False)
            except Exception as err:
                log.warning("quick match of %s could not open after a restart (%s); they keep waiting", ids, err)
        return released

    async def pair_now(self, w: Waiting, *, fill: bool) -> Snapshot | None:
        """Open the game of ``w``'s group from where ``w`` queued (a :class:`Place`): ``w`` first, then the oldest
        others who may play (:meth:`_pick`); with ``fill``, AI seats for the rest, else only a complete group.
        ``None`` when nothing opened (``w`` was taken out: their guild, channel or settings). Raises what
        ``Lobby.open`` raises."""
        kind = self.layer.kinds.get(w.kind)
        guild = self.layer.bot.get_guild(w.guild_id)
        if guild is None:
            if getattr(self.layer.bot, "owns", lambda _g: False)(w.guild_id):  # ours, and the bot left it
                log.info("quick match: the bot left guild %s; %s taken out of the queue", w.guild_id, w.user_id)
                await self.layer.storage.queue_remove(w.user_id)
            return None  # else another process's guild
        channel = guild.get_channel_or_thread(w.channel_id)
        if kind is None or not isinstance(channel, discord.TextChannel | discord.Thread):
            log.info("quick match: the queue of %s (%s) lost its channel; taken out", w.user_id, w.kind)
            await self.layer.storage.queue_remove(w.user_id)
            return None
        group = [g for g in await self.layer.storage.queue_group(*w.group) if g.user_id != w.user_id]
        players = await self._pick(kind, [w, *group], channel, 0, w.seats)  # 0: everyone's cap is checked here
        if not players or players[0] != w:
            return None  # w may no longer play (taken out, told later) or left meanwhile
        place = Place(guild, channel, guild.get_member(w.user_id) or discord.Object(w.user_id))
        return await self._match(kind, players, place, w, fill=fill)

    async def fire_due(self) -> int:
        """Open a game with AI seats for every player whose wait ran out (in a guild this process serves).
        Returns how many games opened."""
        opened = 0
        for w in await self.layer.storage.queue_due(self.layer.clock.now()):
            try:
                if await self.pair_now(w, fill=True) is not None:
                    opened += 1
            except BotError as err:
                if err.key in DROPPED:  # the opener may no longer play (settings or cap changed just now)
                    await self._drop(w, err.key)
                else:
                    await self._later(w, err)
            except Exception as err:
                await self._later(w, err)
        return opened

    async def _later(self, w: Waiting, err: BaseException) -> None:
        """A timed match that could not open: its player waits :data:`RETRY_S` more (as they were otherwise)."""
        log.warning("quick match of %s could not open (%s); trying again later", w.user_id, err)
        await self.layer.storage.queue_postpone(w, self.layer.clock.now() + RETRY_S)
