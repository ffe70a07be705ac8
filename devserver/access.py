"""What the bot may reach: guild membership and channel permissions, answered as Discord answers REST calls.

Modelled on Discord (Permissions documentation; the "Create Message", "Get Channel Message(s)", "Start Thread"
pages; observed answers reported by bot developers):

- a guild the bot is not in (removed, ``DevServer.remove_bot``) or a channel it cannot see (no
  ``VIEW_CHANNEL``): 403 code 50001 "Missing Access";
- a missing permission for the action: 403 code 50013 "Missing Permissions" — posting needs ``SEND_MESSAGES``
  (``SEND_MESSAGES_IN_THREADS`` in a thread), files need ``ATTACH_FILES``, starting a thread
  ``CREATE_PUBLIC_THREADS`` (``CREATE_PRIVATE_THREADS`` for a private one), fetching one message
  ``READ_MESSAGE_HISTORY`` (the message list is then empty instead), reactions ``ADD_REACTIONS``;
- embeds without ``EMBED_LINKS`` are dropped silently; a message left with nothing else is refused (50013);
- editing or deleting the bot's own message needs only ``VIEW_CHANNEL``;
- threads (``DevServer.set_thread_state``): a post in a locked thread is refused 400 code 160005 "Thread is
  locked" (without Manage Threads); a post in an archived, unlocked thread unarchives it (THREAD_UPDATE), as
  Discord documents; editing or deleting a message of an archived thread is refused 400 code 50083; unarchiving
  or locking needs Manage Threads when the thread is locked.

Interaction callbacks and interaction webhooks (followups, ``@original``) are not subject to any of this, as
on Discord: they answer the user, not the channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devserver.models import Channel, Guild
from devserver.permissions import (
    ATTACH_FILES,
    EMBED_LINKS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    names,
)
from devserver.rest import ApiError, UploadedFile

if TYPE_CHECKING:
    from devserver.server import DevServer


ARCHIVED_THREAD = 50083
LOCKED_THREAD = 160005


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


def missing_permissions() -> ApiError:
    return ApiError(403, 50013, "Missing Permissions")


def channel_or_404(s: DevServer, channel_id: str) -> Channel:
    """The channel ``channel_id`` whatever the bot may do there; 404 code 10003 if there is none."""
    try:
        return s.channels[int(channel_id)]
    except (KeyError, ValueError) as exc:
        raise ApiError(404, 10003, "Unknown Channel") from exc


def guild_for_bot(s: DevServer, guild_id: str) -> Guild:
    """A guild the bot is in: 404 code 10004 for an unknown id, 403 code 50001 once the bot was removed."""
    guild = s.guilds.get(int(guild_id)) if guild_id.isdigit() else None
    if guild is None:
        raise ApiError(404, 10004, "Unknown Guild")
    if not guild.bot_member:
        raise missing_access()
    return guild


def visible_channel(s: DevServer, channel_id: str) -> Channel:
    """A channel the bot can see: 404/10003 unknown; 403/50001 in a guild it left or without ``VIEW_CHANNEL``, and
    in a DM or group DM between users (the bot is no member: a user-installed app answers there only through
    interactions, as on Discord)."""
    ch = channel_or_404(s, channel_id)
    if ch.private:
        raise missing_access()
    guild = s.guild_of(ch)
    if guild is not None and (not guild.bot_member or not s.bot_permissions(ch) & VIEW_CHANNEL):
        raise missing_access()
    return ch


def require(s: DevServer, channel: Channel, flag: int) -> None:
    """403 code 50013 unless the bot has ``flag`` in ``channel``."""
    if channel.guild_id is not None and not s.bot_permissions(channel) & flag:
        raise ApiError(403, 50013, "Missing Permissions", note=f"missing {', '.join(names(flag))}")


def post_permission(channel: Channel) -> int:
    """The permission to post in ``channel``: ``SEND_MESSAGES_IN_THREADS`` in a thread, else ``SEND_MESSAGES``."""
    return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES


def content_allowed(
    s: DevServer, channel: Channel, payload: dict[str, Any], files: list[UploadedFile], *, edit: bool
) -> None:
    """Apply ``ATTACH_FILES`` (403/50013 for files) and ``EMBED_LINKS`` (embeds dropped from ``payload``; a new
    message left empty is refused 403/50013) for a message the bot creates (or edits) in ``channel``."""
    if channel.guild_id is None:
        return
    perms = s.bot_permissions(channel)
    if files and not perms & ATTACH_FILES:
        raise ApiError(403, 50013, "Missing Permissions", note="missing attach_files")
    if payload.get("embeds") and not perms & EMBED_LINKS:
        payload["embeds"] = []
        if not edit and not (payload.get("content") or payload.get("components") or files or payload.get("poll")):
            raise ApiError(403, 50013, "Missing Permissions", note="missing embed_links")


async def thread_open_for_post(s: DevServer, channel: Channel) -> None:
    """Before a post in ``channel``: 400/160005 in a locked thread (without Manage Threads); an archived thread is
    unarchived (THREAD_UPDATE)."""
    if not channel.is_thread:
        return
    if channel.locked and not s.bot_permissions(channel) & MANAGE_THREADS:
        raise ApiError(400, LOCKED_THREAD, "Thread is locked")
    if channel.archived:
        channel.archived = False
        await s.dispatch("THREAD_UPDATE", channel.to_payload(), guild_id=channel.guild_id)


def thread_open_for_edit(channel: Channel) -> None:
    """Before an edit or delete of a message in ``channel``: 400/50083 in an archived thread."""
    if channel.is_thread and channel.archived:
        raise ApiError(400, ARCHIVED_THREAD, "Operation cannot be performed on an archived thread")
