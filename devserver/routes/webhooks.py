"""Interaction webhooks: followups (``POST /webhooks/{app}/{token}``) and the ``@original`` / followup messages
(``GET|PATCH|DELETE /webhooks/{app}/{token}/messages/{id}``).

Enforced as Discord does: 15-minute tokens (-> 401 code 50027), a followup only after an initial response
(-> 404 code 10015 "Unknown Webhook"), only the interaction's own messages (-> 404 code 10008), message limits.
Not subject to channel permissions. A message a moderator deleted answers 10008 without counting as the bot's
violation (it could not know).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from devserver.messaging import announce, check_message, create_message, edit_message
from devserver.models import TOKEN_LIFETIME_S, Interaction, Message
from devserver.private import check_followup
from devserver.rest import ApiError, Route, json_response, no_content, read_body

if TYPE_CHECKING:
    from devserver.server import DevServer


def interaction_for_token(s: DevServer, app_id: str, token: str, route: str) -> Interaction:
    """The interaction behind a webhook token; 404/10015 if unknown, 401/50027 once the 15-minute token expired."""
    it = s.interaction_by_token(token)
    if it is None or app_id != str(s.application_id):
        s.violate("unknown_webhook", "webhook token unknown", route, 404, 10015)
        raise ApiError(404, 10015, "Unknown Webhook")
    if s.clock.now() - it.created_at > TOKEN_LIFETIME_S:
        s.violate(
            "expired_token",
            f"interaction token used {s.clock.now() - it.created_at:.0f} s after the interaction (limit 15 min)",
            route,
            401,
            50027,
            interaction=it,
        )
        raise ApiError(401, 50027, "Invalid Webhook Token")
    return it


def original_of(s: DevServer, it: Interaction) -> Message:
    """The interaction's original response (the clicked message for an update response)."""
    mid = it.original_message_id or (it.message_id if it.response_type in (6, 7) else None)
    if mid is None:
        raise ApiError(404, 10008, "Unknown Message")
    return s.message(mid)


def webhook_message(s: DevServer, it: Interaction, message_id: str, route: str) -> Message:
    """``@original`` or one of the interaction's followups; 404 code 10008 otherwise."""
    try:
        msg = original_of(s, it) if message_id == "@original" else s.message(int(message_id))
    except (KeyError, ValueError, ApiError) as exc:
        s.violate("unknown_message", f"no message {message_id} for this interaction", route, 404, 10008, interaction=it)
        raise ApiError(404, 10008, "Unknown Message") from exc
    if msg.deleted and msg.deleted_by not in (None, s.bot_user.id):
        raise ApiError(404, 10008, "Unknown Message", note="deleted by a moderator")
    allowed = {it.original_message_id, it.message_id, *it.followup_ids}
    if msg.id not in allowed or msg.deleted:
        s.violate(
            "unknown_message", f"message {message_id} is not this interaction's", route, 404, 10008, interaction=it
        )
        raise ApiError(404, 10008, "Unknown Message")
    return msg


async def followup(s: DevServer, request: web.Request, app_id: str, token: str) -> web.Response:
    """``POST /webhooks/{app}/{token}``: a followup (the first one after a deferral fills the original)."""
    route = f"POST /webhooks/{app_id}/<token>"
    it = interaction_for_token(s, app_id, token, route)
    if it.response_type is None:
        s.violate(
            "followup_before_response", "followup sent before any initial response", route, 404, 10015, interaction=it
        )
        raise ApiError(404, 10015, "Unknown Webhook")
    payload, files = await read_body(request)
    check_message(s, payload, files, route, it=it)
    original = s.message(it.original_message_id) if it.original_message_id else None
    if original is not None and original.loading and not original.deleted and it.response_type == 5:
        # Discord turns the first followup after a deferral into the original response (unless it was deleted).
        msg = edit_message(s, original, {**payload, "attachments": payload.get("attachments") or []}, files)
        it.original_edits += 1
    else:
        check_followup(s, it, route)  # 5 per interaction of a user install alone (devserver/private.py)
        msg = create_message(s, it.channel_id, payload, files, it=it)
        it.followup_ids.append(msg.id)
    it.last_activity = s.clock.now()
    await announce(s, "MESSAGE_CREATE", msg)
    if request.query.get("wait") in ("1", "true", "True"):
        return json_response(msg.to_payload(s.base_url))
    return no_content()


async def webhook_get(s: DevServer, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
    route = f"GET /webhooks/{app_id}/<token>/messages/{message_id}"
    it = interaction_for_token(s, app_id, token, route)
    return json_response(webhook_message(s, it, message_id, route).to_payload(s.base_url))


async def webhook_patch(s: DevServer, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
    """Edit ``@original`` or a followup through the interaction token."""
    route = f"PATCH /webhooks/{app_id}/<token>/messages/{message_id}"
    it = interaction_for_token(s, app_id, token, route)
    msg = webhook_message(s, it, message_id, route)
    payload, files = await read_body(request)
    check_message(s, payload, files, route, edit=True, it=it)
    edit_message(s, msg, payload, files)
    if msg.id in (it.original_message_id, it.message_id):
        it.original_edits += 1
    it.last_activity = s.clock.now()
    await announce(s, "MESSAGE_UPDATE", msg)
    return json_response(msg.to_payload(s.base_url))


async def webhook_delete(s: DevServer, request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
    route = f"DELETE /webhooks/{app_id}/<token>/messages/{message_id}"
    it = interaction_for_token(s, app_id, token, route)
    msg = webhook_message(s, it, message_id, route)
    msg.deleted, msg.deleted_by = True, s.bot_user.id
    it.last_activity = s.clock.now()
    s.notify()
    return no_content()


ROUTES: list[Route] = [
    ("POST", "/webhooks/{app_id}/{token}", followup),
    ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_get),
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_patch),
    ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_delete),
]
