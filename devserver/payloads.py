"""Builders of the gateway payloads (READY, GUILD_CREATE, GUILD_MEMBERS_CHUNK, INTERACTION_CREATE), in Discord's
v10 shapes (ids and permission bit sets as decimal strings)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devserver.models import Channel, Guild, Interaction, Message
from devserver.private import foreign_guild_fields, private_fields

if TYPE_CHECKING:
    from devserver.gateway import Session
    from devserver.server import DevServer

INTENT_GUILD_MEMBERS = 1 << 1


def ready_payload(s: DevServer, session: Session, shard: list[int] | None) -> dict[str, Any]:
    """READY: the guilds the session's shard owns (and the bot is in) as unavailable, then sent by GUILD_CREATE."""
    guilds = [{"id": str(g.id), "unavailable": True} for g in owned_guilds(s, session)]
    data: dict[str, Any] = {
        "v": 10,
        "user": {**s.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
        "guilds": guilds,
        "session_id": session.session_id,
        "resume_gateway_url": s.gateway_url,
        "application": {"id": str(s.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "user_settings": {},
        "session_type": "normal",
        "geo_ordered_rtc_regions": [],
    }
    if shard is not None:
        data["shard"] = shard
    return data


def owned_guilds(s: DevServer, session: Session) -> list[Guild]:
    """The guilds a session receives: the bot is a member and ``(guild_id >> 22) % count == shard_id``."""
    shard_id, count = session.shard
    return [g for g in s.guilds.values() if g.bot_member and g.shard(count) == shard_id]


def guild_payload(s: DevServer, guild: Guild, *, full: bool = True, intents: int = 0) -> dict[str, Any]:
    """The guild as GUILD_CREATE (``full``) or ``GET /guilds/{id}`` sends it. As on Discord, GUILD_CREATE lists
    every member only with the GUILD_MEMBERS intent (``1 << 1``); otherwise just the bot's own member."""
    data: dict[str, Any] = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "roles": guild.roles_payload(s.bot_user.name),
        "emojis": [],
        "stickers": [],
        "features": [],
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.locale,
        "max_members": 500000,
        "application_id": None,
        "incidents_data": None,
        "premium_progress_bar_enabled": False,
    }
    if full:
        everyone = (*s.users.values(), s.bot_user)
        listed = everyone if intents & INTENT_GUILD_MEMBERS else (s.bot_user,)
        channels = [c for c in s.channels.values() if c.guild_id == guild.id]
        data.update(
            {
                "unavailable": False,
                "large": False,
                "member_count": len(everyone),
                "members": [u.member_payload(guild.member_roles(u)) for u in listed],
                "joined_at": "2025-01-01T00:00:00+00:00",
                "channels": [c.to_payload() for c in channels if c.type == 0],
                "threads": [c.to_payload() for c in channels if c.is_thread],
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
    return data


def members_chunk(s: DevServer, guild: Guild, d: dict[str, Any]) -> dict[str, Any]:
    """GUILD_MEMBERS_CHUNK answering REQUEST_GUILD_MEMBERS (op 8) ``d`` (``query``, ``user_ids``, ``limit``)."""
    query = (d.get("query") or "").lower()
    ids = {int(x) for x in (d.get("user_ids") or [])} if d.get("user_ids") else None
    if isinstance(d.get("user_ids"), (str, int)):
        ids = {int(d["user_ids"])}
    members = [
        u.member_payload(guild.member_roles(u))
        for u in (*s.users.values(), s.bot_user)
        if (ids is None or u.id in ids) and u.name.lower().startswith(query)
    ]
    limit = int(d.get("limit") or 0)
    if limit:
        members = members[:limit]
    data: dict[str, Any] = {"guild_id": str(guild.id), "members": members, "chunk_index": 0, "chunk_count": 1}
    if d.get("nonce") is not None:
        data["nonce"] = d["nonce"]
    if d.get("presences"):
        data["presences"] = []
    return data


def interaction_payload(s: DevServer, it: Interaction, channel: Channel, message: Message | None) -> dict[str, Any]:
    """INTERACTION_CREATE for ``it`` in ``channel``: ``app_permissions`` is the bot's permission bit set in that
    channel (overwrites included), ``member.permissions`` the user's, both decimal strings as Discord sends them."""
    guild = s.guild_of(channel)
    payload: dict[str, Any] = {
        "id": str(it.id),
        "application_id": str(s.application_id),
        "type": it.type,
        "data": it.data,
        "channel_id": str(channel.id),
        "channel": channel.to_payload(),
        "token": it.token,
        "version": 1,
        "locale": it.user.locale,
        "app_permissions": str(s.bot_permissions(channel)),
        "entitlements": [],
        "attachment_size_limit": guild.upload_limit if guild is not None else 10 * 1024 * 1024,
    }
    if guild is not None:
        payload.update(
            {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "member": it.user.member_payload(guild.member_roles(it.user), permissions=it.user.member_permissions),
                "guild_locale": guild.locale,
                "authorizing_integration_owners": {"0": str(guild.id)},
                "context": 0,
            }
        )
        if not guild.bot_member and guild.user_install:  # a guild that did not add the bot (devserver/private.py)
            payload.update(foreign_guild_fields(s, it, guild))
    elif channel.private:  # a DM or group DM between users: the user install alone (devserver/private.py)
        payload.update(private_fields(s, it, channel))
    else:
        payload.update(
            {"user": it.user.to_payload(), "context": 1, "authorizing_integration_owners": {"0": str(s.guild_id)}}
        )
    if message is not None:
        payload["message"] = message.to_payload(s.base_url)
    return payload
