"""Data held by the dev server: clock, snowflakes, users, guilds, channels, messages; the interactions and
violations live in :mod:`devserver.exchanges` and are re-exported here.

Everything here is plain data plus the builders of Discord v10 JSON payloads (``to_payload``).
Ids are snowflakes (ints internally, decimal strings on the wire, as Discord sends them).
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from devserver.exchanges import ErrorRecord as ErrorRecord  # re-exported
from devserver.exchanges import Interaction as Interaction
from devserver.exchanges import InteractionFault as InteractionFault
from devserver.exchanges import Violation as Violation
from devserver.permissions import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, MODERATOR_PERMISSIONS

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7

INTERACTION_DEADLINE_S = 3.0
TOKEN_LIFETIME_S = 15 * 60.0


class Clock:
    """A monotonic clock in seconds that tests can move forward (``advance``) to age tokens."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """Seconds (monotonic) plus the injected offset."""
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (e.g. 16 * 60 to expire an interaction token)."""
        self.offset += seconds


_counter = itertools.count(1)


def snowflake(ago: float = 0.0) -> int:
    """A fresh Discord snowflake built from the wall clock, ``ago`` seconds back (an object created earlier than
    it reaches the bot, e.g. an interaction delivered late); increasing when ``ago`` is 0."""
    ms = int((time.time() - ago) * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def fixed_id(n: int) -> int:
    """A stable snowflake for the n-th built-in object (guild, channels, users): the same on every run, so a
    bot's stored games keep pointing at the same channel and players after the dev server restarts."""
    return ((1_735_689_600_000 - DISCORD_EPOCH_MS) << 22) | n


def iso_now() -> str:
    """The current UTC time in Discord's ISO 8601 format."""
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class User:
    """A Discord user; ``member_permissions`` is the member's guild permissions bit set (the same in every guild:
    every user is a member of every guild of the server); ``moderator`` members hold each guild's Moderator role."""

    id: int
    name: str
    bot: bool = False
    moderator: bool = False
    member_permissions: int = EVERYONE_PERMISSIONS
    locale: str = "en-US"  # the client language, sent as the interaction's ``locale`` (e.g. "es-ES", "es-419")
    dms_open: bool = True  # False: a bot's DM to this user is refused 403/50007, as Discord does

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member_payload(
        self, roles: list[int], *, with_user: bool = True, permissions: int | None = None
    ) -> dict[str, Any]:
        """The guild member object (``roles``: the member's role ids in that guild; ``permissions``: the member's
        permissions in the interaction's channel, sent only inside interactions)."""
        data: dict[str, Any] = {
            "roles": [str(r) for r in roles],
            "nick": None,
            "avatar": None,
            "joined_at": "2025-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.to_payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Guild:
    """A guild: three roles (``@everyone`` whose id is the guild id, Moderator, and the bot's managed role) and
    whether the bot is still a member (``bot_member`` False once removed: ``GUILD_DELETE`` was sent).

    The guild's shard for ``count`` shards is ``(id >> 22) % count`` (Discord's sharding formula).
    """

    id: int
    name: str
    mod_role_id: int
    bot_role_id: int
    owner_id: int
    everyone_permissions: int = EVERYONE_PERMISSIONS
    mod_permissions: int = MODERATOR_PERMISSIONS
    bot_permissions: int = BOT_PERMISSIONS
    bot_member: bool = True
    user_install: bool = False  # the bot not in it, its members use the app installed to their accounts (private.py)
    locale: str = "en-US"  # preferred_locale, sent as the interaction's ``guild_locale``
    upload_limit: int = 10 * 1024 * 1024  # bytes a file (``set_upload_limit``), = attachment_size_limit
    departed: set[int] = field(default_factory=set)  # user ids that left (``remove_member``): member fetch is 10007

    def shard(self, count: int) -> int:
        """The shard id owning this guild when the bot runs ``count`` shards."""
        return (self.id >> 22) % count

    def member_roles(self, user: User) -> list[int]:
        """The role ids ``user`` holds here (``@everyone`` implied, not listed)."""
        if user.bot:
            return [self.bot_role_id]
        return [self.mod_role_id] if user.moderator else []

    def role_permissions(self, role_id: int) -> int:
        """The permissions of one of this guild's roles (0 for an unknown id)."""
        return {
            self.id: self.everyone_permissions,
            self.mod_role_id: self.mod_permissions,
            self.bot_role_id: self.bot_permissions,
        }.get(role_id, 0)

    def roles_payload(self, bot_name: str) -> list[dict[str, Any]]:
        """The role objects as GUILD_CREATE and ``GET /guilds/{id}/roles`` send them (permissions as strings)."""

        def role(rid: int, name: str, perms: int, pos: int, managed: bool = False) -> dict[str, Any]:
            return {
                "id": str(rid),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": pos,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
            }

        return [
            role(self.id, "@everyone", self.everyone_permissions, 0),
            role(self.mod_role_id, "Moderator", self.mod_permissions, 1),
            role(self.bot_role_id, bot_name, self.bot_permissions, 2, managed=True),
        ]


@dataclass
class Channel:
    """A guild text channel (type 0), public thread (type 11), DM channel (type 1) or group DM (type 3).

    ``members``: the users of a DM or group DM **between users** (``DevServer.add_private_channel``), where the
    bot is no member (``bot_member`` False): a user-installed app reaches it only through interactions."""

    id: int
    name: str
    guild_id: int | None
    type: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    recipient: User | None = None
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # target id -> (type, allow, deny)
    archived: bool = False  # a thread's state (``set_thread_state``)
    locked: bool = False
    members: tuple[User, ...] = ()
    bot_member: bool = True

    @property
    def private(self) -> bool:
        """A DM or group DM between users, the bot not in it (its channel endpoints answer 403/50001)."""
        return not self.bot_member and self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def to_payload(self) -> dict[str, Any]:
        if self.members:
            data = {"id": str(self.id), "type": self.type, "last_message_id": None, "flags": 0}
            data["recipients"] = [u.to_payload() for u in self.members]
            if self.type == 3:
                data.update({"name": self.name, "owner_id": str(self.members[0].id), "icon": None})
            return data
        if self.type == 1:
            assert self.recipient is not None
            return {"id": str(self.id), "type": 1, "recipients": [self.recipient.to_payload()], "last_message_id": None}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if not self.is_thread:
            data["permission_overwrites"] = [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in self.overwrites.items()
            ]
        else:
            data.update(
                {
                    "owner_id": str(self.owner_id),
                    "message_count": 0,
                    "member_count": 1,
                    "total_message_sent": 0,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": 1440,
                        "locked": self.locked,
                        "archive_timestamp": iso_now(),
                    },
                }
            )
        return data


@dataclass
class Attachment:
    """A stored upload: the bytes the bot sent and their metadata."""

    id: int
    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


@dataclass
class Message:
    """A message in a channel. ``visible_to`` is the only user who sees it (ephemeral), else None."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_type: int | None = None
    visible_to: int | None = None
    deleted: bool = False
    deleted_by: int | None = None  # who deleted it (the bot's id, or a moderator's)
    edits: int = 0
    allowed_mentions: dict[str, Any] | None = None  # as last sent (None: the field was absent)
    pinged_users: list[int] = field(default_factory=list)  # whom the message notified (Discord's rules, see messaging)
    pinged_roles: list[int] = field(default_factory=list)
    pinged_everyone: bool = False  # @everyone or @here notified

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred response still shows "thinking"."""
        return bool(self.flags & LOADING)

    @property
    def images(self) -> list[bytes]:
        """The bytes of every attachment, in order."""
        return [a.data for a in self.attachments]

    def visible_for(self, user_id: int | None) -> bool:
        """Whether ``user_id`` (None = the bot reading the channel) can see this message."""
        if self.deleted:
            return False
        if self.visible_to is None:
            return True
        if user_id is None:  # the bot sees its DMs, never an ephemeral message
            return not self.ephemeral
        return self.visible_to == user_id

    def buttons(self) -> list[dict[str, Any]]:
        """Every component (buttons and selects) of the message, flattened in row order."""
        out: list[dict[str, Any]] = []
        for row in self.components:
            out.extend(row.get("components", []) if row.get("type") == 1 else [row])
        return out

    def to_payload(self, base_url: str) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author.to_payload(),
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.to_payload(base_url, self.channel_id) for a in self.attachments],
            "flags": self.flags,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
        }
        if self.guild_id:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id and self.interaction_user:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.to_payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)} if self.guild_id else {},
            }
        return data
