"""Discord permission bits and the channel permission algorithm, as the dev server applies them to the bot.

Modelled on Discord's "Permissions" documentation (permission hierarchy and implicit permissions):

1. Base = the ``@everyone`` role's permissions | the member's roles' permissions (the guild owner and
   ``ADMINISTRATOR`` get everything; channel overwrites do not apply to them).
2. Channel overwrites (of the channel, or of a thread's parent: threads have no overwrites of their own), in
   order: the ``@everyone`` overwrite, the member's roles' overwrites (denies, then allows, aggregated), the
   member's own overwrite.
3. Implicit: without ``VIEW_CHANNEL`` nothing channel-scoped is left; without the right to post (``SEND_MESSAGES``
   in a channel, ``SEND_MESSAGES_IN_THREADS`` in a thread) there is no ``EMBED_LINKS``, ``ATTACH_FILES``,
   ``MENTION_EVERYONE`` nor ``SEND_TTS_MESSAGES`` either. (discord.py's ``Thread.permissions_for`` also applies the
   parent's ``SEND_MESSAGES`` rule inside threads; Discord does not: a thread open to posting keeps its files.)

Names are Discord's permission names in lower case, as discord.py's ``Permissions`` spells them
(``"send_messages"``, ``"attach_files"``, ...; ``"read_messages"`` is accepted for ``"view_channel"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from devserver.models import Channel, Guild, User

FLAGS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_audit_log": 1 << 7,
    "priority_speaker": 1 << 8,
    "stream": 1 << 9,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "send_tts_messages": 1 << 12,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "view_guild_insights": 1 << 19,
    "connect": 1 << 20,
    "speak": 1 << 21,
    "mute_members": 1 << 22,
    "deafen_members": 1 << 23,
    "move_members": 1 << 24,
    "use_voice_activation": 1 << 25,
    "change_nickname": 1 << 26,
    "manage_nicknames": 1 << 27,
    "manage_roles": 1 << 28,
    "manage_webhooks": 1 << 29,
    "manage_expressions": 1 << 30,
    "use_application_commands": 1 << 31,
    "request_to_speak": 1 << 32,
    "manage_events": 1 << 33,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "use_external_stickers": 1 << 37,
    "send_messages_in_threads": 1 << 38,
    "use_embedded_activities": 1 << 39,
    "moderate_members": 1 << 40,
}
ALIASES = {"read_messages": "view_channel", "manage_permissions": "manage_roles"}
ALL = sum(FLAGS.values())
GUILD_ONLY = sum(
    FLAGS[n]
    for n in (
        "kick_members",
        "ban_members",
        "administrator",
        "manage_guild",
        "view_audit_log",
        "view_guild_insights",
        "change_nickname",
        "manage_nicknames",
        "manage_expressions",
        "moderate_members",
    )
)

ADD_REACTIONS = FLAGS["add_reactions"]
ADMINISTRATOR = FLAGS["administrator"]
VIEW_CHANNEL = FLAGS["view_channel"]
SEND_MESSAGES = FLAGS["send_messages"]
SEND_TTS_MESSAGES = FLAGS["send_tts_messages"]
MANAGE_MESSAGES = FLAGS["manage_messages"]
EMBED_LINKS = FLAGS["embed_links"]
ATTACH_FILES = FLAGS["attach_files"]
READ_MESSAGE_HISTORY = FLAGS["read_message_history"]
MENTION_EVERYONE = FLAGS["mention_everyone"]
MANAGE_GUILD = FLAGS["manage_guild"]
USE_APPLICATION_COMMANDS = FLAGS["use_application_commands"]
MANAGE_THREADS = FLAGS["manage_threads"]
CREATE_PUBLIC_THREADS = FLAGS["create_public_threads"]
CREATE_PRIVATE_THREADS = FLAGS["create_private_threads"]
SEND_MESSAGES_IN_THREADS = FLAGS["send_messages_in_threads"]

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
MODERATOR_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_GUILD | MANAGE_MESSAGES | MANAGE_THREADS
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1


def bits(names: Iterable[str]) -> int:
    """The bit set of permission ``names`` (see the module docstring); raises ``ValueError`` for an unknown name."""
    value = 0
    for raw in names:
        name = ALIASES.get(raw.strip().lower(), raw.strip().lower())
        if name not in FLAGS:
            raise ValueError(f"unknown permission {raw!r}; known: {', '.join(sorted(FLAGS))}")
        value |= FLAGS[name]
    return value


def names(value: int) -> list[str]:
    """The permission names set in ``value``, in bit order."""
    return [n for n, b in FLAGS.items() if value & b]


def channel_permissions(guild: Guild, channel: Channel, parent: Channel | None, user: User) -> int:
    """What ``user`` may do in ``channel`` of ``guild`` (``parent``: a thread's parent channel, else None).

    Implements the algorithm of the module docstring; returns the permission bit set.
    """
    base = guild.everyone_permissions
    roles = guild.member_roles(user)
    for role_id in roles:
        base |= guild.role_permissions(role_id)
    if user.id == guild.owner_id or base & ADMINISTRATOR:
        return ALL
    source = parent if channel.type in (10, 11, 12) and parent is not None else channel
    overwrites = source.overwrites
    if guild.id in overwrites:
        _, allow, deny = overwrites[guild.id]
        base = (base & ~deny) | allow
    role_allow = role_deny = 0
    for role_id in roles:
        if role_id in overwrites:
            _, allow, deny = overwrites[role_id]
            role_allow, role_deny = role_allow | allow, role_deny | deny
    base = (base & ~role_deny) | role_allow
    if user.id in overwrites:
        _, allow, deny = overwrites[user.id]
        base = (base & ~deny) | allow
    post = SEND_MESSAGES_IN_THREADS if channel.type in (10, 11, 12) else SEND_MESSAGES
    if not base & post:
        base &= ~(EMBED_LINKS | ATTACH_FILES | MENTION_EVERYONE | SEND_TTS_MESSAGES)
    if not base & VIEW_CHANNEL:
        base &= GUILD_ONLY
    return base
