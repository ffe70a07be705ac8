"""Channel message routes: post, list, fetch, edit, delete, reactions.

Each call is subject to the bot's guild membership and channel permissions (``access.py``: 403 codes 50001 /
50013) and to the message limits (``messaging.py``). Ephemeral flags are ignored outside interactions, as on
Discord.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aiohttp import web

from devserver.access import (
    content_allowed,
    post_permission,
    require,
    thread_open_for_edit,
    thread_open_for_post,
    visible_channel,
)
from devserver.messaging import announce, bot_message, check_message, create_message, edit_message
from devserver.models import EPHEMERAL
from devserver.permissions import ADD_REACTIONS, READ_MESSAGE_HISTORY
from devserver.rest import ApiError, Route, json_response, no_content, read_body

if TYPE_CHECKING:
    from devserver.server import DevServer

NONCE_WINDOW_S = 300.0
"""How long Discord enforces a message nonce ("the past few minutes")."""


async def post_message(s: DevServer, request: web.Request, channel_id: str) -> web.Response:
    """``POST /channels/{id}/messages``: needs View Channel, Send Messages (in Threads), Attach Files for files."""
    channel = visible_channel(s, channel_id)
    payload, files = await read_body(request)
    if channel.type == 1 and channel.recipient is not None and not channel.recipient.dms_open:
        raise ApiError(403, 50007, "Cannot send messages to this user")
    require(s, channel, post_permission(channel))
    content_allowed(s, channel, payload, files, edit=False)
    check_message(s, payload, files, f"POST {request.path}", channel_id=channel.id)
    await thread_open_for_post(s, channel)
    if int(payload.get("flags") or 0) & EPHEMERAL:
        payload["flags"] = int(payload["flags"]) & ~EPHEMERAL  # Discord ignores ephemeral outside interactions
    nonce = payload.get("nonce")
    if nonce is not None and payload.get("enforce_nonce"):  # Discord: the same author's message with this nonce
        earlier = s.nonces.get((channel.id, str(nonce)))  # in the past few minutes is returned, none created
        if earlier is not None and time.monotonic() - earlier[1] < NONCE_WINDOW_S and not earlier[0].deleted:
            s.nonce_hits += 1
            return json_response(earlier[0].to_payload(s.base_url))
    msg = create_message(s, channel.id, payload, files, visible_to=channel.recipient.id if channel.recipient else None)
    if nonce is not None and payload.get("enforce_nonce"):
        s.nonces[(channel.id, str(nonce))] = (msg, time.monotonic())
    await announce(s, "MESSAGE_CREATE", msg)
    return json_response(msg.to_payload(s.base_url))


async def get_message(s: DevServer, request: web.Request, channel_id: str, message_id: str) -> web.Response:
    """``GET /channels/{id}/messages/{id}``: needs View Channel and Read Message History."""
    channel = visible_channel(s, channel_id)
    require(s, channel, READ_MESSAGE_HISTORY)
    return json_response(bot_message(s, channel_id, message_id).to_payload(s.base_url))


async def list_messages(s: DevServer, request: web.Request, channel_id: str) -> web.Response:
    """``GET /channels/{id}/messages`` (newest first; ``before``/``after``/``limit``): empty without Read
    Message History, as Discord documents."""
    channel = visible_channel(s, channel_id)
    if channel.guild_id is not None and not s.bot_permissions(channel) & READ_MESSAGE_HISTORY:
        return json_response([])
    limit = min(100, int(request.query.get("limit", "50")))
    msgs = s.messages(channel, visible_to=None)
    if "before" in request.query:
        msgs = [m for m in msgs if m.id < int(request.query["before"])]
    if "after" in request.query:
        msgs = [m for m in msgs if m.id > int(request.query["after"])]
    return json_response([m.to_payload(s.base_url) for m in reversed(msgs)][:limit])


async def patch_message(s: DevServer, request: web.Request, channel_id: str, message_id: str) -> web.Response:
    """``PATCH /channels/{id}/messages/{id}``: the bot's own message; View Channel, Attach Files for new files."""
    channel = visible_channel(s, channel_id)
    msg = bot_message(s, channel_id, message_id)
    if msg.author is not s.bot_user:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    thread_open_for_edit(channel)
    payload, files = await read_body(request)
    content_allowed(s, channel, payload, files, edit=True)
    check_message(s, payload, files, f"PATCH {request.path}", edit=True, channel_id=channel.id)
    edit_message(s, msg, payload, files)
    await announce(s, "MESSAGE_UPDATE", msg)
    return json_response(msg.to_payload(s.base_url))


async def delete_message(s: DevServer, request: web.Request, channel_id: str, message_id: str) -> web.Response:
    """``DELETE /channels/{id}/messages/{id}``: the bot deletes a message (its own; View Channel)."""
    thread_open_for_edit(visible_channel(s, channel_id))
    msg = bot_message(s, channel_id, message_id)
    msg.deleted, msg.deleted_by = True, s.bot_user.id
    s.notify()
    data = {"id": str(msg.id), "channel_id": channel_id}
    if msg.guild_id:
        data["guild_id"] = str(msg.guild_id)
    await s.dispatch("MESSAGE_DELETE", data, guild_id=msg.guild_id, intent=s.message_intent(msg))
    return no_content()


async def reaction(s: DevServer, request: web.Request, channel_id: str, message_id: str, emoji: str) -> web.Response:
    """``PUT|DELETE /channels/{id}/messages/{id}/reactions/{emoji}/@me``: Add Reactions to add one."""
    channel = visible_channel(s, channel_id)
    if request.method == "PUT":
        require(s, channel, ADD_REACTIONS)
    bot_message(s, channel_id, message_id)
    return no_content()


ROUTES: list[Route] = [
    ("POST", "/channels/{channel_id}/messages", post_message),
    ("GET", "/channels/{channel_id}/messages", list_messages),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", patch_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", reaction),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", reaction),
]
