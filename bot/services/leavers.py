"""Players who leave (issue 22), the sibling of :mod:`bot.services.departure` (the bot's own removal).

Rule **L1** (README design notes): a seated human player who left the server, or can no longer see the game's
channel (no View Channel there: an overwrite, a role change), while the game runs forfeits their seat through the
engine's shared ``Forfeit`` on the layer's normal action path (:meth:`GameLayer.act`): the engine decides what a
forfeited seat means in its game (a seat leaves a game of several that goes on while two seats, not only AI ones,
remain; a two-player game is won by the opponent, rated like any forfeit). Whatever the clock setting, the channel
is told in the new board's headline. Lobbies are left alone
(they expire or their host closes them).

When it is seen (the members intent is privileged and the bot does not ask for it):

- ``GUILD_MEMBER_REMOVE`` (``on_raw_member_remove``), only when an operator grants the members intent;
- ``CHANNEL_UPDATE`` / ``GUILD_ROLE_UPDATE``: every human seat of the games in that channel (threads follow
  their parent) or guild is checked;
- when the game needs the player: after every commit, the awaited human seats (and a seat that just timed out)
  are checked, unless the member was seen (fetched, or acting) within :data:`PRESENT_TTL_S`; and every
  ``DEPARTURE_CHECK`` seconds (:class:`Sweeper`) the games idle that long are checked again, so a game whose
  awaited player left while it was already their turn (or right after their own move) moves on without any clock.

A check is one member fetch (``GET /guilds/{g}/members/{u}``: 404 code 10007 means gone) and the channel's
permissions for that member from the cached guild; any other failure decides nothing (the seat stays).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.i18n import t
from engine.errors import RuleError
from engine.protocol import Forfeit

if TYPE_CHECKING:
    from bot.core.changes import Committed
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

RULE = "L1"
LEFT, HIDDEN = "left", "hidden"
"""Why a seat is gone: the member left the server, or cannot see the game's channel."""
PRESENT_TTL_S = 120.0
"""A member seen present (fetched, or acting in the game) is not fetched again for this long by the commit hook;
the sweep always fetches. So a player who leaves right after their own move is seen by the sweep."""
MAX_REMEMBERED = 10_000
UNKNOWN_MEMBER = 10007

_present: dict[tuple[int, int], float] = {}


def in_play(snap: Snapshot, seat: int) -> bool:
    """True when ``seat`` is a human seat still in the game (its ``Forfeit`` is legal)."""
    if snap.is_ai(seat) or snap.state is None:
        return False
    try:
        snap.state.check(Forfeit(seat))
    except RuleError:
        return False
    return True


async def why_gone(bot: Any, record: GameRecord, user_id: int) -> str | None:
    """``"left"`` (not a member of the game's guild any more: 10007), ``"hidden"`` (no View Channel in the game's
    channel or its thread's parent) or ``None`` (present, or unknown: any other error decides nothing)."""
    guild = bot.get_guild(record.guild_id)
    if guild is None:
        return None
    try:
        member = await guild.fetch_member(user_id)
    except discord.NotFound as err:
        return LEFT if err.code == UNKNOWN_MEMBER else None
    except discord.HTTPException as err:
        log.info("member %s of guild %s: fetch failed (%s): seat kept", user_id, record.guild_id, err)
        return None
    channel = guild.get_channel_or_thread(record.channel_id)
    if channel is None:
        return None
    try:
        visible = channel.permissions_for(member).view_channel
    except Exception:  # an incomplete cache: decide nothing
        log.debug("permissions of %s in %s unknown", user_id, record.channel_id, exc_info=True)
        return None
    _present[(record.guild_id, user_id)] = time.monotonic()
    return None if visible else HIDDEN


async def check_seats(
    layer: GameLayer,
    record: GameRecord,
    seats: list[int] | None = None,
    *,
    fresh: bool = True,
    known: dict[int, str] | None = None,
    base: Snapshot | None = None,
) -> list[Committed]:
    """Check ``seats`` (default every human seat in play) of the running game ``record`` and forfeit each one
    gone (rule L1), in seat order. ``fresh=False`` skips members seen present within :data:`PRESENT_TTL_S`;
    ``known``: user id -> reason already established (GUILD_MEMBER_REMOVE); ``base``: the game as a commit just left
    it (used while still current: no second engine load). Returns the commits made."""
    if record.status != "active" or record.kind not in layer.kinds:
        return []
    current = base is not None and base.version == record.version and base.status == record.status
    snap = base if current and base is not None else layer.snapshot(record)
    seats = [s for s in (range(len(record.players)) if seats is None else seats) if in_play(snap, s)]
    done: list[Committed] = []
    now = time.monotonic()
    for seat in seats:
        user_id = record.players[seat]
        why = (known or {}).get(user_id)
        if why is None:
            if not fresh and now - _present.get((record.guild_id, user_id), -1e9) < PRESENT_TTL_S:
                continue
            why = await why_gone(layer.bot, record, user_id)
        if why is None:
            continue
        committed = await forfeit_gone(layer, record.id, user_id, seat, why)
        if committed is not None:
            done.append(committed)
            if committed.finished:
                break
    return done


async def forfeit_gone(layer: GameLayer, game_id: int, user_id: int, seat: int, why: str) -> Committed | None:
    """Forfeit ``user_id``'s seat (rule L1) through :meth:`GameLayer.act` and post the board with the reason.
    Returns the commit, or ``None`` when the game or seat was already over (a race with another trigger)."""
    try:
        committed = await layer.act(game_id, user_id, "forfeit")
    except (RuleError, BotError) as err:
        log.info("game %s: seat %s (%s) gone (%s, %s) but not forfeited: %s", game_id, seat, user_id, why, RULE, err)
        return None
    snap = committed.snap
    name = snap.env.seats[seat].name if seat < len(snap.env.seats) else str(user_id)
    log.info("game %s: seat %s (user %s) %s: forfeited (%s)", game_id, seat, user_id, why, RULE)
    notice = t(f"leave.{why}", snap.locale, name=name)
    await layer.after_commit(committed, notice + "\n" + layer.headline(committed))
    return committed


def seen(guild_id: int | None, user_id: int) -> None:
    """``user_id`` just used the bot in ``guild_id`` (any interaction): present, no member fetch for a while."""
    if guild_id:
        _present[(guild_id, user_id)] = time.monotonic()


def on_commit(layer: GameLayer, committed: Committed) -> None:
    """``layer.on_committed`` hook: the seats the game now waits for (and one that just timed out) are checked
    in the background, members seen within :data:`PRESENT_TTL_S` skipped."""
    snap = committed.snap
    if snap.status != "active" or snap.state is None:
        return
    seats = set(snap.state.awaiting())
    now = time.monotonic()
    guild = snap.record.guild_id
    for change in committed.changes:
        if change.seat is None:
            continue
        if change.action == "timeout":
            seats.add(change.seat)
        else:
            seats.discard(change.seat)  # the one who just acted is here
            if change.actor is not None and not snap.is_ai(change.seat):
                _present[(guild, change.actor)] = now
    if len(_present) > MAX_REMEMBERED:
        for k in [k for k, seen in _present.items() if now - seen >= PRESENT_TTL_S]:
            del _present[k]
    seats = {s for s in seats if not snap.is_ai(s)}
    if not seats:
        return
    if all(now - _present.get((snap.record.guild_id, snap.players[s]), -1e9) < PRESENT_TTL_S for s in seats):
        return
    layer.bot.spawn(_checked(layer, snap.id, sorted(seats), fresh=False, base=snap), name=f"leavers-{snap.id}")


async def _checked(
    layer: GameLayer,
    game_id: int,
    seats: list[int] | None,
    *,
    fresh: bool,
    known: dict[int, str] | None = None,
    base: Snapshot | None = None,
) -> None:
    try:
        record = await layer.record(game_id)
        await check_seats(layer, record, seats, fresh=fresh, known=known, base=base)
    except Exception:
        log.exception("departure check of game %s failed", game_id)


async def member_removed(layer: GameLayer, guild_id: int, user_id: int) -> None:
    """GUILD_MEMBER_REMOVE (with the members intent): the member's running games there lose that seat."""
    for record in await layer.storage.list_active_games(guild_id=guild_id):
        if record.status == "active" and user_id in record.players and layer.owns(record):
            seat = record.players.index(user_id)
            await _checked(layer, record.id, [seat], fresh=True, known={user_id: LEFT})


async def channel_changed(layer: GameLayer, guild_id: int, channel_id: int | None) -> None:
    """CHANNEL_UPDATE of ``channel_id`` (``None``: a role changed, the whole guild): every human seat of the
    running games there (threads whose parent it is included) is checked."""
    guild = layer.bot.get_guild(guild_id)
    for record in await layer.storage.list_active_games(guild_id=guild_id):
        if record.status != "active" or not layer.owns(record):
            continue
        if channel_id is not None and record.channel_id != channel_id:
            thread = guild.get_thread(record.channel_id) if guild is not None else None
            if thread is None or thread.parent_id != channel_id:
                continue
        await _checked(layer, record.id, None, fresh=True)


class Sweeper:
    """Every ``interval`` seconds, the running games this process owns that waited at least that long are
    checked (their awaited human seats, fetched afresh). ``interval`` 0: never."""

    def __init__(self, layer: GameLayer, interval: float) -> None:
        self.layer = layer
        self.interval = interval
        self.task: asyncio.Task[Any] | None = None

    def start(self) -> None:
        if self.interval > 0 and self.task is None:
            self.task = self.layer.bot.spawn(self._run(), name="daemon:leavers-sweep")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("departure sweep failed")

    async def sweep(self) -> int:
        """One pass; returns the number of games checked."""
        layer = self.layer
        cutoff = time.time() - self.interval
        n = 0
        for record in await layer.storage.list_active_games():
            if record.status != "active" or not layer.owns(record) or record.kind not in layer.kinds:
                continue
            if record.updated_at.timestamp() > cutoff:
                continue
            snap = layer.snapshot(record)
            seats = [s for s in (snap.state.awaiting() if snap.state is not None else ()) if not snap.is_ai(s)]
            if seats:
                n += 1
                await _checked(layer, record.id, seats, fresh=True)
        return n
