"""A recording stand-in for Discord's REST API, at discord.py's own HTTP seams.

Interactions are real ``discord.Interaction`` objects built by discord.py from documented
gateway payloads (``ConnectionState.parse_interaction_create``), exactly as the gateway would
deliver them; what the bot sends back goes through discord.py's real response code down to two
seams replaced here: ``HTTPClient.request`` (channel messages, threads, command sync) and the
webhook adapter's ``request`` (interaction callbacks, followups, ``@original`` edits). Every call
is recorded with its JSON payload and the bytes of its files, so tests check what Discord would
receive: one callback per interaction, ephemeral flags, attachments, components.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

EPHEMERAL = 64
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TIMESTAMP = "2026-11-29T12:00:00+00:00"

APP_ID = 900
BOT_ID = 1000
GUILD_ID = 10
CHANNEL_ID = 20
OTHER_CHANNEL_ID = 21

ALL_PERMISSIONS = str(discord.Permissions.all().value)
MEMBER_PERMISSIONS = str(
    discord.Permissions(send_messages=True, view_channel=True, use_application_commands=True).value
)


@dataclass
class Call:
    """One recorded REST request."""

    method: str
    path: str
    payload: dict[str, Any] | list[Any] | None
    files: list[tuple[str, bytes]] = field(default_factory=list)
    params: dict[str, Any] | None = None
    at: float = field(default_factory=time.perf_counter)

    @property
    def flags(self) -> int:
        data = self.payload.get("data", self.payload) if isinstance(self.payload, dict) else {}
        return int((data or {}).get("flags", 0) or 0)


def user_payload(uid: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


def _payload_of(payload: Any, multipart: Any) -> Any:
    if payload is not None:
        return payload
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def _file_bytes(files: Any) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        data = f.fp.read()  # from the current position, as aiohttp would send it
        out.append((f.filename, data))
    return out


class FakeDiscord:
    """Recorder + tiny message store. ``users`` maps ids to names (``BOT_ID`` is the bot)."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[int, list[tuple[str, bytes]]] = {}
        self.ids = itertools.count(5_000_000)
        self.tokens: dict[str, int] = {}  # token -> interaction id
        self.originals: dict[str, int] = {}  # token -> original response message id
        self.component_message: dict[str, int] = {}  # token -> message that carried the component
        self.autocomplete: dict[int, list[dict[str, Any]]] = {}
        self.users: dict[int, str] = {BOT_ID: "TableBot", 1: "alice", 2: "bob", 3: "carol", 4: "admin", 5: "otherbot"}
        self.bots: set[int] = {BOT_ID, 5}
        self.fail_paths: set[str] = set()  # exact REST paths answered with a 500
        self.commands: dict[str, list[dict[str, Any]]] = {}  # PUT application commands by path (GET returns them)
        self.fail_webhooks: set[str] = set()  # substrings of webhook paths answered with 10062
        self._channels: dict[str, int] = {}  # token -> channel of the interaction

    # -- message store --------------------------------------------------------------------
    def new_message(self, channel_id: int, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        mid = next(self.ids)
        msg = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID),
            "author": user_payload(BOT_ID, "TableBot", bot=True),
            "content": payload.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": payload.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(payload.get("flags") or 0),
            "components": payload.get("components") or [],
        }
        self.messages[mid] = msg
        self.files[mid] = []
        self._set_attachments(mid, payload, files)
        return msg

    def _set_attachments(self, mid: int, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        if "attachments" not in payload and not files:
            return
        kept = []
        old = {a["id"]: a for a in self.messages[mid]["attachments"]}
        old_files = dict(zip([a["id"] for a in self.messages[mid]["attachments"]], self.files[mid], strict=False))
        new_files: list[tuple[str, bytes]] = []
        listed = payload.get("attachments")
        if listed is None:
            listed = [{"id": i, "filename": name} for i, (name, _) in enumerate(files)]
        for att in listed:
            aid = str(att["id"])
            if aid in old:  # an existing attachment kept
                kept.append(old[aid])
                new_files.append(old_files[aid])
            else:  # a new upload: id is the index in files[]
                name, data = files[int(att["id"])]
                new_id = str(next(self.ids))
                kept.append(
                    {
                        "id": new_id,
                        "filename": name,
                        "size": len(data),
                        "url": f"https://cdn/{name}",
                        "proxy_url": f"https://cdn/{name}",
                    }
                )
                new_files.append((name, data))
        self.messages[mid]["attachments"] = kept
        self.files[mid] = new_files

    def edit_message(self, mid: int, payload: dict[str, Any], files: list[tuple[str, bytes]]) -> dict[str, Any]:
        msg = self.messages[mid]
        if "content" in payload:
            msg["content"] = payload["content"] or ""
        if "components" in payload:
            msg["components"] = payload["components"] or []
        if "embeds" in payload:
            msg["embeds"] = payload["embeds"] or []
        msg["edited_timestamp"] = TIMESTAMP
        self._set_attachments(mid, payload, files)
        return msg

    # -- seams ----------------------------------------------------------------------------
    async def http_request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        """Stand-in for ``discord.http.HTTPClient.request``."""
        payload = kwargs.get("json")
        if payload is None and form:
            payload = _payload_of(None, form)
        data = _file_bytes(files)
        path = route.url[len(Route.BASE) :]
        self.calls.append(Call(route.method, path, payload, data, kwargs.get("params")))
        await asyncio.sleep(0)
        parts = path.strip("/").split("/")
        if path in self.fail_paths:
            raise discord.HTTPException(_FakeResponse(500), {"message": "fake failure", "code": 0})
        if route.method == "POST" and parts[0] == "channels" and parts[2] == "messages":
            return self.new_message(int(parts[1]), payload or {}, data)
        if route.method == "PATCH" and parts[0] == "channels" and parts[2] == "messages":
            mid = int(parts[3])
            if mid not in self.messages:
                raise discord.NotFound(_FakeResponse(404), {"message": "Unknown Message", "code": 10008})
            return self.edit_message(mid, payload or {}, data)
        if route.method == "GET" and parts[0] == "channels" and parts[2:] == ["messages"]:  # newest first
            limit = int((kwargs.get("params") or {}).get("limit", 50))
            mine = [m for m in self.messages.values() if str(m.get("channel_id")) == parts[1]]
            return sorted(mine, key=lambda m: -int(m["id"]))[:limit]
        if route.method == "POST" and parts[0] == "channels" and parts[2] == "threads":
            tid = next(self.ids)
            return {
                "id": str(tid),
                "parent_id": parts[1],
                "owner_id": str(BOT_ID),
                "name": payload["name"],
                "type": payload["type"],
                "guild_id": str(GUILD_ID),
                "message_count": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": TIMESTAMP,
                    "locked": False,
                },
            }
        if route.method == "PUT" and parts[0] == "applications":  # stored as Discord does, returned by GET
            self.commands[path] = [
                {**c, "id": str(next(self.ids)), "application_id": parts[1], "version": "1"} for c in payload or []
            ]
            return self.commands[path]
        if route.method == "GET" and parts[0] == "applications" and parts[-1] == "commands":
            return self.commands.get(path, [])
        if route.method == "GET" and parts[0] == "users":
            uid = int(parts[1])
            if uid not in self.users:
                raise discord.NotFound(_FakeResponse(404), {"message": "Unknown User", "code": 10013})
            return user_payload(uid, self.users[uid], bot=uid in self.bots)
        raise AssertionError(f"unexpected REST call {route.method} {path}")

    async def webhook_request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: Any = None,
        multipart: Any = None,
        files: Any = None,
        params: Any = None,
        **_: Any,
    ) -> Any:
        """Stand-in for ``AsyncWebhookAdapter.request`` (interaction callbacks and webhooks)."""
        body = _payload_of(payload, multipart)
        data = _file_bytes(files)
        path = route.url[len(Route.BASE) :]
        self.calls.append(Call(route.method, path, body, data, params))
        await asyncio.sleep(0)
        if any(part in path for part in self.fail_webhooks):
            raise discord.NotFound(_FakeResponse(404), {"message": "Unknown interaction", "code": 10062})
        parts = path.strip("/").split("/")
        if parts[0] == "interactions":  # POST /interactions/{id}/{token}/callback
            iid, token = int(parts[1]), parts[2]
            return self._callback(iid, token, body or {}, data)
        token = parts[2]
        if route.method == "PATCH" and parts[-1] == "@original":
            return self.edit_message(self.originals[token], body or {}, data)
        if route.method == "DELETE" and parts[-1] == "@original":
            self.messages.pop(self.originals[token], None)
            return None
        if route.method == "GET" and parts[-1] == "@original":
            return self.messages[self.originals[token]]
        if route.method == "POST" and len(parts) == 3:  # followup
            return self.new_message(self._channel_of(token), body or {}, data)
        if route.method == "PATCH" and parts[-2] == "messages":
            return self.edit_message(int(parts[-1]), body or {}, data)
        raise AssertionError(f"unexpected webhook call {route.method} {path}")

    def _channel_of(self, token: str) -> int:
        return self._channels.get(token, CHANNEL_ID)

    def _callback(self, iid: int, token: str, body: dict[str, Any], files: list[tuple[str, bytes]]) -> Any:
        kind = body.get("type")
        data = body.get("data") or {}
        interaction = {
            "id": str(iid),
            "type": 2,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
        }
        resource: dict[str, Any] = {"type": kind}
        if kind in (4, 5):
            msg = self.new_message(self._channel_of(token), data, files)
            self.originals[token] = int(msg["id"])
            interaction["response_message_id"] = msg["id"]
            resource["message"] = msg
        elif kind in (6, 7):
            mid = self.component_message[token]
            self.originals[token] = mid
            if kind == 7:
                resource["message"] = self.edit_message(mid, data, files)
            interaction["response_message_id"] = str(mid)
        elif kind == 8:
            self.autocomplete[iid] = data.get("choices", [])
        return {"interaction": interaction, "resource": resource}

    # -- queries --------------------------------------------------------------------------
    def calls_for(self, token: str) -> list[Call]:
        """Every webhook call (callback, followups, @original) of one interaction token."""
        iid = self.tokens[token]
        return [c for c in self.calls if f"/{token}" in c.path or c.path.startswith(f"/interactions/{iid}/")]

    def callbacks(self, token: str) -> list[Call]:
        """The initial responses (callbacks) sent for one interaction."""
        return [c for c in self.calls_for(token) if c.path.endswith("/callback")]

    def visible_text(self, token: str) -> str:
        """Every content string the interaction produced (callbacks, followups, edits)."""
        out = []
        for c in self.calls_for(token):
            if isinstance(c.payload, dict):
                data = c.payload.get("data", c.payload) if "type" in c.payload and "data" in c.payload else c.payload
                if isinstance(data, dict) and data.get("content"):
                    out.append(str(data["content"]))
        return "\n".join(out)


def limit_problems(payload: Any) -> list[str]:
    """Documented message/component limits broken by one outgoing payload (callback data, message
    create/edit, followup): content 2000; 5 rows; 5 buttons or 1 select per row; 25 options;
    custom_id 1-100 and unique; labels (button 80, option 100), option values/descriptions 100;
    placeholder 150."""
    problems: list[str] = []
    if not isinstance(payload, dict):
        return problems
    data = payload.get("data") if isinstance(payload.get("data"), dict) else payload
    if not isinstance(data, dict):
        return problems
    content = data.get("content")
    if isinstance(content, str) and len(content) > 2000:
        problems.append(f"content of {len(content)} characters")
    rows = data.get("components") or []
    if len(rows) > 5:
        problems.append(f"{len(rows)} action rows")
    ids: list[str] = []
    for row in rows:
        comps = row.get("components", [])
        selects = [c for c in comps if c.get("type") in (3, 5, 6, 7, 8)]
        if (selects and len(comps) > 1) or len(comps) > 5 or not comps:
            problems.append(f"bad row {[c.get('custom_id') for c in comps]}")
        for comp in comps:
            cid = comp.get("custom_id")
            if cid is not None:
                ids.append(cid)
                if not 1 <= len(cid) <= 100:
                    problems.append(f"custom_id {cid!r}")
            if comp.get("type") == 2 and len(comp.get("label") or "") > 80:
                problems.append(f"button label {comp.get('label')!r}")
            if len(comp.get("placeholder") or "") > 150:
                problems.append("placeholder too long")
            options = comp.get("options")
            if options is not None:
                if not 1 <= len(options) <= 25:
                    problems.append(f"select {cid} with {len(options)} options")
                for opt in options:
                    if not 1 <= len(opt["label"]) <= 100 or not 1 <= len(opt["value"]) <= 100:
                        problems.append(f"option {opt!r}")
                    if len(opt.get("description") or "") > 100:
                        problems.append(f"option description {opt!r}")
    if len(ids) != len(set(ids)):
        problems.append(f"duplicate custom ids {ids}")
    return problems


class _FakeResponse:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "fake"
        self.headers: dict[str, str] = {}


class FakeWebhookAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter with ``request`` routed to :class:`FakeDiscord`."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route: Route, session: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return await self.fake.webhook_request(route, session, **kwargs)


def png_ok(data: bytes) -> bool:
    """True for a non-empty PNG (the magic bytes and a plausible size)."""
    return data.startswith(PNG_MAGIC) and len(data) > 1000


def image_size(data: bytes) -> tuple[int, int]:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        return img.size
