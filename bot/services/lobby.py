"""Seats: the challenge and the lobby are two configurations of one mechanism (``GameKind.seating``).

- ``challenge``: the opener takes seat 0 and invites one user (seat 1, waiting for Accept / Decline) or the AI
  (the game starts at once); the invited user accepts (the game starts), declines, or the opener withdraws.
- ``lobby``: the host takes seat 0; others join and leave; the host adds AI seats and starts with
  ``min_seats..max_seats`` seats; the host leaving closes the lobby.

A thread per game where the bot may create one (``bot/services/footprint.py``; else a busy channel's fallback), one
stored message (key ``"lobby"``: the challenge or lobby message, edited as seats change, stripped at the start).
Texts are the game's: ``<prefix>.<event>`` keys when the game has them, else the shared ``lobby.<event>``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.changes import Change, Committed
from bot.core.envelope import Envelope, Seat
from bot.core.kind import GameKind, Snapshot, not_player
from bot.core.respond import reply, update
from bot.core.results import CASUAL
from bot.errors import BotError
from bot.first_response import InteractionGone, is_dead
from bot.i18n import t
from bot.services import access, caps, footprint, house, reach
from bot.services.challenges import is_open, refuse_duplicate, take_open_seat, undo_if_duplicate
from bot.services.place import Place
from bot.services.seat_text import key, text
from bot.storage import Effect, Owed
from engine.protocol import GameState

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

LOBBY_KEY = "lobby"
"""Message key of the challenge or lobby message."""
LOBBY_GRACE_S = 10.0
"""A new challenge or lobby's message is left to the opening command this long before the outbox posts it."""


def is_component(interaction: discord.Interaction) -> bool:
    return interaction.type == discord.InteractionType.component


class Lobby:
    """Opens games and runs their seats (see the module docstring)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        layer.outbox.subscribe("lobby", self.lobby_effect)
        self.seating_view: Callable[..., discord.ui.View | None] | None = None
        """The layer's seating buttons (``bot.ui.components.seating_view``), given by the wiring root."""

    def view_of(self, snap: Snapshot) -> discord.ui.View | None:
        """The components of a challenge or lobby message: the kind's own, else the layer's seating buttons."""
        view = snap.kind.components.lobby_view(snap)
        if view is None and self.seating_view is not None:
            view = self.seating_view(snap.kind, snap.id, locale=snap.locale)
        return view

    # -- opening -----------------------------------------------------------------------------------------------
    async def open(
        self,
        interaction: discord.Interaction | Place,
        kind: GameKind,
        *,
        options: dict[str, Any],
        seats: list[Seat],
        players: list[int],
        invited: int | None = None,
        title: str,
        clock: str | None = None,
        start: bool = False,
        on_stored: Callable[[Snapshot], Awaitable[Any]] | None = None,
    ) -> Snapshot:
        """Open a game of ``kind`` with these seats (seat 0 = the opener): in the channel, or in a new thread
        when the channel is busy (also when another game takes it between the check and the create). A
        challenge of the AI starts at once (its first board answers the command); otherwise the challenge or
        lobby message is posted and stored. ``clock``: the time-control preset chosen (``None``: the guild's
        default, ``bot/core/clock.py``); an unstarted challenge or lobby expires after the guild's set-up expiry.

        ``start``: start at once whatever the seats (a rematch every player agreed to, a quick match). A
        :class:`Place` instead of an interaction (a quick match paired by its timer) needs ``start``. ``on_stored``:
        awaited with the game once stored, before anything is posted (a quick match deletes its queue rows then).

        Raises ``BotError`` (``err.channel_busy_no_thread``, ``err.duplicate_challenge``, ``cap.member``,
        ``cap.server``, ``cap.threads``: ``bot/services/caps.py``) and whatever the kind's setup refuses.
        """
        live = not isinstance(interaction, Place)  # a Place is never answered: the board goes to the channel
        if not live and not start:
            raise ValueError("a game opened without an interaction must start at once")
        guild_id = interaction.guild_id or 0
        settings = await self.layer.storage.get_guild_settings(guild_id) if guild_id else {}
        house.check_open(settings, interaction, kind, players, seats, invited)  # type: ignore[arg-type]  # /settings
        where = reach.of_interaction(interaction)  # type: ignore[arg-type]  # the channel, or interactions only
        if where == reach.CHANNEL:
            access.require(interaction)  # type: ignore[arg-type]  # before anything is stored: a game never shown
        await caps.check_open(self.layer, interaction)  # issue 22: open games per member and per server
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        if where == reach.INTERACTIONS and loc is None:  # a DM: the opener's language
            loc = interaction.locale.value
        challenge = invited is not None or options.get("open") is True  # one waiting challenge per pair (or opener)
        if challenge:
            await refuse_duplicate(self.layer, kind, interaction.guild_id or 0, players)
        timing = self.layer.clock
        now = timing.now()
        env = Envelope.new(
            options=options,
            seats=seats,
            host=players[0],
            invited=invited,
            locale=loc,
            now=now,
            clock=clocks.new_clock(clocks.preset_of(clock, settings), timing),
        )
        if not house.rated(settings):  # the server plays unrated games: stamped now, a later change leaves it be
            env = env.with_(extra={**env.extra, CASUAL: True})
        env = env.with_(extra=reach.marked(env.extra, where))
        starts = start or (invited is None and len(players) >= kind.seating.min_seats and all(s.ai for s in seats[1:]))
        status = "lobby"
        wake: float | None = now + timing.span(60.0 * clocks.expiry_minutes(settings))
        if starts:
            state = kind.engine.new(kind.rules.engine_setup(env, players))
            env, started = clocks.start_turn(
                env.with_(engine=state.to_dict()), state, now, lambda s: seats[s].ai is not None
            )
            wake = None if started is clocks.UNCHANGED else started
            status = "active"
        channel_id = interaction.channel_id or 0
        thread: discord.Thread | None = None
        quiet = (
            await footprint.wants_thread(self.layer, interaction, settings) if where == reach.CHANNEL else None
        )  # (new thread?, parent) or None
        own = quiet is not None and quiet[0]
        if where == reach.INTERACTIONS and await self.layer.channel_busy(channel_id):
            raise BotError("uinst.busy")  # no thread where the bot is not a member: one game per conversation
        if own or await self.layer.channel_busy(channel_id):
            thread = await footprint.open_thread(self.layer, interaction, title)
            channel_id = thread.id
        env = env.with_(extra=footprint.placed(env.extra, quiet, thread))  # a thread of its own (quiet channels)
        owed = [] if starts else [Owed("lobby", delay_s=LOBBY_GRACE_S)]
        made = {"guild_id": guild_id, "env": env, "players": players, "status": status, "wake_at": wake, "owed": owed}
        try:
            snap = await self.layer.create(kind, channel_id=channel_id, **made)
        except BotError as err:
            if err.key != "err.channel_busy" or thread is not None:
                raise
            thread = await footprint.open_thread(self.layer, interaction, title)
            snap = await self.layer.create(kind, channel_id=thread.id, **made)
        if challenge:
            await undo_if_duplicate(self.layer, kind, snap)
        _ = await on_stored(snap) if on_stored is not None else None
        if wake is not None:
            self.layer.timers.poke(wake)
        publisher = self.layer.publisher
        event, opened = "own_thread" if own else "opened_in_thread", ""
        if thread is not None:  # a game that starts at once has no lobby to join: the shared words ("the game")
            opened = (
                t(f"lobby.{event}", loc, thread=thread.mention)
                if starts
                else text(kind, event, loc, thread=thread.mention)
            )
        if starts:
            if thread is not None and live:
                await reply(interaction, opened)  # type: ignore[arg-type]
            await publisher.publish(
                snap,
                headline=kind.narration.started_text(snap),
                interaction=interaction if thread is None and live else None,  # type: ignore[arg-type]
            )
            self.layer.ai.notify(snap)
            return snap
        view = self.view_of(snap)
        challenged = [invited] if invited is not None else []  # a challenge pings the challenged user only
        if thread is not None:  # the new thread, through the chain (a refusal there: the command's own answer)
            posted = await publisher.delivery.send(
                snap.record,
                house.lobby_text(snap),
                view=view,
                carry=False,
                mentions=challenged,
                rescue=interaction,
                locale=str(loc),
            )
        else:
            posted = await publisher.delivery.send(
                snap.record, house.lobby_text(snap), view=view, interaction=interaction, mentions=challenged
            )
        await self.layer.storage.set_message(snap.id, LOBBY_KEY, posted.id)
        await self.layer.outbox.done(snap.id, 0, "lobby")
        if thread is not None:
            await reply(interaction, opened)
        return snap

    async def lobby_effect(self, effect: Effect) -> None:
        """The ``lobby`` effect: a challenge or lobby whose message was never recorded (the process died between
        the commit and the post, or the post failed) gets it posted in its channel now."""
        record = await self.layer.storage.get_game(effect.game_id)
        if record is None or record.status != "lobby" or LOBBY_KEY in record.messages:
            return
        snap = self.layer.snapshot(record)
        view = self.view_of(snap)
        posted = await self.layer.publisher.delivery.send(
            record, house.lobby_text(snap), view=view, nonce=f"l{record.id}"
        )
        await self.layer.storage.set_message(record.id, LOBBY_KEY, posted.id)

    # -- the lobby message -----------------------------------------------------------------------------------
    async def _show(self, interaction: discord.Interaction, snap: Snapshot, content: str, *, live: bool) -> None:
        """Show the changed lobby: the clicked lobby message is edited in place; after a command the stored
        one is edited through the channel. ``live=False`` removes its components."""
        view = self.view_of(snap) if live else None
        if is_component(interaction) and not is_dead(interaction):
            try:
                await update(interaction, content=content, view=view)
                return
            except (discord.HTTPException, InteractionGone) as err:  # e.g. 10062: edit it through the channel
                log.info(
                    "could not update the lobby of game %s through interaction %s (%s)", snap.id, interaction.id, err
                )
        message_id = snap.record.messages.get(LOBBY_KEY) or snap.record.messages.get("challenge")
        if is_component(interaction) and interaction.message is not None:
            message_id = interaction.message.id
        if message_id:
            await self.layer.publisher.delivery.edit(snap.record, message_id, content=content, view=view)

    async def _seat_step(
        self, interaction: discord.Interaction, game_id: int, step: Any, event: str, **kw: Any
    ) -> Committed:
        committed = await self._transact(game_id, step)
        snap = committed.snap
        await self._show(interaction, snap, house.lobby_text(snap), live=True)
        if not is_component(interaction):
            await reply(interaction, text(snap.kind, event, snap.locale, n=len(snap.players), **kw))
        return committed

    async def _transact(self, game_id: int, step: Any) -> Committed:
        """A seat step on a set-up (``statuses=("lobby",)``); a click on a set-up that is over is told what
        happened to it in the players' words: ``lobby.gone_expired`` (it expired), ``lobby.gone`` (declined,
        withdrawn, closed, aborted), ``lobby.gone_started`` (the game runs: play on its board)."""
        try:
            return await self.layer.transact(game_id, step, statuses=("lobby",))
        except BotError as err:
            if err.key == "err.wrong_phase":
                raise BotError("lobby.gone_started") from err
            if err.key != "err.game_closed":
                raise
            actions = await self.layer.storage.actions(game_id)
            last = actions[-1].action if actions else None
            raise BotError("lobby.gone_expired" if last == "expire" else "lobby.gone") from err

    async def closed_by_admin(self, committed: Committed, name: str) -> None:
        """An admin aborted a set-up (``/abort``, ``/games``): its message says so instead of "accept / join
        below" (then the caller strips every message)."""
        snap = committed.snap
        message_id = snap.record.messages.get(LOBBY_KEY)
        if committed.before.status != "lobby" or message_id is None:
            return
        said = text(snap.kind, "closed_by", snap.locale, name=name, game=snap.kind.title, players=", ".join(snap.names))
        await self.layer.publisher.delivery.edit(snap.record, message_id, content=said[:2000], view=None)

    # -- lobby mode --------------------------------------------------------------------------------------------
    @staticmethod
    def _room(snap: Snapshot) -> None:
        seating = snap.kind.seating
        if len(snap.players) >= seating.max_seats:
            raise BotError(key(snap.kind, "full"), rule=snap.kind.seat_rule, max=seating.max_seats)

    @staticmethod
    def _host_only(snap: Snapshot, user_id: int) -> None:
        if user_id != snap.env.host:
            if user_id not in snap.players:
                raise not_player()
            raise BotError(key(snap.kind, "host_only"), host=snap.env.host)

    async def join(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """Take the next seat. Refused: already seated, full, the member's open games at their cap."""
        user = interaction.user
        if user.id not in (await self.layer.record(game_id)).players:  # one already seated hears "already in"
            await house.require_join(self.layer, interaction)
            await caps.check_join(self.layer, interaction)

        def step(snap: Snapshot) -> Change:
            if user.id in snap.players:
                raise BotError(key(snap.kind, "already_in"))
            self._room(snap)
            env = snap.env.with_(seats=[*snap.env.seats, Seat.of(user.display_name)])
            return Change(env, "join", user.id, players=[*snap.players, user.id])

        return await self._seat_step(interaction, game_id, step, "joined", name=user.display_name)

    async def add_ai(self, interaction: discord.Interaction, game_id: int, level: str | None = None) -> Committed:
        """The host adds an AI seat (id per ``seating.ai_ids``). Refused: not the host, full."""
        names: list[str] = []
        access.require(interaction)

        def step(snap: Snapshot) -> Change:
            self._host_only(snap, interaction.user.id)
            self._room(snap)
            kind = snap.kind
            uid = self._ai_id(kind, snap.players)
            index = -uid if uid < 0 else sum(1 for s in snap.env.seats if s.ai) + 1
            name = kind.narration.ai_seat_name(level or kind.seating.default_level, index, snap.locale)
            names.append(name)
            env = snap.env.with_(seats=[*snap.env.seats, Seat.of(name, level or kind.seating.default_level)])
            return Change(env, "add bot", interaction.user.id, players=[*snap.players, uid])

        committed = await self._transact(game_id, step)
        snap = committed.snap
        await self._show(interaction, snap, house.lobby_text(snap), live=True)
        if not is_component(interaction):
            await reply(interaction, text(snap.kind, "joined", snap.locale, name=names[0], n=len(snap.players)))
        return committed

    def _ai_id(self, kind: GameKind, players: list[int]) -> int:
        if kind.seating.ai_ids == "negative":
            return next(-k for k in range(1, kind.seating.max_seats + 1) if -k not in players)
        bot_id = self.layer.bot_user_id
        if bot_id is None or bot_id in players:
            raise BotError(key(kind, "full"), rule=kind.seat_rule, max=len(players))
        return bot_id

    async def leave(self, interaction: discord.Interaction, game_id: int) -> Committed | None:
        """Leave the lobby; the host leaving closes it (``aborted``). Once the game runs, the kind decides
        (:meth:`GameKind.leave_running`)."""
        user = interaction.user
        record = await self.layer.record(game_id)
        if record.status == "active":
            await self.layer.kind_of(record).components.leave_running(interaction, game_id)
            return None

        def step(snap: Snapshot) -> Change:
            seat = snap.seat_of(user.id)
            if user.id == snap.env.host:
                return Change(snap.env, "close", user.id, status="aborted")
            seats = [s for i, s in enumerate(snap.env.seats) if i != seat]
            return Change(
                snap.env.with_(seats=seats), "leave", user.id, players=[p for p in snap.players if p != user.id]
            )

        committed = await self._transact(game_id, step)
        snap, loc = committed.snap, committed.snap.locale
        if committed.action == "close":
            closed = text(snap.kind, "lobby_closed", loc, name=user.display_name)
            await self._show(interaction, snap, closed, live=False)
            if not is_component(interaction):
                await reply(interaction, closed)
            return committed
        await self._show(interaction, snap, house.lobby_text(snap), live=True)
        if not is_component(interaction):
            await reply(interaction, text(snap.kind, "left", loc, name=user.display_name))
        return committed

    def _start_change(self, snap: Snapshot, actor: int, action: str, made: list[GameState]) -> Change:
        """The commit that starts the game: the engine's start state (kept in ``made``), status ``active``, the
        first player's clock started (``wake_at``: its reminder; no clock: the set-up's expiry cleared)."""
        kind = snap.kind
        if len(snap.players) < kind.seating.min_seats:
            raise BotError(
                key(kind, "too_few"), rule=kind.seat_rule, min=kind.seating.min_seats, max=kind.seating.max_seats
            )
        state = kind.engine.new(kind.rules.engine_setup(snap.env, snap.players))
        made.append(state)
        env = kind.rules.after(snap.env, state, (), self.layer.clock.now())  # the kind's bookkeeping of the first state
        env, wake = clocks.start_turn(env.with_(engine=state.to_dict()), state, self.layer.clock.now(), snap.is_ai)
        return Change(env, action, actor, status="active", wake_at=None if wake is clocks.UNCHANGED else wake)

    @staticmethod
    def _started(committed: Committed, made: list[GameState]) -> Committed:
        """``committed`` with the started engine state in its snapshot (no reload)."""
        return replace(committed, snap=replace(committed.snap, state=made[-1]))

    async def start(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """The host starts the game: the engine is set up, the lobby message loses its buttons, the first board
        answers the interaction, the AI seats act."""
        made: list[GameState] = []
        access.require(interaction)

        def step(snap: Snapshot) -> Change:
            self._host_only(snap, interaction.user.id)
            return self._start_change(snap, interaction.user.id, "start", made)

        committed = self._started(await self._transact(game_id, step), made)
        snap = committed.snap
        started = snap.kind.narration.started_text(snap)
        await self._show(interaction, snap, f"{house.lobby_text(snap)}\n{started}", live=False)
        await self.layer.after_commit(committed, started, interaction)
        return committed

    # -- challenge mode ----------------------------------------------------------------------------------------
    async def accept(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """The invited user accepts, or anyone but the challenger an open challenge (``challenges.is_open``): the
        game starts (seat 0 first), the challenge message says so. Refused: ``err.not_challenged``,
        ``err.own_open_challenge``, the member's cap."""
        made: list[GameState] = []
        access.require(interaction)
        user = interaction.user
        await house.require_join(self.layer, interaction)
        if is_open(self.layer.envelope(await self.layer.record(game_id)), [user.id]):
            await caps.check_join(self.layer, interaction)

        def step(snap: Snapshot) -> Change:
            invited = snap.env.invited
            if is_open(snap.env, snap.players):
                seated = take_open_seat(snap, user.id, user.display_name)
                return replace(self._start_change(seated, user.id, "accept", made), players=seated.players)
            if user.id != invited:
                raise BotError("err.not_challenged", user=invited)
            return self._start_change(snap, user.id, "accept", made)

        committed = self._started(await self._transact(game_id, step), made)
        snap = committed.snap
        names = snap.names
        accepted = text(snap.kind, "accepted", snap.locale, challenger=names[0], opponent=names[1])
        await self._show(interaction, snap, accepted, live=False)
        here = interaction.channel_id == snap.record.channel_id  # /accept from elsewhere: the board goes there
        await self.layer.after_commit(committed, snap.kind.narration.started_text(snap), interaction if here else None)
        return committed

    async def decline(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """The invited user declines, or the opener withdraws: the game is ``aborted``."""
        user = interaction.user

        def step(snap: Snapshot) -> Change:
            if user.id not in snap.players:
                raise BotError("err.not_challenged", user=snap.env.invited)
            action = "withdraw" if user.id == snap.env.host else "decline"
            return Change(snap.env, action, user.id, status="aborted")

        committed = await self._transact(game_id, step)
        snap = committed.snap
        said = text(
            snap.kind,
            "withdrawn" if committed.action == "withdraw" else "declined",
            snap.locale,
            name=user.display_name,
        )
        await self._show(interaction, snap, said, live=False)
        if not is_component(interaction):
            await reply(interaction, said)
        return committed
