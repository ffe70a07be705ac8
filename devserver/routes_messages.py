"""REST routes for messages: channel messages, interaction callbacks, followups and ``@original`` edits.

Enforced as Discord does: 3 s for the first response (late -> 404 code 10062), one initial response (second ->
400 code 40060), 15-minute webhook tokens (-> 401 code 50027), message limits of ``limits.validate_message``
(-> 400 code 50035, 413 code 40005 for uploads over 10 MiB, 400 code 50006 for an empty message). Each refusal
is recorded in ``server.violations``. An edit keeps only the attachments its ``attachments`` list names (no
list: keeps them all and appends the new files). Ephemeral messages (flags 64) are visible only to the invoking
user and can only be edited through the interaction token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.limits import validate_message
from devserver.models import (
    EPHEMERAL,
    INTERACTION_DEADLINE_S,
    LOADING,
    Attachment,
    Interaction,
    Message,
    iso_now,
    snowflake,
)
from devserver.rest import ApiError, UploadedFile, invalid_form, json_response, no_content

if TYPE_CHECKING:
    from devserver.rest import RestApi

ALLOWED_RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def _new_attachments(payload: dict[str, Any], files: list[UploadedFile], listed_only: bool) -> list[Attachment]:
    meta = {str(a.get("id")): a for a in payload.get("attachments") or [] if isinstance(a, dict)}
    out = []
    for index, filename, data, ctype in sorted(files):
        info = meta.get(str(index))
        if listed_only and info is None:
            continue
        info = info or {}
        out.append(Attachment(id=snowflake(), filename=info.get("filename") or filename, data=data,
                              content_type=ctype, description=info.get("description")))
    return out


def register(api: RestApi) -> None:
    """Add the message, interaction-callback and webhook routes to ``api``."""
    s = api.server

    def check(payload: dict[str, Any], files: list[UploadedFile], route: str, *, edit: bool = False,
              it: Interaction | None = None) -> None:
        problems = validate_message(payload, [(f[1], f[2]) for f in files], edit=edit)
        if problems:
            err = invalid_form(problems)
            kind = {50035: "invalid_form", 40005: "file_too_large", 50006: "empty_message"}[err.code]
            s.violate(kind, "; ".join(p.message for p in problems), route, err.status, err.code,
                      [p.__dict__ for p in problems], interaction=it)
            raise err

    def create(channel_id: int, payload: dict[str, Any], files: list[UploadedFile], *,
               it: Interaction | None = None, visible_to: int | None = None, mtype: int = 0) -> Message:
        flags = int(payload.get("flags") or 0)
        msg = Message(id=snowflake(), channel_id=channel_id, guild_id=s.channels[channel_id].guild_id,
                      author=s.bot_user, content=str(payload.get("content") or ""),
                      embeds=list(payload.get("embeds") or []), components=list(payload.get("components") or []),
                      attachments=_new_attachments(payload, files, listed_only=False), flags=flags, type=mtype)
        if it is not None:
            msg.webhook_id = s.application_id
            msg.interaction_id, msg.interaction_user, msg.interaction_type = it.id, it.user, it.type
            if flags & EPHEMERAL:
                msg.visible_to = it.user.id
        elif visible_to is not None:
            msg.visible_to = visible_to
        return s.add_message(msg)

    def edit(msg: Message, payload: dict[str, Any], files: list[UploadedFile]) -> Message:
        for key in ("content", "embeds", "components"):
            if key in payload:
                value = payload[key]
                setattr(msg, key, (value or "") if key == "content" else list(value or []))
        if "attachments" in payload:
            keep = {str(a.get("id")) for a in payload["attachments"] or [] if isinstance(a, dict)}
            msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
            msg.attachments += _new_attachments(payload, files, listed_only=True)
        else:
            msg.attachments += _new_attachments(payload, files, listed_only=False)
        if "flags" in payload and payload["flags"] is not None:
            msg.flags = (msg.flags & EPHEMERAL) | (int(payload["flags"]) & ~EPHEMERAL)
        msg.flags &= ~LOADING
        msg.edited_timestamp = iso_now()
        msg.edits += 1
        s.notify()
        return msg

    async def announce(event: str, msg: Message) -> None:
        if s.wants_messages() and msg.visible_to is None and msg.guild_id is not None:
            await s.dispatch(event, msg.to_payload(s.base_url))

    def bot_message(channel_id: str, message_id: str) -> Message:
        try:
            msg = s.message(int(message_id))
        except (KeyError, ValueError) as exc:
            raise ApiError(404, 10008, "Unknown Message") from exc
        if str(msg.channel_id) != channel_id or not msg.visible_for(None):
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    # -------------------------------------------------------------- channel messages
    async def post_message(request: web.Request, channel_id: str) -> web.Response:
        if not channel_id.isdigit() or int(channel_id) not in s.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        payload, files = await api.read_body(request)
        check(payload, files, f"POST {request.path}")
        if int(payload.get("flags") or 0) & EPHEMERAL:
            payload["flags"] = int(payload["flags"]) & ~EPHEMERAL  # Discord ignores ephemeral outside interactions
        channel = s.channels[int(channel_id)]
        msg = create(int(channel_id), payload, files, visible_to=channel.recipient.id if channel.recipient else None)
        await announce("MESSAGE_CREATE", msg)
        return json_response(msg.to_payload(s.base_url))

    async def get_message(request: web.Request, channel_id: str, message_id: str) -> web.Response:
        return json_response(bot_message(channel_id, message_id).to_payload(s.base_url))

    async def list_messages(request: web.Request, channel_id: str) -> web.Response:
        if not channel_id.isdigit() or int(channel_id) not in s.channels:
            raise ApiError(404, 10003, "Unknown Channel")
        limit = min(100, int(request.query.get("limit", "50")))
        msgs = [m for m in s.messages(int(channel_id), visible_to=None)]
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
        return json_response([m.to_payload(s.base_url) for m in reversed(msgs)][:limit])

    async def patch_message(request: web.Request, channel_id: str, message_id: str) -> web.Response:
        msg = bot_message(channel_id, message_id)
        if msg.author is not s.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await api.read_body(request)
        check(payload, files, f"PATCH {request.path}", edit=True)
        edit(msg, payload, files)
        await announce("MESSAGE_UPDATE", msg)
        return json_response(msg.to_payload(s.base_url))

    async def delete_message(request: web.Request, channel_id: str, message_id: str) -> web.Response:
        msg = bot_message(channel_id, message_id)
        msg.deleted = True
        s.notify()
        await s.dispatch("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": channel_id,
                                            "guild_id": str(s.guild_id)})
        return no_content()

    async def reaction(request: web.Request, channel_id: str, message_id: str, emoji: str) -> web.Response:
        bot_message(channel_id, message_id)
        return no_content()

    # -------------------------------------------------------------- interaction callback
    async def callback(request: web.Request, interaction_id: str, token: str) -> web.Response:
        route = f"POST /interactions/{interaction_id}/<token>/callback"
        it = s.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        if it is None or it.token != token:
            s.violate("unknown_interaction", "callback for an unknown interaction", route, 404, 10062)
            raise ApiError(404, 10062, "Unknown interaction")
        now = s.clock.now()
        if it.response_type is not None:
            s.violate("double_response", f"second initial response (type {it.response_type} was already sent)",
                      route, 400, 40060, interaction=it)
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if now - it.created_at > INTERACTION_DEADLINE_S:
            s.violate("late_response", f"first response {now - it.created_at:.2f} s after the interaction "
                      "(limit 3 s)", route, 404, 10062, interaction=it)
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await api.read_body(request)
        rtype = int(payload.get("type") or 0)
        data = payload.get("data") or {}
        if rtype not in ALLOWED_RESPONSES.get(it.type, set()):
            s.violate("invalid_form", f"callback type {rtype} is not valid for interaction type {it.type}",
                      route, 400, 50035, interaction=it)
            raise ApiError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "Interaction response type is invalid"}]}})
        resource: dict[str, Any] | None = None
        ephemeral = loading = False
        if rtype in (4, 7):
            check(data, files, route, edit=rtype == 7, it=it)
        if rtype == 4:
            msg = create(it.channel_id, data, files, it=it, mtype=20 if it.type == 2 else 19)
            it.original_message_id = msg.id
            await announce("MESSAGE_CREATE", msg)
        elif rtype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = create(it.channel_id, {"flags": flags}, [], it=it, mtype=20 if it.type == 2 else 19)
            it.original_message_id = msg.id
        elif rtype in (6, 7):
            msg = s.message(it.message_id) if it.message_id else None
            if rtype == 7 and msg is not None:
                edit(msg, data, files)
                await announce("MESSAGE_UPDATE", msg)
        elif rtype == 8:
            choices = data.get("choices") or []
            bad = len(choices) > 25 or any(not 1 <= len(str(c.get("name", ""))) <= 100 or
                                           (isinstance(c.get("value"), str) and len(c["value"]) > 100)
                                           for c in choices)
            if bad:
                s.violate("invalid_form", f"autocomplete result breaks a limit ({len(choices)} choices; <= 25, "
                          "names 1-100, values <= 100)", route, 400, 50035, interaction=it)
                raise ApiError(400, 50035, "Invalid Form Body", {"data": {"choices": {"_errors": [
                    {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}}})
            it.choices = list(choices)
            msg = None
        else:  # 9: modal
            it.modal = data
            msg = None
        it.response_type, it.responded_at, it.last_activity = rtype, now, now
        if msg is not None:
            ephemeral, loading = msg.ephemeral, msg.loading
            resource = {"type": rtype, "message": msg.to_payload(s.base_url)}
        s.notify()
        body: dict[str, Any] = {"interaction": {
            "id": str(it.id), "type": it.type, "response_message_loading": loading,
            "response_message_ephemeral": ephemeral}}
        if msg is not None:
            body["interaction"]["response_message_id"] = str(msg.id)
        if resource is not None and rtype in (4, 5, 7):
            body["resource"] = resource
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(body)
        return no_content()

    # -------------------------------------------------------------- webhooks (followups, @original)
    def original_of(it: Interaction) -> Message:
        mid = it.original_message_id or (it.message_id if it.response_type in (6, 7) else None)
        if mid is None:
            raise ApiError(404, 10008, "Unknown Message")
        return s.message(mid)

    def webhook_message(it: Interaction, message_id: str, route: str) -> Message:
        try:
            msg = original_of(it) if message_id == "@original" else s.message(int(message_id))
        except (KeyError, ValueError, ApiError) as exc:
            s.violate("unknown_message", f"no message {message_id} for this interaction", route, 404, 10008,
                      interaction=it)
            raise ApiError(404, 10008, "Unknown Message") from exc
        allowed = {it.original_message_id, it.message_id, *it.followup_ids}
        if msg.id not in allowed or msg.deleted:
            s.violate("unknown_message", f"message {message_id} is not this interaction's", route, 404, 10008,
                      interaction=it)
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def followup(request: web.Request, app_id: str, token: str) -> web.Response:
        route = f"POST /webhooks/{app_id}/<token>"
        it = api.interaction_for_token(app_id, token, route)
        if it.response_type is None:
            s.violate("followup_before_response", "followup sent before any initial response", route, 404, 10015,
                      interaction=it)
            raise ApiError(404, 10015, "Unknown Webhook")
        payload, files = await api.read_body(request)
        check(payload, files, route, it=it)
        original = s.message(it.original_message_id) if it.original_message_id else None
        if original is not None and original.loading and it.response_type == 5:
            # Discord turns the first followup after a deferral into the original response.
            msg = edit(original, {**payload, "attachments": payload.get("attachments") or []}, files)
            it.original_edits += 1
        else:
            msg = create(it.channel_id, payload, files, it=it)
            it.followup_ids.append(msg.id)
        it.last_activity = s.clock.now()
        await announce("MESSAGE_CREATE", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.to_payload(s.base_url))
        return no_content()

    async def webhook_get(request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        route = f"GET /webhooks/{app_id}/<token>/messages/{message_id}"
        it = api.interaction_for_token(app_id, token, route)
        return json_response(webhook_message(it, message_id, route).to_payload(s.base_url))

    async def webhook_patch(request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        route = f"PATCH /webhooks/{app_id}/<token>/messages/{message_id}"
        it = api.interaction_for_token(app_id, token, route)
        msg = webhook_message(it, message_id, route)
        payload, files = await api.read_body(request)
        check(payload, files, route, edit=True, it=it)
        edit(msg, payload, files)
        if msg.id in (it.original_message_id, it.message_id):
            it.original_edits += 1
        it.last_activity = s.clock.now()
        await announce("MESSAGE_UPDATE", msg)
        return json_response(msg.to_payload(s.base_url))

    async def webhook_delete(request: web.Request, app_id: str, token: str, message_id: str) -> web.Response:
        route = f"DELETE /webhooks/{app_id}/<token>/messages/{message_id}"
        it = api.interaction_for_token(app_id, token, route)
        msg = webhook_message(it, message_id, route)
        msg.deleted = True
        it.last_activity = s.clock.now()
        s.notify()
        return no_content()

    for method, path, handler in (
        ("POST", "/channels/{channel_id}/messages", post_message),
        ("GET", "/channels/{channel_id}/messages", list_messages),
        ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", patch_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", reaction),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", reaction),
        ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
        ("POST", "/webhooks/{app_id}/{token}", followup),
        ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_get),
        ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_patch),
        ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", webhook_delete),
    ):
        api.route(method, path, handler)
