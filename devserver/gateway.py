"""The gateway websocket (v10, JSON text frames) of the dev server.

Flow: HELLO (op 10) -> IDENTIFY (op 2) -> READY + GUILD_CREATE, heartbeats (op 1 -> op 11), RESUME (op 6) with a
known ``session_id`` replays the missed dispatches and sends RESUMED (unknown -> INVALID_SESSION op 9, d=false),
REQUEST_GUILD_MEMBERS (op 8) -> GUILD_MEMBERS_CHUNK. A new IDENTIFY (e.g. a restarted bot process) replaces the
current session. ``reconnect()`` sends op 7 so the client resumes; ``drop(code)`` closes the socket.
With ``compress=zlib-stream`` in the query, frames are binary pieces of one zlib stream, each ending in a
Z_SYNC_FLUSH, as Discord sends them (other or no compression: JSON text frames).
A heartbeat arriving more than 1.5 intervals + 0.25 s after the previous one is recorded as a ``heartbeat_late``
violation: with a short ``heartbeat_interval_ms`` this detects a bot whose event loop is blocked (e.g. rendering
on the loop instead of in a thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from devserver.models import EVERYONE_PERMISSIONS, MANAGE_GUILD

HEARTBEAT_ACK_DELAY_S = 0.02

if TYPE_CHECKING:
    from devserver.server import DevServer

INTENT_GUILD_MEMBERS = 1 << 1


@dataclass
class Session:
    """A gateway session: its sequence number, the dispatches sent (for RESUME) and its socket if attached."""

    session_id: str
    intents: int
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None


class Gateway:
    """Gateway websocket handler bound to a ``DevServer``."""

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._acks: set[asyncio.Task[None]] = set()
        self._compressors: dict[web.WebSocketResponse, Any] = {}
        self.compressed_connections = 0
        self._lock = asyncio.Lock()

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.ws is not None and not self.current.ws.closed

    @property
    def intents(self) -> int:
        return self.current.intents if self.current else 0

    # ------------------------------------------------------------------ sending
    async def _send(self, ws: web.WebSocketResponse, frame: dict[str, Any]) -> None:
        text = json.dumps(frame)
        with contextlib.suppress(ConnectionError, RuntimeError):
            compressor = self._compressors.get(ws)
            if compressor is None:
                await ws.send_str(text)
            else:
                data = compressor.compress(text.encode()) + compressor.flush(zlib.Z_SYNC_FLUSH)
                await ws.send_bytes(data)

    async def dispatch(self, event: str, data: dict[str, Any], session: Session | None = None) -> None:
        """Send DISPATCH ``event`` to ``session`` (default: the current one); buffered for RESUME if away."""
        session = session or self.current
        if session is None:
            return
        async with self._lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.sent.append(frame)
            if session.ws is not None and not session.ws.closed:
                await self._send(session.ws, frame)

    async def reconnect(self) -> None:
        """Ask the bot to reconnect and RESUME (op 7 RECONNECT)."""
        if self.current and self.current.ws is not None:
            await self._send(self.current.ws, {"op": 7, "d": None})

    async def drop(self, code: int = 4000) -> None:
        """Close the bot's socket with ``code`` (4000 = unknown error: the client resumes)."""
        if self.current and self.current.ws is not None:
            await self.current.ws.close(code=code)

    async def close_all(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)

    # ------------------------------------------------------------------ payloads
    def _ready(self, session: Session, shard: list[int] | None) -> dict[str, Any]:
        s = self.server
        data: dict[str, Any] = {
            "v": 10, "user": {**s.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(s.guild_id), "unavailable": True}], "session_id": session.session_id,
            "resume_gateway_url": s.gateway_url, "application": {"id": str(s.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "user_settings": {}, "session_type": "normal",
            "geo_ordered_rtc_regions": [],
        }
        if shard is not None:
            data["shard"] = shard
        return data

    def roles(self) -> list[dict[str, Any]]:
        s = self.server

        def role(rid: int, name: str, perms: int, pos: int, managed: bool = False) -> dict[str, Any]:
            return {"id": str(rid), "name": name, "color": 0, "colors": {"primary_color": 0}, "hoist": False,
                    "icon": None, "unicode_emoji": None, "position": pos, "permissions": str(perms),
                    "managed": managed, "mentionable": False, "flags": 0}

        return [role(s.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
                role(s.mod_role_id, "Moderator", EVERYONE_PERMISSIONS | MANAGE_GUILD, 1),
                role(s.bot_role_id, s.bot_user.name, s.bot_user.member_permissions, 2, managed=True)]

    def guild_payload(self, *, full: bool = True, intents: int = 0) -> dict[str, Any]:
        """The guild as GUILD_CREATE (``full``) or ``GET /guilds/{id}`` sends it. As on Discord, GUILD_CREATE
        lists every member only with the GUILD_MEMBERS intent (``1 << 1``); otherwise just the bot's own member."""
        s = self.server
        owner = s.users["mod"]
        data: dict[str, Any] = {
            "id": str(s.guild_id), "name": "Dev Guild", "icon": None, "splash": None, "discovery_splash": None,
            "banner": None, "description": None, "owner_id": str(owner.id), "roles": self.roles(), "emojis": [],
            "stickers": [], "features": [], "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "public_updates_channel_id": None, "vanity_url_code": None, "premium_tier": 0,
            "premium_subscription_count": 0, "preferred_locale": "en-US", "max_members": 500000,
            "application_id": None, "incidents_data": None, "premium_progress_bar_enabled": False,
        }
        if full:
            everyone = (*s.users.values(), s.bot_user)
            listed = everyone if intents & INTENT_GUILD_MEMBERS else (s.bot_user,)
            members = [u.member_payload() for u in listed]
            data.update({
                "unavailable": False, "large": False, "member_count": len(everyone), "members": members,
                "joined_at": "2025-01-01T00:00:00+00:00",
                "channels": [c.to_payload() for c in s.channels.values() if c.type == 0],
                "threads": [c.to_payload() for c in s.channels.values() if c.type in (10, 11, 12)],
                "presences": [], "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
                "soundboard_sounds": [],
            })
        return data

    # ------------------------------------------------------------------ the socket
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for ``GET /gateway`` (websocket upgrade)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        if request.query.get("compress") == "zlib-stream":
            self._compressors[ws] = zlib.compressobj()
            self.compressed_connections += 1
        session: Session | None = None
        last_beat: float | None = None
        interval_s = self.server.heartbeat_interval_ms / 1000
        await self._send(ws, {"op": 10, "s": None, "t": None,
                              "d": {"heartbeat_interval": self.server.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                        break
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:
                    now = time.monotonic()
                    if last_beat is not None and now - last_beat > interval_s * 1.5 + 0.25:
                        self.server.violate("heartbeat_late", f"heartbeat {now - last_beat:.2f} s after the previous "
                                            f"one (interval {interval_s:.2f} s): is the event loop blocked?",
                                            "gateway op 1", 0, 0)
                    last_beat = now
                    # Ack after a short, network-like delay: discord.py's heartbeat thread records the send time
                    # only after the send completes, so an instant loopback ACK makes it log "Can't keep up".
                    task = asyncio.create_task(self._ack_later(ws))
                    self._acks.add(task)
                    task.add_done_callback(self._acks.discard)
                elif op == 2:
                    session = await self._identify(ws, d or {})
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(ws, d or {})
                elif op == 8 and session is not None:
                    await self._members_chunk(session, d or {})
        finally:
            self._sockets.discard(ws)
            self._compressors.pop(ws, None)
            if session is not None and session.ws is ws:
                session.ws = None
            self.server.notify()
        return ws

    async def _ack_later(self, ws: web.WebSocketResponse) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_DELAY_S)
        with contextlib.suppress(Exception):
            await self._send(ws, {"op": 11, "s": None, "t": None, "d": None})

    def _token_ok(self, token: str | None) -> bool:
        expected = self.server.token
        return expected is None or (token or "").removeprefix("Bot ") == expected

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        if not self._token_ok(d.get("token")):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        old = self.current
        if old is not None and old.ws is not None and old.ws is not ws:
            with contextlib.suppress(Exception):
                await old.ws.close(code=4009)  # session replaced
        session = Session(session_id=secrets.token_hex(16), intents=int(d.get("intents") or 0), ws=ws)
        self.sessions[session.session_id] = session
        self.current = session
        self.server.identify_count += 1
        await self.dispatch("READY", self._ready(session, d.get("shard")), session)
        await self.dispatch("GUILD_CREATE", self.guild_payload(intents=session.intents), session)
        self.server.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        session = self.sessions.get(d.get("session_id") or "")
        if session is None or not self._token_ok(d.get("token")):
            await self._send(ws, {"op": 9, "s": None, "t": None, "d": False})
            return None
        async with self._lock:
            session.ws = ws
            seq = int(d.get("seq") or 0)
            for frame in session.sent:
                if frame["s"] > seq:
                    await self._send(ws, frame)
        self.current = session
        self.server.resume_count += 1
        await self.dispatch("RESUMED", {}, session)
        self.server.notify()
        return session

    async def _members_chunk(self, session: Session, d: dict[str, Any]) -> None:
        s = self.server
        query = (d.get("query") or "").lower()
        ids = {int(x) for x in (d.get("user_ids") or [])} if d.get("user_ids") else None
        if isinstance(d.get("user_ids"), (str, int)):
            ids = {int(d["user_ids"])}
        members = [u.member_payload() for u in (*s.users.values(), s.bot_user)
                   if (ids is None or u.id in ids) and u.name.lower().startswith(query)]
        limit = int(d.get("limit") or 0)
        if limit:
            members = members[:limit]
        data: dict[str, Any] = {"guild_id": str(s.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
        if d.get("nonce") is not None:
            data["nonce"] = d["nonce"]
        if d.get("presences"):
            data["presences"] = []
        await self.dispatch("GUILD_MEMBERS_CHUNK", data, session)
