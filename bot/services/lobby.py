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

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.changes import Committed
from bot.core.envelope import Envelope, Seat
from bot.core.kind import GameKind, Snapshot
from bot.core.names import listed
from bot.core.respond import reply
from bot.core.results import CASUAL
from bot.errors import BotError
from bot.i18n import t
from bot.services import access, caps, footprint, house, reach
from bot.services.challenges import refuse_duplicate, undo_if_duplicate
from bot.services.orphans import Orphans
from bot.services.place import Place
from bot.services.seat_text import text
from bot.services.seating import LOBBY_KEY, Seating
from bot.storage import Effect, Owed

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

LOBBY_GRACE_S = 10.0
"""A new challenge or lobby's message is left to the opening command this long before the outbox posts it."""


class Lobby(Seating):
    """Opens games; runs their seats and message through :class:`~bot.services.seating.Seating` (see the module
    docstring)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        layer.outbox.subscribe("lobby", self.lobby_effect)
        self.orphans = Orphans(layer)
        """Threads made for a game that was never stored: removed (``bot/services/orphans.py``)."""
        self.seating_view: Callable[..., discord.ui.View | None] | None = None
        """The layer's seating buttons (``bot.ui.components.seating_view``), given by the wiring root."""

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
        extra: dict[str, Any] | None = None,
    ) -> Snapshot:
        """Open a game of ``kind`` with these seats (seat 0 = the opener): in the channel, or in a new thread
        when the channel is busy (also when another game takes it between the check and the create). A
        challenge of the AI starts at once (its first board answers the command); otherwise the challenge or
        lobby message is posted and stored. ``clock``: the time-control preset chosen (``None``: the guild's
        default, ``bot/core/clock.py``); an unstarted challenge or lobby expires after the guild's set-up expiry.

        ``start``: start at once whatever the seats (a rematch every player agreed to, a quick match). A
        :class:`Place` instead of an interaction (a quick match paired by its timer) needs ``start``. ``on_stored``:
        awaited with the game once stored, before anything is posted (a quick match deletes its queue rows then).
        ``extra``: more keys for the game's ``Envelope.extra`` (a tournament game names its pairing).

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
        if extra:
            env = env.with_(extra={**env.extra, **extra})
        if not house.rated(settings) and not env.extra.get(CASUAL):  # the server plays unrated games: stamped now,
            env = env.with_(extra={**env.extra, CASUAL: True})  # a later change leaves it be
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
        made: dict[str, Any] = {"guild_id": guild_id, "env": env, "players": players, "status": status}
        made.update(wake_at=wake, owed=owed)
        kept = self.orphans.opening(thread) if thread is not None else contextlib.nullcontext()
        async with kept:  # a new thread whose game is not stored is removed, never left empty
            try:
                snap = await self.layer.create(kind, channel_id=channel_id, **made)
            except BotError as err:
                if err.key != "err.channel_busy" or thread is not None:
                    raise
                thread = await footprint.open_thread(self.layer, interaction, title)
                async with self.orphans.opening(thread):
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

    async def closed_by_admin(self, committed: Committed, name: str) -> None:
        """An admin aborted a set-up (``/abort``, ``/games``): its message says so instead of "accept / join
        below" (then the caller strips every message)."""
        snap = committed.snap
        message_id = snap.record.messages.get(LOBBY_KEY)
        if committed.before.status != "lobby" or message_id is None:
            return
        said = text(snap.kind, "closed_by", snap.locale, name=name, game=snap.kind.title, players=listed(snap.names))
        await self.layer.publisher.delivery.edit(snap.record, message_id, content=said[:2000], view=None)
