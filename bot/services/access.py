"""The bot's channel permissions for a game (issue 13): checked before a game starts, named when a post fails.

A game needs, in its channel: View Channel, Send Messages (Send Messages in Threads in a thread) and Attach Files
(boards are pictures). Opening a game in a new thread (a busy channel) also needs Create Public Threads and Send
Messages in Threads (checked by the lobby when it falls back). The bot sends no embeds, so Embed Links is not
needed. Interaction answers need none of these; the bot's own channel posts (AI moves, recovered boards, lobby
messages of a thread) do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.i18n import t

if TYPE_CHECKING:
    from bot.core.host import Host

THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)
CHANNEL_NEEDS = ("view_channel", "send_messages", "attach_files")
THREAD_NEEDS = ("view_channel", "send_messages_in_threads", "attach_files")
THREAD_FALLBACK_NEEDS = ("create_public_threads", "send_messages_in_threads")


@dataclass(frozen=True)
class Perms:
    """Permission flags named in the reader's language, "A, B and C" (a message argument)."""

    flags: tuple[str, ...]

    def localize(self, locale: str | discord.Locale | None) -> str:
        names = [t(f"perm.{f}", locale) for f in self.flags]
        if len(names) <= 1:
            return "".join(names)
        return t("list.and", locale, head=", ".join(names[:-1]), last=names[-1])

    def __str__(self) -> str:
        return self.localize(None)


def is_thread(channel: Any) -> bool:
    return getattr(channel, "type", None) in THREAD_TYPES


def missing(perms: discord.Permissions, *, thread: bool, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The flags a game needs (``extra`` too) that ``perms`` lacks, in a stable order."""
    needs = (THREAD_NEEDS if thread else CHANNEL_NEEDS) + extra
    seen: list[str] = []
    for flag in needs:
        if not getattr(perms, flag) and flag not in seen:
            seen.append(flag)
    return tuple(seen)


def require(interaction: discord.Interaction, *, extra: tuple[str, ...] = ()) -> None:
    """Refuse (``err.missing_perms`` naming them) when the bot lacks a permission a game needs in the
    interaction's channel. Nothing is checked outside a guild."""
    if interaction.guild_id is None:
        return
    lacking = missing(interaction.app_permissions, thread=is_thread(interaction.channel), extra=extra)
    if lacking:
        raise BotError("err.missing_perms", rule="Permissions", perms=Perms(lacking), count=len(lacking))


def channel_missing(bot: Host | discord.Client, channel_id: int) -> Perms | None:
    """What the bot lacks in ``channel_id`` by its cached permissions (``None`` when nothing is known to lack)."""
    channel = bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if channel is None or guild is None or guild.me is None:
        return None
    lacking = missing(channel.permissions_for(guild.me), thread=is_thread(channel))  # type: ignore[union-attr]
    return Perms(lacking) if lacking else None
