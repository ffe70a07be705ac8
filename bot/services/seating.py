"""The seats of a challenge or lobby and its one stored message (key ``"lobby"``): the base of
:class:`bot.services.lobby.Lobby`, which opens games (see that module's docstring for the two configurations).

- ``lobby`` mode: others join and leave; the host adds AI seats and starts with ``min_seats..max_seats`` seats; the
  host leaving closes the lobby.
- ``challenge`` mode: the invited user (or anyone but the opener, for an open challenge) accepts and the game
  starts, or declines; the opener withdraws.

The message is edited as seats change and stripped at the start. Texts are the game's: ``<prefix>.<event>`` keys
when the game has them, else the shared ``lobby.<event>`` (``bot/services/seat_text.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.changes import Change, Committed
from bot.core.envelope import Seat
from bot.core.kind import GameKind, Snapshot, not_player
from bot.core.names import plain
from bot.core.respond import reply, update
from bot.errors import BotError
from bot.first_response import InteractionGone, is_dead
from bot.services import access, caps, house
from bot.services.challenges import is_open, take_open_seat
from bot.services.seat_text import key, text
from engine.protocol import GameState

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

LOBBY_KEY = "lobby"
"""Message key of the challenge or lobby message."""


def is_component(interaction: discord.Interaction) -> bool:
    return interaction.type == discord.InteractionType.component


class Seating:
    """Seat steps and the lobby message (see the module docstring); ``layer`` and ``seating_view`` are set by
    :class:`bot.services.lobby.Lobby`."""

    layer: GameLayer
    seating_view: Callable[..., discord.ui.View | None] | None

    def view_of(self, snap: Snapshot) -> discord.ui.View | None:
        """The components of a challenge or lobby message: the kind's own, else the layer's seating buttons."""
        view = snap.kind.components.lobby_view(snap)
        if view is None and self.seating_view is not None:
            view = self.seating_view(snap.kind, snap.id, locale=snap.locale, version=snap.version)
        return view

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
        committed = await self._transact(game_id, step, interaction.user.id)
        snap = committed.snap
        await self._show(interaction, snap, house.lobby_text(snap), live=True)
        if not is_component(interaction):
            await reply(interaction, text(snap.kind, event, snap.locale, n=len(snap.players), **kw))
        return committed

    async def _transact(self, game_id: int, step: Any, user_id: int, expected_version: int | None = None) -> Committed:
        """A seat step of ``user_id`` on a set-up (``statuses=("lobby",)``); a click on a set-up that is over is
        told what happened to it in the players' words: ``lobby.gone_expired`` (it expired), ``lobby.gone``
        (declined, withdrawn, closed, aborted), ``lobby.gone_started`` (the game runs: a player plays on its board)
        or ``lobby.gone_started_without`` (it started without ``user_id``: its seats are taken); a click on a
        lobby drawn at another ``expected_version``: ``lobby.stale``."""
        try:
            return await self.layer.transact(game_id, step, statuses=("lobby",), expected_version=expected_version)
        except BotError as err:
            if err.key == "err.stale":
                raise BotError("lobby.stale") from err
            if err.key == "err.wrong_phase":
                record = await self.layer.storage.get_game(game_id)
                seated = record is not None and user_id in record.players
                raise BotError("lobby.gone_started" if seated else "lobby.gone_started_without") from err
            if err.key != "err.game_closed":
                raise
            actions = await self.layer.storage.actions(game_id)
            last = actions[-1].action if actions else None
            raise BotError("lobby.gone_expired" if last == "expire" else "lobby.gone") from err

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

        return await self._seat_step(interaction, game_id, step, "joined", name=plain(user.display_name))

    async def add_ai(
        self,
        interaction: discord.Interaction,
        game_id: int,
        level: str | None = None,
        *,
        expected_version: int | None = None,
    ) -> Committed:
        """The host adds an AI seat (id per ``seating.ai_ids``). Refused: not the host, full, the lobby clicked drawn
        at another ``expected_version`` (a double click: ``lobby.stale``)."""
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

        committed = await self._transact(game_id, step, interaction.user.id, expected_version)
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

        committed = await self._transact(game_id, step, user.id)
        snap, loc = committed.snap, committed.snap.locale
        if committed.action == "close":
            closed = text(snap.kind, "lobby_closed", loc, name=plain(user.display_name))
            await self._show(interaction, snap, closed, live=False)
            if not is_component(interaction):
                await reply(interaction, closed)
            return committed
        await self._show(interaction, snap, house.lobby_text(snap), live=True)
        if not is_component(interaction):
            await reply(interaction, text(snap.kind, "left", loc, name=plain(user.display_name)))
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

        committed = self._started(await self._transact(game_id, step, interaction.user.id), made)
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
                seated = take_open_seat(snap, user.id, plain(user.display_name))
                return replace(self._start_change(seated, user.id, "accept", made), players=seated.players)
            if user.id != invited:
                raise BotError("err.not_challenged", user=invited)
            return self._start_change(snap, user.id, "accept", made)

        committed = self._started(await self._transact(game_id, step, interaction.user.id), made)
        snap = committed.snap
        names = snap.names
        accepted = text(snap.kind, "accepted", snap.locale, challenger=names[0], opponent=names[1])
        await self._show(interaction, snap, accepted, live=False)
        here = interaction.channel_id == snap.record.channel_id  # /accept from elsewhere: the board goes there
        await self.layer.after_commit(committed, snap.kind.narration.started_text(snap), interaction if here else None)
        return committed

    async def decline(self, interaction: discord.Interaction, game_id: int) -> Committed:
        """The invited user declines, or the opener withdraws: the game is ``aborted``. Refused: anyone else
        (``err.not_challenged``); anyone but the author of an open challenge, which has no one to decline it
        (``err.open_not_declinable``)."""
        user = interaction.user

        def step(snap: Snapshot) -> Change:
            if user.id not in snap.players:
                if snap.env.invited is None:
                    raise BotError("err.open_not_declinable")
                raise BotError("err.not_challenged", user=snap.env.invited)
            action = "withdraw" if user.id == snap.env.host else "decline"
            return Change(snap.env, action, user.id, status="aborted")

        committed = await self._transact(game_id, step, user.id)
        snap = committed.snap
        said = text(
            snap.kind,
            "withdrawn" if committed.action == "withdraw" else "declined",
            snap.locale,
            name=plain(user.display_name),
        )
        await self._show(interaction, snap, said, live=False)
        if not is_component(interaction):
            await reply(interaction, said)
        return committed
