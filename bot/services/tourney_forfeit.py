"""Tournament pairings whose game can never open (the QA pass): scored at once, and the channel is told.

The rule (README "Design notes"): before a pairing's game opens, the server's settings and the players are looked
at. A **permanent refusal** settles the pairing without a game, at once:

- the game is turned off here (``/settings game_off``), or the tournament's channel is no longer among the allowed
  channels (``/settings allow_channel``): the server's doing, so the pairing is **unplayed** (``"none"``: nobody
  scores);
- a player is blocked here (``/settings block``) or is no longer a member of the server (Discord answers Unknown
  Member, 10007): that player **loses by forfeit** and the opponent scores the win (``"a"``/``"b"``); both players
  so: unplayed.

Anything else (Discord refused a post, a cap of open games, a missing permission, a network error) is passing: the
game is tried again as before. Each settled pairing is told in words in the tournament's channel (both players
mentioned), and the round goes on (a round whose last pairing is settled pairs the next one).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.core.mentions import ping
from bot.core.paging import pages
from bot.errors import BotError, storage_failure
from bot.i18n import t, tn
from bot.services import house, tourney_rules
from bot.storage.tourneys import Pairing, Tourney

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

UNKNOWN_MEMBER = 10007
WHY_BLOCKED = "tq.why_blocked"
WHY_LEFT = "tq.why_left"
WHY_GAME_OFF = "tq.why_game_off"
WHY_CHANNEL = "tq.why_channel"


@dataclass(frozen=True)
class Unplayable:
    """Why a pairing's game can never open: ``outcome`` to record (``"a"``, ``"b"`` or ``"none"``), ``why`` (a
    message key: one of the ``WHY_*``) and ``culprits`` (the players who cause it; empty: the server)."""

    outcome: str
    why: str
    culprits: tuple[int, ...] = ()


async def is_gone(guild: discord.Guild, user_id: int) -> bool:
    """True only when Discord says ``user_id`` is not a member of ``guild`` (10007); any other error decides
    nothing (False: a passing failure is tried again)."""
    if guild.get_member(user_id) is not None:
        return False
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound as err:
        return err.code == UNKNOWN_MEMBER
    except discord.HTTPException as err:
        log.info("member %s of guild %s: fetch failed (%s): not judged gone", user_id, guild.id, err)
    return False


async def unplayable(
    settings: dict[str, Any], guild: discord.Guild, channel: Any, kind: str, p: Pairing
) -> Unplayable | None:
    """The permanent refusal of ``p``'s game of ``kind`` in ``channel`` by the guild's ``settings`` and members
    (see the module docstring), or ``None`` (it may open). ``p`` must have two players."""
    assert p.b is not None
    if kind in house.games_off(settings):
        return Unplayable("none", WHY_GAME_OFF)
    allowed = house.channels(settings)
    if allowed and not set(house.channel_place(channel)) & set(allowed):
        return Unplayable("none", WHY_CHANNEL)
    barred = set(house.blocked(settings))
    why = WHY_BLOCKED
    out = tuple(x for x in (p.a, p.b) if x in barred)
    if not out:
        why = WHY_LEFT
        out = tuple([x for x in (p.a, p.b) if await is_gone(guild, x)])
    if not out:
        return None
    if len(out) == 2:
        return Unplayable("none", why, out)
    return Unplayable("b" if out[0] == p.a else "a", why, out)


def notice(tour: Tourney, title: str, p: Pairing, said: Unplayable) -> tuple[str, list[int]]:
    """The channel's message of a settled pairing, in the tournament's language, and whom it mentions."""
    assert p.b is not None
    loc = tour.locale
    a, b = f"<@{p.a}>", f"<@{p.b}>"
    whys = (
        [t(said.why, loc, user=f"<@{x}>", game=title) for x in said.culprits]
        if said.culprits
        else [t(said.why, loc, game=title)]
    )
    head = t("tq.not_played", loc, game=title, round=p.round, board=p.board, a=a, b=b, why=" ".join(whys))
    if said.outcome in ("a", "b"):
        winner, loser = (p.a, p.b) if said.outcome == "a" else (p.b, p.a)
        tail = t("tq.forfeit", loc, winner=f"<@{winner}>", loser=f"<@{loser}>")
    else:
        tail = t("tq.unplayed", loc)
    return f"{head} {tail}", [p.a, p.b]


async def settle(
    layer: GameLayer, tour: Tourney, p: Pairing, settings: dict[str, Any], guild: discord.Guild, channel: Any
) -> bool:
    """Score ``p`` at once when its game can never open (:func:`unplayable`) and tell the tournament's ``channel``
    (best effort, logged). True when ``p`` needs no opening (settled, or a game opened by an earlier try found and
    linked); False: open it."""
    said = await unplayable(settings, guild, channel, tour.kind, p)
    if said is None or p.b is None:
        return False
    storage = layer.storage
    if p.opening_at is not None:  # an earlier try may have opened its game: then it is played
        gid = await storage.queue_game_since(tour.guild_id, tour.kind, [p.a, p.b], p.opening_at)
        if gid is not None:
            await storage.tourney_link(p, gid)
            return True
    if await storage.tourney_settle(p, said.outcome):
        log.info("tournament %s round %s board %s: %s (%s)", tour.id, p.round, p.board, said.outcome, said.why)
        kind = layer.kinds.get(tour.kind)
        text, mentions = notice(tour, kind.title if kind else tour.kind, p, said)
        try:
            await channel.send(text, allowed_mentions=ping(mentions), nonce=f"t{tour.id}r{p.round}b{p.board}u"[:25])
        except Exception as err:
            log.warning("tournament %s: the notice of board %s/%s was not posted: %s", tour.id, p.round, p.board, err)
    return True


async def post(bot: Any, tour: Tourney, text: str, mentions: Collection[int], nonce: str) -> None:
    """A tournament message straight to its channel (when no game of it can carry it). Raises
    ``discord.HTTPException``."""
    place = bot.get_partial_messageable(tour.channel_id, guild_id=tour.guild_id)
    await place.send(text, allowed_mentions=ping(mentions), nonce=nonce[:25])


def line(tour: Tourney, p: Pairing, gone: Collection[int]) -> str | None:
    """The round message's line of a pairing settled without a game (``None``: not such a pairing, or a withdrawn
    player's, which has its own line)."""
    if p.b is None or p.game_id is not None or p.outcome not in ("a", "b", "none"):
        return None
    a, b = f"<@{p.a}>", f"<@{p.b}>"
    if p.outcome == "none":
        return None if p.a in gone or p.b in gone else t("tq.unplayed_line", tour.locale, board=p.board, a=a, b=b)
    winner = a if p.outcome == "a" else b
    return t("tq.forfeit_line", tour.locale, board=p.board, a=a, b=b, winner=winner)


STUCK_WHY = {
    "cap.server": "tq.stuck_cap_server",
    "cap.member": "tq.stuck_cap_member",
    "cap.threads": "tq.stuck_cap_threads",
}
"""The refusals a stuck board's line names in words (their numbers included); anything else: ``tq.stuck_other``."""


def why_stuck(p: Pairing, err: Exception, locale: Any) -> str:
    """Why ``p``'s game could not open, in words: a cap (with its numbers; the member cap is its first player's,
    who opens it), the database failing (``bot.errors.storage_failure``: nothing was posted, the bot's permissions
    are not the matter) or that Discord or the bot refused (the log has the details)."""
    if isinstance(err, BotError) and err.key in STUCK_WHY:
        return t(STUCK_WHY[err.key], locale, player=f"<@{p.a}>", **err.kwargs)
    failure = storage_failure(err)
    if failure is not None:
        return t(f"tq.stuck_storage_{failure}", locale)
    return t("tq.stuck_other", locale)


def every(seconds: float, locale: Any) -> str:
    """A span between two tries in words: whole minutes when it is some (``5 minutes``), else whole seconds."""
    whole = max(1, round(seconds))
    if whole >= 120 and whole % 60 == 0:
        return t("tq.every_min", locale, n=whole // 60)
    return tn("tq.every_s", whole, locale)  # "1 second" (minutes are 2 or more)


async def tell_stuck(layer: GameLayer, tournament_id: int, stuck: list[tuple[Pairing, Exception]], tries: int) -> None:
    """After the last of ``tries`` tries: tell the tournament's channel which boards of its round have still not
    opened and why, mentioning their players and the organiser, and when they are tried again: every
    ``tourney_rules.slow_s()`` (``Tries.retry`` goes on at that pace), at once when another game of the tournament
    ends, and at the next READY. Boards opened or settled meanwhile are left out. Best effort: a refused post is
    logged."""
    tour = await layer.storage.tourney_get(tournament_id)
    if tour is None or tour.status != "running":
        return
    now = {(p.round, p.board): p for p in await layer.storage.tourney_games(tour.id)}
    waiting = [
        (p, err)
        for p, err in stuck
        if (cur := now.get((p.round, p.board))) is not None and cur.game_id is None and cur.outcome is None
    ]
    if not waiting:
        return
    loc = tour.locale
    head = t("tq.stuck_head", loc, round=tour.round, tries=tries, organiser=f"<@{tour.organiser_id}>")
    foot = t("tq.stuck_foot", loc, every=every(tourney_rules.slow_s(), loc))
    lines = [
        t("tq.stuck_line", loc, board=p.board, a=f"<@{p.a}>", b=f"<@{p.b}>", why=why_stuck(p, err, loc))
        for p, err in waiting
    ]
    stamp = secrets.token_hex(4)  # each notice its own nonces: one already used is answered with its old message
    for n, page in enumerate(pages(lines, head_room=len(head) + len(foot) + 2)):
        mentions = {tour.organiser_id} | {u for p, _ in waiting for u in (p.a, p.b or 0) if f"<@{u}>" in "".join(page)}
        text = "\n".join([head, *page, foot])
        try:
            await post(layer.bot, tour, text, mentions, f"{stamp}t{tour.id}r{tour.round}s{n}")
        except Exception as err:
            log.warning("tournament %s: the notice of boards that could not open was not posted: %s", tour.id, err)
            return
    log.info(
        "tournament %s round %s: %d board(s) still not open after %d tries", tour.id, tour.round, len(waiting), tries
    )
