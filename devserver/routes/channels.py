"""Channel and thread routes: fetch, edit, delete (threads), start a thread (from a message or bare), thread
members, and opening a DM channel. Subject to guild membership and permissions (``access.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from devserver.access import LOCKED_THREAD, require, visible_channel
from devserver.limits import Problem
from devserver.models import Channel, snowflake
from devserver.permissions import CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS, MANAGE_THREADS
from devserver.rest import ApiError, Route, invalid_form, json_response, no_content, read_body

if TYPE_CHECKING:
    from devserver.server import DevServer


async def get_channel(s: DevServer, request: web.Request, channel_id: str) -> web.Response:
    return json_response(visible_channel(s, channel_id).to_payload())


async def patch_channel(s: DevServer, request: web.Request, channel_id: str) -> web.Response:
    """Rename a channel, or archive/lock a thread (THREAD_UPDATE / CHANNEL_UPDATE)."""
    ch = visible_channel(s, channel_id)
    body, _ = await read_body(request)
    if "name" in body:
        ch.name = body["name"]
    if ch.is_thread:
        if (ch.locked or "locked" in body) and not s.bot_permissions(ch) & MANAGE_THREADS:
            raise ApiError(
                400, LOCKED_THREAD, "Thread is locked", note="unarchiving a locked thread needs Manage Threads"
            )
        ch.archived = bool(body.get("archived", ch.archived))
        ch.locked = bool(body.get("locked", ch.locked))
    data = ch.to_payload()
    if ch.is_thread:
        if "auto_archive_duration" in body:
            data["thread_metadata"]["auto_archive_duration"] = body["auto_archive_duration"]
        await s.dispatch("THREAD_UPDATE", data, guild_id=ch.guild_id)
    else:
        await s.dispatch("CHANNEL_UPDATE", data, guild_id=ch.guild_id)
    return json_response(data)


async def delete_channel(s: DevServer, request: web.Request, channel_id: str) -> web.Response:
    """Delete a thread (the bot's own, or with Manage Threads); text channels are not the bot's to delete."""
    ch = visible_channel(s, channel_id)
    if not ch.is_thread:
        raise ApiError(403, 50013, "Missing Permissions", note="the devserver's bot never deletes text channels")
    if ch.owner_id != s.bot_user.id:
        require(s, ch, MANAGE_THREADS)
    del s.channels[ch.id]
    data = ch.to_payload()
    await s.dispatch(
        "THREAD_DELETE",
        {"id": data["id"], "guild_id": data["guild_id"], "parent_id": data["parent_id"], "type": ch.type},
        guild_id=ch.guild_id,
    )
    return json_response(data)


def thread_name(s: DevServer, body: dict[str, object], route: str) -> str:
    """The new thread's name; 400 code 50035 unless 1-100 characters."""
    name = str(body.get("name") or "")
    if not 1 <= len(name) <= 100:
        problem = Problem(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        s.violate("invalid_form", f"thread name of {len(name)} characters (1-100)", route, 400, 50035)
        raise invalid_form([problem])
    return name


async def create_thread(
    s: DevServer, request: web.Request, channel_id: str, message_id: str | None = None
) -> web.Response:
    """Start a thread from a message (public, id = the message's) or a bare one (``type`` 11 public / 12
    private): Create Public (Private) Threads needed."""
    parent = visible_channel(s, channel_id)
    if parent.type != 0:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    body, _ = await read_body(request)
    ttype = 11 if message_id is not None else int(body.get("type") or 12)
    require(s, parent, CREATE_PRIVATE_THREADS if ttype == 12 else CREATE_PUBLIC_THREADS)
    name = thread_name(s, body, f"POST {request.path}")
    tid = snowflake()
    if message_id is not None:
        try:
            msg = s.message(int(message_id))
        except (KeyError, ValueError) as exc:
            raise ApiError(404, 10008, "Unknown Message") from exc
        if msg.channel_id != parent.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        tid = msg.id
    if tid in s.channels:
        raise ApiError(400, 160004, "A thread has already been created for this message")
    thread = Channel(
        id=tid, name=name, guild_id=parent.guild_id, type=ttype, parent_id=parent.id, owner_id=s.bot_user.id
    )
    s.channels[tid] = thread
    data = thread.to_payload()
    await s.dispatch("THREAD_CREATE", {**data, "newly_created": True}, guild_id=parent.guild_id)
    s.notify()
    return json_response(data, 201)


async def thread_member(s: DevServer, request: web.Request, channel_id: str, user_id: str) -> web.Response:
    visible_channel(s, channel_id)
    return no_content()


async def dm_channel(s: DevServer, request: web.Request) -> web.Response:
    """``POST /users/@me/channels``: the DM channel with ``recipient_id`` (created once)."""
    body, _ = await read_body(request)
    try:
        user = s.user(int(body.get("recipient_id", 0)))
    except (KeyError, ValueError) as exc:
        raise ApiError(400, 50033, "Invalid Recipient(s)") from exc
    for ch in s.channels.values():
        if ch.type == 1 and ch.recipient is user:
            return json_response(ch.to_payload())
    ch = Channel(id=snowflake(), name=f"dm-{user.name}", guild_id=None, type=1, recipient=user)
    s.channels[ch.id] = ch
    return json_response(ch.to_payload())


ROUTES: list[Route] = [
    ("POST", "/users/@me/channels", dm_channel),
    ("GET", "/channels/{channel_id}", get_channel),
    ("PATCH", "/channels/{channel_id}", patch_channel),
    ("DELETE", "/channels/{channel_id}", delete_channel),
    ("POST", "/channels/{channel_id}/threads", create_thread),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", create_thread),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
]
