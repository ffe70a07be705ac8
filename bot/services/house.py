"""A server's house rules for games (``/settings``, Manage Server): where games may be played, which games are on,
whether new games are rated, who may not play. One check for every path that starts a game.

Stored as guild settings (``Storage.set_guild_settings``, JSON values), so they survive restarts:

- :data:`SETTING_CHANNELS` ``[channel id, ...]``: the allow-list. Empty or absent: games may start anywhere. A
  thread counts as its parent channel (a game's own thread, a thread of an allowed channel).
- :data:`SETTING_OFF` ``[kind name, ...]``: games turned off here (absent: every registered game is on).
- :data:`SETTING_RATED` ``false``: new games here are unrated (absent or ``true``: rated, the default). Stamped on
  the game when it is opened (``bot.core.results.CASUAL``), so changing it never changes a game already open.
- :data:`SETTING_BLOCKED` ``[user id, ...]``: members who may neither start nor join a game here (challenge, open
  challenge, lobby, quick match, rematch; nor be challenged). Games they already play go on (an admin may
  ``/abort`` them).

:func:`may_start` / :func:`may_join` return the refusal (a :class:`BotError`, shown privately in the reader's
language by ``bot.ui.common.refuse``) or ``None``; :func:`require_start` / :func:`require_join` raise it. Every
game-opening path calls one of them before anything is stored (``Lobby.open``, ``Lobby.join``, ``Lobby.accept``;
a quick-match queue calls :func:`may_start` when a member queues).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.results import CASUAL, CHOSEN
from bot.errors import BotError
from bot.i18n import t

if TYPE_CHECKING:
    import discord

    from bot.core.envelope import Seat
    from bot.core.kind import GameKind, Snapshot
    from bot.core.layer import GameLayer

SETTING_CHANNELS = "channels"
SETTING_OFF = "games_off"
SETTING_RATED = "rated"
SETTING_BLOCKED = "blocked"
MAX_CHANNELS = 50
"""Channels an allow-list may hold (a guild setting holds at most 4,000 characters of JSON)."""
MAX_BLOCKED = 100
"""Members a server may block (same bound)."""
SHOWN_CHANNELS = 10
"""Channels named in a refusal; more are counted ("and 3 more")."""


@dataclass(frozen=True, slots=True)
class HouseOptions:
    """The house-rule options of one ``/settings`` call (ids are Discord snowflakes; ``None``: option not given):
    what ``bot.ui.server_settings.house_changes`` turns into changes and ``bot.ui.settings_same.same_house`` into
    "already so" lines."""

    allow_channel: int | None = None
    remove_channel: int | None = None
    any_channel: bool | None = None
    game_on: str | None = None
    game_off: str | None = None
    rated: bool | None = None
    block: int | None = None
    unblock: int | None = None

    def given(self) -> bool:
        """True when at least one option was given."""
        return any(getattr(self, name) is not None for name in self.__slots__)


def _ids(value: Any) -> list[int]:
    """A stored id list, tolerating a hand-edited value (non-integers dropped)."""
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool) and v > 0]


def channels(settings: dict[str, Any]) -> list[int]:
    """The allow-list of ``settings`` (``Storage.get_guild_settings``): channel ids; empty = anywhere."""
    return _ids(settings.get(SETTING_CHANNELS))


def blocked(settings: dict[str, Any]) -> list[int]:
    """The user ids blocked from playing in the guild."""
    return _ids(settings.get(SETTING_BLOCKED))


def games_off(settings: dict[str, Any]) -> list[str]:
    """The kind names turned off in the guild."""
    value = settings.get(SETTING_OFF)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def rated(settings: dict[str, Any]) -> bool:
    """Whether new games of the guild are rated (the default: yes)."""
    return settings.get(SETTING_RATED) is not False


def added(current: Iterable[Any], item: Any) -> list[Any]:
    """``current`` with ``item`` appended once (order kept)."""
    out = list(current)
    return out if item in out else [*out, item]


def removed(current: Iterable[Any], item: Any) -> list[Any] | None:
    """``current`` without ``item``; ``None`` when that leaves it empty (the setting is deleted: the default)."""
    out = [x for x in current if x != item]
    return out or None


def channel_place(channel: Any) -> tuple[int, ...]:
    """The ids an allow-list entry may match for ``channel`` (a discord.py channel or thread, or an id): the
    channel itself and, for a thread, its parent."""
    if isinstance(channel, int):
        return (channel,)
    ids = [getattr(channel, "id", None), getattr(channel, "parent_id", None)]
    return tuple(i for i in ids if isinstance(i, int))


def mentions(channel_ids: Sequence[int]) -> str:
    """``<#1>, <#2>`` for at most :data:`SHOWN_CHANNELS` channels, then ``+N`` for the rest."""
    shown = ", ".join(f"<#{c}>" for c in channel_ids[:SHOWN_CHANNELS])
    more = len(channel_ids) - SHOWN_CHANNELS
    return f"{shown} (+{more})" if more > 0 else shown


def check_start(
    settings: dict[str, Any], place: Any, user_id: int, kind: str, title: str, others: Sequence[int] = ()
) -> BotError | None:
    """The refusal of ``user_id`` starting a game of ``kind`` (shown as ``title``) in ``place`` (a channel, a
    thread, or a channel id) with the human ``others`` invited, by the guild's ``settings``; ``None`` if allowed.

    In this order: ``house.blocked`` (the user is blocked here), ``house.game_off`` (the game is turned off),
    ``house.channel`` (the channel is not on a non-empty allow-list; names the allowed channels),
    ``house.blocked_other`` (an invited member is blocked)."""
    barred = set(blocked(settings))
    if user_id in barred:
        return BotError("house.blocked")
    if kind in games_off(settings):
        return BotError("house.game_off", game=title)
    allowed = channels(settings)
    if allowed and not set(channel_place(place)) & set(allowed):
        return BotError("house.channel", channels=mentions(allowed))
    for other in others:
        if other in barred:
            return BotError("house.blocked_other", user=f"<@{other}>")
    return None


async def may_start(
    layer: GameLayer, guild_id: int | None, place: Any, user_id: int, kind: str, *, others: Sequence[int] = ()
) -> BotError | None:
    """:func:`check_start` with the guild's stored settings (one read). ``guild_id`` ``None`` or 0 (a DM, a user
    install): ``None``, nothing to check. ``kind``: a registered kind name (``layer.kinds``)."""
    if not guild_id:
        return None
    settings = await layer.storage.get_guild_settings(guild_id)
    registered = layer.kinds.get(kind)
    title = registered.title if registered is not None else kind
    return check_start(settings, place, user_id, kind, title, others)


async def may_join(layer: GameLayer, guild_id: int | None, user_id: int) -> BotError | None:
    """``house.blocked`` when ``user_id`` is blocked in the guild (taking a seat: join, accept); else ``None``."""
    if not guild_id:
        return None
    if user_id in blocked(await layer.storage.get_guild_settings(guild_id)):
        return BotError("house.blocked")
    return None


async def require_start(
    layer: GameLayer, interaction: discord.Interaction, kind: str, *, others: Sequence[int] = ()
) -> None:
    """Raise :func:`may_start`'s refusal for ``interaction``'s user, guild and channel."""
    refusal = await may_start(
        layer,
        interaction.guild_id,
        interaction.channel or interaction.channel_id,
        interaction.user.id,
        kind,
        others=others,
    )
    if refusal is not None:
        raise refusal


async def require_join(layer: GameLayer, interaction: discord.Interaction) -> None:
    """Raise :func:`may_join`'s refusal for ``interaction``'s user and guild."""
    refusal = await may_join(layer, interaction.guild_id, interaction.user.id)
    if refusal is not None:
        raise refusal


def check_open(
    settings: dict[str, Any],
    interaction: discord.Interaction,
    kind: GameKind,
    players: Sequence[int],
    seats: Sequence[Seat],
    invited: int | None,
) -> None:
    """``Lobby.open``'s check (the guild's ``settings`` already read): raise :func:`check_start`'s refusal for the
    interaction's user with every other human seat (a rematch seats everyone at once) and the invited user as
    ``others``. Nothing outside a guild."""
    if not interaction.guild_id:
        return
    opener = interaction.user.id
    others = [p for p, s in zip(players, seats, strict=False) if s.ai is None and p != opener]
    if invited is not None:
        others.append(invited)
    place = interaction.channel or interaction.channel_id
    refusal = check_start(settings, place, opener, kind.name, kind.title, others)
    if refusal is not None:
        raise refusal


def lobby_text(snap: Snapshot) -> str:
    """The kind's challenge or lobby text, saying "not rated" when the game was opened while its server played
    unrated games (``Envelope.extra[CASUAL]``)."""
    said = snap.kind.narration.lobby_text(snap)
    casual = snap.env.extra.get(CASUAL)
    if casual == CHOSEN:
        return f"{said}\n{t('house.chosen_note', snap.locale)}"
    return f"{said}\n{t('house.unrated_note', snap.locale)}" if casual else said
