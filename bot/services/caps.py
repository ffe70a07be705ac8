"""Caps on open games and on the threads the bot opens (issue 22, "Limits per player").

A member may have at most ``games_per_member`` open games in a server (default :data:`DEFAULT_MEMBER`), a server
at most ``games_per_server`` (default :data:`DEFAULT_SERVER`), and at most ``threads`` of them in threads the bot
opened because the channel was busy (default :data:`DEFAULT_THREADS`). Admins change them with ``/settings``
(guild settings :data:`SETTING_MEMBER`, :data:`SETTING_SERVER`, :data:`SETTING_THREADS`); the operator changes the
defaults with ``GAMES_PER_MEMBER``, ``GAMES_PER_SERVER``, ``GAME_THREADS`` (``Config.game_caps``).

What counts (``Storage.open_games``): every ``active`` game a member sits in (AI games included) and every set-up
they host or joined; a challenge counts for its challenger only until it is accepted, so nobody can fill another
member's quota by challenging them. Checked before anything is stored or created: opening a game (challenge,
lobby, AI game, rematch: for whoever opens it), joining a lobby, and opening a thread. Refusals are private and
carry the numbers (``cap.member``, ``cap.server``, ``cap.threads``). The count is a read, not a reservation: two
games opened in the same instant may pass one over the cap (the fair-share cooldowns make that rare).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.limits import OpenGames

SETTING_MEMBER = "games_per_member"
SETTING_SERVER = "games_per_server"
SETTING_THREADS = "threads"
DEFAULT_MEMBER = 5
DEFAULT_SERVER = 50
DEFAULT_THREADS = 20
RANGES = {SETTING_MEMBER: (1, 100), SETTING_SERVER: (1, 1000), SETTING_THREADS: (0, 500)}
"""Allowed values of each setting (inclusive), as ``/settings`` offers them."""
DEFAULTS = {SETTING_MEMBER: DEFAULT_MEMBER, SETTING_SERVER: DEFAULT_SERVER, SETTING_THREADS: DEFAULT_THREADS}


def limits(settings: dict[str, Any], defaults: tuple[int, int, int] | None = None) -> dict[str, int]:
    """The caps in force for a guild's ``settings`` (``Storage.get_guild_settings``): each stored value if it is an
    integer in its range, else the default (``defaults``: the operator's ``GAMES_PER_MEMBER``, ``GAMES_PER_SERVER``,
    ``GAME_THREADS``, ``Config.game_caps``; else :data:`DEFAULTS`). Keys :data:`SETTING_MEMBER`,
    :data:`SETTING_SERVER`, :data:`SETTING_THREADS`."""
    base = dict(zip(DEFAULTS, defaults, strict=True)) if defaults is not None else DEFAULTS
    out: dict[str, int] = {}
    for name, default in base.items():
        value = settings.get(name)
        low, high = RANGES[name]
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        out[name] = value if ok and isinstance(value, int) else default
    return out


async def _counts(layer: GameLayer, guild_id: int, user_id: int) -> tuple[OpenGames, dict[str, int]]:
    invited = [k.name for k in layer.kinds.values() if k.seating.mode == "challenge"]
    counts = await layer.storage.open_games(guild_id, user_id, invited_kinds=invited)
    return counts, limits(await layer.storage.get_guild_settings(guild_id), operator_caps(layer))


def operator_caps(layer: GameLayer) -> tuple[int, int, int] | None:
    """The operator's defaults (``Config.game_caps``, from the environment), if the bot has a config."""
    config = getattr(layer.bot, "config", None)
    caps = getattr(config, "game_caps", None)
    return tuple(caps) if caps is not None else None  # type: ignore[return-value]


async def check_open(layer: GameLayer, interaction: discord.Interaction) -> None:
    """Before ``interaction.user`` opens a game in ``interaction``'s guild. Raises ``BotError("cap.member")`` (their
    open games are at the member cap) or ``BotError("cap.server")`` (the guild's are at the server cap). Nothing
    is checked outside a guild."""
    if not interaction.guild_id:
        return
    counts, caps = await _counts(layer, interaction.guild_id, interaction.user.id)
    _check_member(counts, caps)
    if counts.guild >= caps[SETTING_SERVER]:
        raise BotError("cap.server", count=counts.guild, limit=caps[SETTING_SERVER])


async def check_join(layer: GameLayer, interaction: discord.Interaction) -> None:
    """Before ``interaction.user`` takes a seat in a set-up: ``BotError("cap.member")`` at the member cap."""
    if not interaction.guild_id:
        return
    counts, caps = await _counts(layer, interaction.guild_id, interaction.user.id)
    _check_member(counts, caps)


async def check_member(layer: GameLayer, guild_id: int, user_id: int) -> None:
    """Before ``user_id`` is seated in a new game of ``guild_id`` without asking (a quick match pairs them):
    ``BotError("cap.member")`` at the member cap."""
    counts, caps = await _counts(layer, guild_id, user_id)
    _check_member(counts, caps)


def _check_member(counts: OpenGames, caps: dict[str, int]) -> None:
    if counts.member >= caps[SETTING_MEMBER]:
        raise BotError("cap.member", count=counts.member, limit=caps[SETTING_MEMBER])


async def check_thread(layer: GameLayer, interaction: discord.Interaction) -> None:
    """Before the bot opens a thread for a game in ``interaction``'s guild: ``BotError("cap.threads")`` when the
    guild's open games already in threads (channels that are not the guild's own channels) reach the cap."""
    guild = interaction.guild
    if guild is None:
        return
    counts, caps = await _counts(layer, guild.id, interaction.user.id)
    in_threads = sum(1 for cid in set(counts.channels) if guild.get_channel(cid) is None)
    if in_threads >= caps[SETTING_THREADS]:
        raise BotError("cap.threads", count=in_threads, limit=caps[SETTING_THREADS])
