"""``POST /interactions/{id}/{token}/callback``: the bot's initial response to an interaction.

Enforced as Discord does: 3 s for the first response (late -> 404 code 10062, and the interaction is dead), one
initial response (second -> 400 code 40060), the response types valid for the interaction type (-> 400 code
50035), message limits, autocomplete limits (<= 25 choices, names 1-100, values <= 100). A fault from
``DevServer.inject_interaction_failure`` is served to the first callback (10062 kills the interaction: what
Discord does when it judged the response late). A response tried again on a dead interaction is refused (10062)
and recorded as a ``dead_interaction_response`` violation. Not subject to channel permissions.

discord.py 2.7 asks ``?with_response=1`` and reads the callback resource (``interaction`` + ``resource``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.messaging import announce, check_message, create_message, edit_message
from devserver.models import EPHEMERAL, INTERACTION_DEADLINE_S, LOADING, Interaction, Message
from devserver.rest import ApiError, Route, UploadedFile, json_response, no_content, read_body

if TYPE_CHECKING:
    from devserver.server import DevServer

ALLOWED_RESPONSES = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}
"""Callback types by interaction type; 12 is ``LAUNCH_ACTIVITY`` (recorded in ``DevServer.activity_launches``)."""
FAULT_STATUS = {10062: 404, 10015: 404, 10008: 404, 50027: 401, 40060: 400}


def callback_target(s: DevServer, interaction_id: str, token: str, route: str) -> Interaction:
    """The interaction a first response may still go to; raises Discord's error (and records a violation when
    the bot is at fault) otherwise."""
    it = s.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
    if it is None or it.token != token:
        s.violate("unknown_interaction", "callback for an unknown interaction", route, 404, 10062)
        raise ApiError(404, 10062, "Unknown interaction")
    if it.response_type is not None:
        s.violate(
            "double_response",
            f"second initial response (type {it.response_type} was already sent)",
            route,
            400,
            40060,
            interaction=it,
        )
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    if it.dead:
        s.violate(
            "dead_interaction_response",
            "initial response after Discord answered 10062 for this "
            "interaction: it can no longer be answered (post in the channel instead)",
            route,
            404,
            10062,
            interaction=it,
        )
        raise ApiError(404, 10062, "Unknown interaction")
    fault, it.fault = it.fault, None
    if fault is not None and fault.code is not None:
        it.dead = fault.code == 10062
        s.notify()
        message = "Unknown interaction" if fault.code == 10062 else f"injected error {fault.code}"
        raise ApiError(FAULT_STATUS.get(fault.code, 400), fault.code, message, injected=True)
    late = s.clock.now() - it.created_at
    if late > INTERACTION_DEADLINE_S:
        it.dead = True
        s.violate(
            "late_response",
            f"first response {late:.2f} s after the interaction (limit 3 s)",
            route,
            404,
            10062,
            interaction=it,
        )
        raise ApiError(404, 10062, "Unknown interaction")
    return it


def response_type(s: DevServer, it: Interaction, payload: dict[str, Any], route: str) -> int:
    """The callback type, refused (400 code 50035) when not valid for the interaction type."""
    rtype = int(payload.get("type") or 0)
    if rtype not in ALLOWED_RESPONSES.get(it.type, set()):
        s.violate(
            "invalid_form",
            f"callback type {rtype} is not valid for interaction type {it.type}",
            route,
            400,
            50035,
            interaction=it,
        )
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {
                "type": {
                    "_errors": [
                        {"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": "Interaction response type is invalid"}
                    ]
                }
            },
        )
    return rtype


async def respond(
    s: DevServer, it: Interaction, rtype: int, data: dict[str, Any], files: list[UploadedFile], route: str
) -> Message | None:
    """Apply the response of type ``rtype``; returns the message it created or updated, if any."""
    mtype = 20 if it.type == 2 else 19
    if rtype in (4, 7):
        check_message(s, data, files, route, edit=rtype == 7, it=it)
    if rtype == 4:
        msg = create_message(s, it.channel_id, data, files, it=it, mtype=mtype)
        it.original_message_id = msg.id
        await announce(s, "MESSAGE_CREATE", msg)
        return msg
    if rtype == 5:
        flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
        msg = create_message(s, it.channel_id, {"flags": flags}, [], it=it, mtype=mtype)
        it.original_message_id = msg.id
        return msg
    if rtype in (6, 7):
        clicked = s.message(it.message_id) if it.message_id else None
        if rtype == 7 and clicked is not None:
            edit_message(s, clicked, data, files)
            await announce(s, "MESSAGE_UPDATE", clicked)
        return clicked
    if rtype == 8:
        it.choices = autocomplete_choices(s, it, data, route)
        return None
    if rtype == 12:  # LAUNCH_ACTIVITY: Discord opens the Activity for the user (devserver/oauth.py launches it)
        s.activity_launches.append(it)
        return None
    it.modal = data  # 9
    return None


def autocomplete_choices(s: DevServer, it: Interaction, data: dict[str, Any], route: str) -> list[dict[str, Any]]:
    """The autocomplete result's choices, refused (400 code 50035) past Discord's limits."""
    choices = data.get("choices") or []
    bad = len(choices) > 25 or any(
        not 1 <= len(str(c.get("name", ""))) <= 100 or (isinstance(c.get("value"), str) and len(c["value"]) > 100)
        for c in choices
    )
    if bad:
        s.violate(
            "invalid_form",
            f"autocomplete result breaks a limit ({len(choices)} choices; <= 25, names 1-100, values <= 100)",
            route,
            400,
            50035,
            interaction=it,
        )
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {
                "data": {
                    "choices": {
                        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]
                    }
                }
            },
        )
    return list(choices)


async def callback(s: DevServer, request: web.Request, interaction_id: str, token: str) -> web.Response:
    """``POST /interactions/{id}/{token}/callback`` (see the module docstring)."""
    route = f"POST /interactions/{interaction_id}/<token>/callback"
    it = callback_target(s, interaction_id, token, route)
    payload, files = await read_body(request)
    rtype = response_type(s, it, payload, route)
    msg = await respond(s, it, rtype, payload.get("data") or {}, files, route)
    now = s.clock.now()
    it.response_type, it.responded_at, it.last_activity = rtype, now, now
    s.notify()
    body: dict[str, Any] = {
        "interaction": {
            "id": str(it.id),
            "type": it.type,
            "response_message_loading": bool(msg and msg.loading),
            "response_message_ephemeral": bool(msg and msg.ephemeral),
        }
    }
    if msg is not None:
        body["interaction"]["response_message_id"] = str(msg.id)
        if rtype in (4, 5, 7):
            body["resource"] = {"type": rtype, "message": msg.to_payload(s.base_url)}
    if request.query.get("with_response") in ("1", "true", "True"):
        return json_response(body)
    return no_content()


ROUTES: list[Route] = [
    ("POST", "/interactions/{interaction_id}/{token}/callback", callback),
]
