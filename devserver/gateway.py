"""The gateway websocket (v10, JSON text frames) of the dev server.

Flow: HELLO (op 10) -> IDENTIFY (op 2) -> READY + GUILD_CREATE, heartbeats (op 1 -> op 11), RESUME (op 6) with a
known ``session_id`` replays the missed dispatches and sends RESUMED (unknown -> INVALID_SESSION op 9, d=false),
REQUEST_GUILD_MEMBERS (op 8) -> GUILD_MEMBERS_CHUNK. ``reconnect()`` sends op 7 so the client resumes;
``drop(code)`` closes the socket.

Sharding (Discord's "Sharding" documentation): IDENTIFY may carry ``shard: [shard_id, shard_count]`` (none means
``[0, 1]``; ``shard_id >= shard_count`` is closed with 4010 "Invalid shard"). A session receives READY and
GUILD_CREATE only for the guilds with ``(guild_id >> 22) % shard_count == shard_id`` (DMs go to shard 0), and
every later guild event only if its shard owns the guild; several bot processes may be connected at once, each
with its own shards. As on Discord, two sessions of the same shard (a bot started twice) both get every event,
interactions included (the second answer then meets 40060). A session whose socket is gone keeps its events for
a RESUME for ``RESUME_WINDOW_S`` (server clock), then is forgotten (RESUME -> INVALID_SESSION).
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

from devserver.payloads import guild_payload, members_chunk, owned_guilds, ready_payload

if TYPE_CHECKING:
    from devserver.server import DevServer

HEARTBEAT_ACK_DELAY_S = 0.02
RESUME_WINDOW_S = 120.0


@dataclass
class Session:
    """A gateway session: its shard ``(shard_id, shard_count)``, sequence number, the dispatches sent (for RESUME),
    its socket if attached, and ``identify_no`` (the server's IDENTIFY count when it was created)."""

    session_id: str
    intents: int
    shard: tuple[int, int] = (0, 1)
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None
    identify_no: int = 0
    detached_at: float | None = None  # server clock when its socket went away

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives events of ``guild_id`` (None: DMs, shard 0)."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id


class Gateway:
    """Gateway websocket handler bound to a ``DevServer``.

    ``sessions``: every session by id that may still RESUME (live ones included); ``current``: the most recently
    identified session.
    """

    def __init__(self, server: DevServer) -> None:
        self.server = server
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._acks: set[asyncio.Task[None]] = set()
        self._compressors: dict[web.WebSocketResponse, Any] = {}
        self.compressed_connections = 0
        self._lock = asyncio.Lock()

    def _expire(self) -> None:
        now = self.server.clock.now()
        for sid, s in list(self.sessions.items()):
            if not s.live and s.detached_at is not None and now - s.detached_at > RESUME_WINDOW_S:
                del self.sessions[sid]

    def _known(self) -> list[Session]:
        """Every session, plus ``current`` if it was forgotten (``sessions`` cleared) while its socket is open."""
        extra = [self.current] if self.current is not None and self.current.session_id not in self.sessions else []
        return [*self.sessions.values(), *extra]

    @property
    def connected(self) -> bool:
        """True while some session has its socket open."""
        return any(s.live for s in self._known())

    @property
    def intents(self) -> int:
        return self.current.intents if self.current else 0

    def owners(self, guild_id: int | None) -> list[Session]:
        """The sessions (live, or awaiting a RESUME) whose shard owns ``guild_id``."""
        self._expire()
        return [s for s in self._known() if s.owns(guild_id)]

    def live_shards(self) -> set[tuple[int, int]]:
        """The ``(shard_id, shard_count)`` held by a live session."""
        return {s.shard for s in self._known() if s.live}

    def shard_ready(self, shard: tuple[int, int], since: int = 0) -> bool:
        """True when ``shard`` has a live session identified after the ``since``-th IDENTIFY."""
        return any(s.live and s.shard == shard and s.identify_no > since for s in self._known())

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

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        guild_id: int | None = None,
        session: Session | None = None,
        intent: int = 0,
    ) -> int:
        """Send DISPATCH ``event`` to ``session``, or else to every session owning ``guild_id``'s shard that has
        ``intent`` (0: no intent needed); buffered for RESUME while a session is away. Returns how many
        sessions it went to."""
        targets = (
            [session] if session is not None else [s for s in self.owners(guild_id) if not intent or s.intents & intent]
        )
        async with self._lock:
            for target in targets:
                target.seq += 1
                frame = {"op": 0, "t": event, "s": target.seq, "d": data}
                target.sent.append(frame)
                if target.live:
                    assert target.ws is not None
                    await self._send(target.ws, frame)
        return len(targets)

    def _chosen(self, shard: int | None) -> list[Session]:
        return [s for s in self._known() if s.live and (shard is None or s.shard[0] == shard)]

    async def reconnect(self, shard: int | None = None) -> None:
        """Ask the bot to reconnect and RESUME (op 7 RECONNECT): every live session, or only shard ``shard``."""
        for session in self._chosen(shard):
            assert session.ws is not None
            await self._send(session.ws, {"op": 7, "d": None})

    async def drop(self, code: int = 4000, shard: int | None = None) -> None:
        """Close the bot's sockets (or only shard ``shard``'s) with ``code`` (4000 = unknown error: the client
        resumes)."""
        for session in self._chosen(shard):
            assert session.ws is not None
            await session.ws.close(code=code)

    async def close_all(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)

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
        last_beat: list[float] = []
        await self._send(
            ws, {"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": self.server.heartbeat_interval_ms}}
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                        break
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d") or {}
                if op == 1:
                    self._heartbeat(ws, last_beat)
                elif op == 2:
                    session = await self._identify(ws, d)
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(ws, d)
                elif op == 8 and session is not None:
                    await self._members_chunk(session, d)
        finally:
            self._sockets.discard(ws)
            self._compressors.pop(ws, None)
            if session is not None and session.ws is ws:
                session.ws, session.detached_at = None, self.server.clock.now()
            self.server.notify()
        return ws

    def _heartbeat(self, ws: web.WebSocketResponse, last_beat: list[float]) -> None:
        """Op 1: record a late beat (a blocked event loop) and ACK after a short, network-like delay (discord.py's
        heartbeat thread records the send time only after the send completes, so an instant loopback ACK makes it
        log "Can't keep up")."""
        interval_s = self.server.heartbeat_interval_ms / 1000
        now = time.monotonic()
        if last_beat and now - last_beat[0] > interval_s * 1.5 + 0.25:
            self.server.violate(
                "heartbeat_late",
                f"heartbeat {now - last_beat[0]:.2f} s after the previous one "
                f"(interval {interval_s:.2f} s): is the event loop blocked?",
                "gateway op 1",
                0,
                0,
            )
        last_beat[:] = [now]
        task = asyncio.create_task(self._ack_later(ws))
        self._acks.add(task)
        task.add_done_callback(self._acks.discard)

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
        raw = d.get("shard")
        shard = (int(raw[0]), int(raw[1])) if isinstance(raw, list) and len(raw) == 2 else (0, 1)
        if not 0 <= shard[0] < shard[1]:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        self.server.identify_count += 1
        session = Session(
            session_id=secrets.token_hex(16),
            intents=int(d.get("intents") or 0),
            shard=shard,
            ws=ws,
            identify_no=self.server.identify_count,
        )
        self.sessions[session.session_id] = session
        self.current = session
        await self.dispatch("READY", ready_payload(self.server, session, raw), session=session)
        for guild in owned_guilds(self.server, session):
            await self.dispatch(
                "GUILD_CREATE", guild_payload(self.server, guild, intents=session.intents), session=session
            )
        self.server.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
        self._expire()
        session = self.sessions.get(d.get("session_id") or "")
        if session is None or not self._token_ok(d.get("token")):
            await self._send(ws, {"op": 9, "s": None, "t": None, "d": False})
            return None
        async with self._lock:
            session.ws, session.detached_at = ws, None
            seq = int(d.get("seq") or 0)
            for frame in session.sent:
                if frame["s"] > seq:
                    await self._send(ws, frame)
        self.current = session
        self.server.resume_count += 1
        await self.dispatch("RESUMED", {}, session=session)
        self.server.notify()
        return session

    async def _members_chunk(self, session: Session, d: dict[str, Any]) -> None:
        s = self.server
        guild = s.guilds.get(int(d.get("guild_id") or s.guild_id))
        if guild is None or not guild.bot_member or not session.owns(guild.id):
            return
        await self.dispatch("GUILD_MEMBERS_CHUNK", members_chunk(s, guild, d), session=session)
