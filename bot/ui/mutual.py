"""Mutual abort (issue 12): ``/abandon`` proposes to end the channel's running game without a result; every human
player agrees with one click (the proposer by proposing; ``/abandon`` again counts as the click) and the game is
``aborted``, never rated, its messages stripped. AI seats always agree: a game against the AI alone ends at once.
A seat that left the game (forfeited) is not waited for.

An offer is for the game as it stands (the number of engine actions played, ``moves``, kept with the votes; an
offer, a decline or a takeback request is no move): once the game moved on (a move, a timeout), it no longer
stands, as a draw offer on a chess server: that action edits the offer to say so and strips its button
(:func:`on_commit`, message key ``abort_offer``); a click on an offer a client still shows is refused
(``abort.stale``); ``/abandon`` then starts a new offer counted from one.

An admin (Manage Server) who holds a seat in play needs the others' consent like anyone (issue 22): ``/abort`` then
posts this offer instead of aborting (:func:`needs_consent`), and ``/games``' Abort refuses. Every abort message of a
game that hides a deal reveals it (:func:`abort_note`: the kind's ``narration.reveal_on_abort``).

Custom id: ``ma:ok:<game>`` (persistent). Votes: :mod:`bot.services.agreements` (``abort_votes:<game>``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core.changes import Change
from bot.core.kind import not_player
from bot.core.mentions import ping
from bot.core.names import listed, plain
from bot.core.results import unmoved_seats
from bot.errors import BotError
from bot.i18n import t
from bot.services.agreements import agreement, humans, mentions
from bot.ui.common import GameButton, games, reply, update
from engine.errors import RuleError
from engine.protocol import Forfeit

if TYPE_CHECKING:
    from bot.core.changes import Committed
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

WHAT = "abort_votes"
OFFER_KEY = "abort_offer"
"""Message key of the live offer (voided, its button stripped, by the game's next action)."""


def view(game_id: int, locale: Any) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    v.add_item(AgreeAbortButton(game_id, locale=getattr(locale, "value", locale)))
    return v


async def agree(interaction: discord.Interaction, game_id: int) -> None:
    """Count the caller's agreement to abort ``game_id``; the last one aborts it (see the module docstring).

    Everything is decided on one read of the game, and the abort commits only while the game has played no move
    since: a move (or a forfeit) stored meanwhile voids the offer, and a click is told so (``abort.stale``); a
    command is counted again on the game as it now stands (a new offer), at most :data:`TRIES` times."""
    for attempt in range(1, TRIES + 1):
        try:
            return await _agree(interaction, game_id)
        except _MovedOn as err:
            if attempt == TRIES:
                raise BotError("abort.stale") from err


TRIES = 3
"""How many reads a ``/abandon`` (a command, not a click) is decided on before it gives up (``abort.stale``)."""


class _MovedOn(Exception):
    """The game moved on between the read an agreement was decided on and its commit (a command retries)."""


async def _agree(interaction: discord.Interaction, game_id: int) -> None:
    layer = games(interaction)
    user = interaction.user
    loc = interaction.guild_locale or interaction.locale
    record = await layer.record(game_id)
    if record.status != "active":
        raise BotError("abort.not_started" if record.status == "lobby" else "err.game_closed", status=record.status)
    snap = layer.snapshot(record)
    loc = snap.locale or loc  # public text about a game in the game's language, as its board (one language per game)
    left = [s for s in range(len(record.players)) if _left(snap.state, s)]
    voters = [u for u in humans(record, snap.env) if record.players.index(u) not in left]
    if user.id not in voters:
        raise not_player()
    counted = _counted_departures(snap, left)
    if counted:  # an abort would erase their rated last place: refused, saying what to do instead
        raise BotError("abort.after_forfeit", names=listed(snap.names[s] for s in counted))
    is_click = interaction.type == discord.InteractionType.component
    async with agreement(layer.storage, WHAT, game_id) as deal:
        moves = _moves(snap)
        if deal.votes and deal.data.get("moves", moves) != moves:  # the game moved on
            older = deal.data.get("message")
            await deal.clear()
            deal.data = {}
            if older:
                await layer.publisher.delivery.edit(record, int(older), view=None)
            if is_click:
                raise BotError("abort.stale")
        deal.data.pop("version", None)  # votes stored before "moves" (they hold no count: counted from now)
        deal.data.setdefault("moves", moves)
        if not deal.add(user.id):
            waiting = [u for u in voters if u not in deal.votes]
            raise BotError("abort.already", waiting=mentions(waiting))
        waiting = [u for u in voters if u not in deal.votes]
        if waiting:
            # the offer keeps naming who proposed it (stored as text: read back as a Name)
            proposer = plain(deal.data.setdefault("by", plain(user.display_name)))
            await deal.save()
            text = t(
                "abort.offer", loc, name=proposer, agreed=len(deal.votes), total=len(voters), waiting=mentions(waiting)
            )
            if is_click:
                await update(interaction, content=text, view=view(game_id, loc), allowed_mentions=ping(waiting))
                if interaction.message is not None and await _moved_on(layer, record, moves):
                    await _void(layer, record, interaction.message.id, snap.locale)  # a move voided what it redrew
                return
            await reply(interaction, text, view=view(game_id, loc), allowed_mentions=ping(waiting))
            message = await interaction.original_response()
            older = deal.data.get("message")
            deal.data["message"] = message.id
            await deal.save()
            moved = await _moved_on(layer, record, moves, offer=message.id)
            if older:  # one live offer: the newest
                await layer.publisher.delivery.edit(record, int(older), view=None)
            if moved:
                await _void(layer, record, message.id, snap.locale)
            return
        try:
            committed = await _abort(layer, game_id, user.id, moves)
        except BotError as err:
            if err.key != "err.stale":
                raise
            await deal.clear()  # the votes were for a position the game has left: the offer no longer stands
            if is_click:
                raise BotError("abort.stale") from err
            raise _MovedOn from err
        message_id = deal.data.get("message")
        await deal.clear()
    title = committed.snap.kind.title
    text = t("abort.agreed", loc, game=title) + abort_note(committed.snap, loc)
    if is_click:
        await update(interaction, content=text, view=None)
    else:
        await reply(interaction, text)
        if message_id:
            await layer.publisher.delivery.edit(committed.snap.record, int(message_id), content=text, view=None)
    await layer.publisher.strip_all(committed.snap.record)


def needs_consent(snap: Snapshot, user_id: int) -> bool:
    """True when ``user_id`` holds a human seat still in play of the running game ``snap`` and another human seat
    is in play: then even an admin's abort is only an offer the others must agree to (issue 22)."""
    if snap.status != "active" or user_id not in snap.players:
        return False
    in_play = [u for u in humans(snap.record, snap.env) if not _left(snap.state, snap.players.index(u))]
    return user_id in in_play and len(in_play) > 1


def refuse_seated(user_id: int) -> Callable[[Snapshot], None]:
    """An admin abort's ``check`` (:meth:`GameLayer.abort`): refused with ``abort.seated_admin_games`` when, on
    the game as it is when the abort commits, the admin ``user_id`` needs the others' consent."""

    def check(snap: Snapshot) -> None:
        if needs_consent(snap, user_id):
            raise BotError("abort.seated_admin_games")

    return check


def abort_note(snap: Snapshot, locale: Any) -> str:
    """What an abort message adds for the game's fairness: the kind's ``narration.reveal_on_abort`` (e.g. a hidden
    deal's seed, with ``"\n"`` first), else ``""``."""
    return snap.kind.narration.reveal_on_abort(snap, locale)


def on_commit(layer: GameLayer, committed: Committed) -> None:
    """``layer.on_committed`` hook: a game action after an offer voids it; its message says so at once."""
    offer = committed.before.messages.get(OFFER_KEY)
    if offer is not None and any(c.seat is not None for c in committed.changes):
        snap = committed.snap
        layer.bot.spawn(_void(layer, snap.record, int(offer), snap.locale), name=f"abort-offer-void-{offer}")


async def _void(layer: GameLayer, record: Any, message_id: int, locale: Any) -> None:
    await layer.publisher.delivery.edit(record, message_id, content=t("abort.stale", locale), view=None)
    await layer.storage.set_message(record.id, OFFER_KEY, None)


def _counted_departures(snap: Any, left: list[int]) -> list[int]:
    """Seats in ``left`` whose last place would count for ratings: they moved before leaving, in a game without AI
    seats. Aborting then would erase that place, so ``/abandon`` is refused (a seat that left without ever moving
    makes the game unrated anyway: no place is lost)."""
    if not left or snap.has_ai or snap.state is None:
        return []
    idle = set(unmoved_seats(snap.state.history, len(snap.players)))
    return [s for s in left if s not in idle]


def _left(state: Any, seat: int) -> bool:
    """True when ``seat`` has left the game (forfeited: the engine refuses its ``Forfeit``): it is not waited for."""
    if state is None:
        return False
    try:
        state.check(Forfeit(seat))
    except RuleError:
        return True
    return False


async def _moved_on(layer: GameLayer, record: Any, moves: int, *, offer: int | None = None) -> bool:
    """True when the game has no longer played ``moves`` engine actions (an offer is no move). Under the game's
    lock, and with ``offer`` (the offer's message) recorded there first, like a claim: a move either is seen here or
    strips that message."""
    async with layer.lock(record.id):
        if offer is not None:
            await layer.storage.set_message(record.id, OFFER_KEY, offer)
        fresh = await layer.storage.get_game(record.id)
    return fresh is None or _moves(layer.snapshot(fresh)) != moves


def _moves(snap: Snapshot) -> int:
    """How many engine actions the game has played (its state's ``history``): what an offer to abort stands on."""
    return len(snap.state.history) if snap.state is not None else 0


async def _abort(layer: GameLayer, game_id: int, by: int, moves: int) -> Any:
    """Abort ``game_id`` if it has still played ``moves`` engine actions, as when the agreement was decided (checked
    under the game's lock; an offer or a decline meanwhile is no move), else ``BotError("err.stale")``."""

    def step(snap: Snapshot) -> Change:
        if _moves(snap) != moves:
            raise BotError("err.stale")
        return Change(snap.env, "abort", by, status="aborted")

    return await layer.transact(game_id, step)


class AgreeAbortButton(GameButton, template=r"ma:ok:(?P<game>[0-9]+)"):
    """Agree to abort: one click per player."""

    prefix, verb, label_key, style = "ma", "ok", "ui.agree_abort", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await agree(interaction, self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AgreeAbortButton,)
