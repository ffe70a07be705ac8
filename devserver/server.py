"""The loopback Discord-compatible server: state, gateway dispatch, fault injection and the test-facing API.

``DevServer`` runs an aiohttp application on 127.0.0.1 that serves Discord's v10 REST API under ``/api/v10``
(see ``rest.py``) and the gateway websocket at ``/gateway`` (see ``gateway.py``). An unmodified discord.py
client connects to it when ``discord.http.Route.BASE = server.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)``.

It holds one guild ("Dev Guild") with text channels ``general``, ``games`` and ``games-2``; users ``alice``,
``bob``, ``carol``, ``dave`` and ``mod`` (who has Manage Server), plus the bot user.
"""

from __future__ import annotations

import asyncio
import fnmatch
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.models import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    Channel,
    Clock,
    ErrorRecord,
    Interaction,
    Message,
    User,
    Violation,
    fixed_id,
    snowflake,
)
from devserver.ratelimit import Bucket, RateLimiter

if TYPE_CHECKING:
    from devserver.client import DevUser

USER_NAMES = ("alice", "bob", "carol", "dave", "mod")
CHANNEL_NAMES = ("general", "games", "games-2")
INTENT_GUILD_MESSAGES = 1 << 9


@dataclass
class Injection:
    """A fault to serve: the next ``count`` requests matching ``pattern`` get ``status``.

    ``pattern`` is an fnmatch pattern over ``"METHOD /path"`` (path below ``/api/v10``), e.g.
    ``"POST /channels/*/messages"``; a pattern without a method matches every method.
    """

    pattern: str
    status: int
    count: int
    retry_after: float = 0.05
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        pattern = self.pattern if " " in self.pattern else f"* {self.pattern}"
        return self.count > self.hits and fnmatch.fnmatchcase(f"{method} {path}", pattern)


class DevServer:
    """A Discord-compatible server for tests and local play.

    Args:
        host, port: where to listen (port 0 = a free port, read ``server.port`` after ``start()``).
        token: the only bot token accepted (others get 401 on REST and close code 4004 on the gateway);
            None accepts any token.
        heartbeat_interval_ms: sent in HELLO.
        rate_limits: enforce Discord-like per-route buckets and the global 50/s limit with 429s
            (``ratelimit.py``); off by default (the global limit is then only recorded as a violation).
    """

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, token: str | None = None,
                 heartbeat_interval_ms: int = 41250, rate_limits: bool = False) -> None:
        self.host, self.port, self.token = host, port, token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.clock = Clock()
        self.application_id = fixed_id(1)
        self.bot_user = User(id=self.application_id, name="tablebot", bot=True)
        self.guild_id = fixed_id(2)
        self.mod_role_id = fixed_id(3)
        self.bot_role_id = fixed_id(4)
        self.bot_user.roles = [self.bot_role_id]
        self.bot_user.member_permissions = BOT_PERMISSIONS
        self.users: dict[str, User] = {}
        for n, name in enumerate(USER_NAMES):
            user = User(id=fixed_id(10 + n), name=name)
            if name == "mod":
                user.roles = [self.mod_role_id]
                user.member_permissions = EVERYONE_PERMISSIONS | MANAGE_GUILD
            self.users[name] = user
        self.channels: dict[int, Channel] = {}
        for pos, name in enumerate(CHANNEL_NAMES):
            ch = Channel(id=fixed_id(20 + pos), name=name, guild_id=self.guild_id, position=pos)
            self.channels[ch.id] = ch
        self.default_channel_id = next(c.id for c in self.channels.values() if c.name == "games")
        self._messages: dict[int, Message] = {}
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []  # (guild id or None, number of commands)
        self.command_creates: list[tuple[float, str | None, int]] = []  # (day, guild id, new command names)
        self.interactions: dict[int, Interaction] = {}
        self.violations: list[Violation] = []
        self.errors: list[ErrorRecord] = []
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status)
        self.injections: list[Injection] = []
        self.rate_limiter = RateLimiter(enforce_buckets=rate_limits)
        self.identify_count = 0
        self.resume_count = 0
        self.last_activity = 0.0
        self._event = asyncio.Event()
        self._runner: web.AppRunner | None = None
        from devserver.gateway import Gateway
        from devserver.rest import RestApi
        self.gateway = Gateway(self)
        self.rest = RestApi(self)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> DevServer:
        """Start listening; returns self (``server.port`` is then the real port)."""
        app = web.Application(client_max_size=40 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.rest.attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        """Close every gateway connection and stop listening."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DevServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``DISCORD_API_BASE`` / ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The value for ``DISCORD_GATEWAY_URL`` / ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self, token: str = "devserver-token") -> dict[str, str]:
        """Environment variables pointing a bot process at this server."""
        return {"DISCORD_TOKEN": token, "DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url,
                "DEV_GUILD_ID": str(self.guild_id)}

    # ------------------------------------------------------------------ waiting
    def notify(self) -> None:
        """Wake every ``wait_until`` (called on each change)."""
        self.last_activity = self.clock.now()
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 10.0,  # noqa: ASYNC109
                         what: str = "condition") -> None:
        """Wait until ``predicate()`` is true; raises ``TimeoutError`` naming ``what`` after ``timeout`` s."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"devserver: timed out after {timeout} s waiting for {what}")
            event = self._event
            try:
                await asyncio.wait_for(event.wait(), min(left, 0.25))
            except TimeoutError:
                pass

    @property
    def bot_connected(self) -> bool:
        """True while the bot has an identified (or resumed) gateway connection."""
        return self.gateway.connected

    async def wait_for_bot(self, timeout: float = 20.0, *, synced: bool = False) -> None:  # noqa: ASYNC109
        """Wait until the bot's gateway is connected (and, with ``synced``, until it has application commands)."""
        await self.wait_until(lambda: self.bot_connected, timeout, "the bot's gateway IDENTIFY")
        if synced:
            await self.wait_until(lambda: bool(self.all_commands()), timeout, "the bot's command sync")

    # ------------------------------------------------------------------ faults and records
    def inject(self, route_pattern: str, status: int, count: int = 1, *, retry_after: float = 0.05) -> Injection:
        """Answer the next ``count`` requests matching ``route_pattern`` with ``status`` (429 or 5xx).

        A 429 carries ``retry_after`` (seconds) in the body and the ``Retry-After``/``X-RateLimit-*``/``Via``
        headers discord.py reads. Returns the ``Injection`` (``.hits`` counts served faults).
        """
        inj = Injection(route_pattern, status, count, retry_after)
        self.injections.append(inj)
        return inj

    def rate_limit(self, route_pattern: str, limit: int, per_s: float) -> Bucket:
        """Enforce ``limit`` requests per ``per_s`` s on ``route_pattern`` (per channel / webhook token), with
        the ``X-RateLimit-*`` headers discord.py follows and 429 past the limit (see ``ratelimit.py``)."""
        return self.rate_limiter.add(route_pattern, limit, per_s)

    def violate(self, kind: str, message: str, route: str, status: int, code: int, details: Any = None,
                interaction: Interaction | None = None) -> Violation:
        """Record a violation of Discord's rules by the bot (and the error reply it gets)."""
        v = Violation(kind, message, route, status, code, details)
        self.violations.append(v)
        if interaction is not None:
            interaction.violations.append(v)
        self.notify()
        return v

    # ------------------------------------------------------------------ lookups
    def user(self, name_or_id: str | int) -> User:
        """A user by name (``"alice"``), id, or mention (``"<@123>"``); the bot is ``"bot"``.

        Raises ``KeyError`` for an unknown user.
        """
        if isinstance(name_or_id, str):
            text = name_or_id.strip().removeprefix("<@").removeprefix("!").removesuffix(">").lstrip("@")
            if text in self.users:
                return self.users[text]
            if text in ("bot", self.bot_user.name):
                return self.bot_user
            if not text.isdigit():
                raise KeyError(f"no user named {name_or_id!r}; known: {', '.join(self.users)}")
            name_or_id = int(text)
        for u in (*self.users.values(), self.bot_user):
            if u.id == name_or_id:
                return u
        raise KeyError(f"no user with id {name_or_id}")

    def as_user(self, name: str | int, channel: str | int | None = None) -> DevUser:
        """A ``DevUser`` acting as ``name`` (``"alice"``...) in ``channel`` (default ``games``)."""
        from devserver.client import DevUser
        return DevUser(self, self.user(name), self.channel(channel))

    def channel(self, name_or_id: str | int | None = None) -> Channel:
        """A channel or thread by name or id (None = the default ``games`` channel); raises ``KeyError``."""
        if name_or_id is None:
            return self.channels[self.default_channel_id]
        if isinstance(name_or_id, str) and not name_or_id.isdigit():
            name = name_or_id.lstrip("#")
            for ch in self.channels.values():
                if ch.name == name:
                    return ch
            raise KeyError(f"no channel named {name_or_id!r}")
        return self.channels[int(name_or_id)]

    def message(self, message_id: int) -> Message:
        """The stored message ``message_id`` (deleted ones included); raises ``KeyError``."""
        return self._messages[message_id]

    def messages(self, channel: str | int | Channel | None = None, *, visible_to: str | int | None = "all",
                 include_deleted: bool = False) -> list[Message]:
        """Messages of ``channel`` (oldest first). ``visible_to``: ``"all"`` = every message, a user name/id =
        what that user sees (ephemeral messages only for their user), None = what the bot sees in the channel."""
        ch = channel if isinstance(channel, Channel) else self.channel(channel)
        out = [m for m in self._messages.values() if m.channel_id == ch.id and (include_deleted or not m.deleted)]
        if visible_to == "all":
            return out
        uid = None if visible_to is None else self.user(visible_to).id
        return [m for m in out if m.visible_for(uid)]

    async def wait_for_message(self, predicate: Callable[[Message], bool] | None = None, *,
                               channel: str | int | Channel | None = None, after: int = 0,
                               timeout: float = 10.0) -> Message:  # noqa: ASYNC109
        """The first message (id > ``after``, in ``channel`` if given, not deleted) satisfying ``predicate``,
        waiting for it up to ``timeout`` s (``TimeoutError``)."""
        ch_id = None if channel is None else (channel.id if isinstance(channel, Channel) else self.channel(channel).id)

        def find() -> Message | None:
            for m in self._messages.values():
                if m.id > after and not m.deleted and (ch_id is None or m.channel_id == ch_id) and (
                        predicate is None or predicate(m)):
                    return m
            return None

        await self.wait_until(lambda: find() is not None, timeout, "a matching message")
        found = find()
        assert found is not None
        return found

    def all_messages(self) -> list[Message]:
        """Every message in every channel, oldest first."""
        return list(self._messages.values())

    def add_message(self, msg: Message) -> Message:
        self._messages[msg.id] = msg
        self.notify()
        return msg

    def all_commands(self) -> dict[str, dict[str, Any]]:
        """Synced chat-input commands by name: the dev guild's commands over the global ones."""
        out = {n: c for n, c in self.global_commands.items() if c.get("type", 1) == 1}
        out.update({n: c for n, c in self.guild_commands.get(self.guild_id, {}).items() if c.get("type", 1) == 1})
        return out

    def export_commands(self) -> dict[str, Any]:
        """The synced commands as JSON-able data (``import_commands`` restores them)."""
        return {"global": list(self.global_commands.values()),
                "guild": list(self.guild_commands.get(self.guild_id, {}).values())}

    def import_commands(self, data: dict[str, Any]) -> None:
        """Restore commands saved by ``export_commands`` (a bot reusing its DATA_DIR skips an unchanged sync)."""
        self.global_commands = {c["name"]: c for c in data.get("global", [])}
        self.guild_commands[self.guild_id] = {c["name"]: c for c in data.get("guild", [])}

    # ------------------------------------------------------------------ interactions
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway DISPATCH (op 0) to the bot's current session (buffered for RESUME if it is away)."""
        await self.gateway.dispatch(event, data)

    def wants_messages(self) -> bool:
        return bool(self.gateway.intents & INTENT_GUILD_MESSAGES)

    async def create_interaction(self, user: User, channel: Channel, itype: int, data: dict[str, Any],
                                 message: Message | None = None) -> Interaction:
        """Build an INTERACTION_CREATE as Discord does and dispatch it to the bot.

        While the bot's socket is down the event is kept for its RESUME, as on Discord. Raises ``RuntimeError``
        when no bot has ever identified.
        """
        if self.gateway.current is None:
            raise RuntimeError("devserver: no bot has connected to the gateway")
        it = Interaction(id=snowflake(), token=f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(40)}", type=itype, user=user,
                         channel_id=channel.id, data=data, created_at=self.clock.now(),
                         message_id=message.id if message else None)
        it.last_activity = it.created_at
        it.message_edits_at_start = message.edits if message else 0
        self.interactions[it.id] = it
        payload: dict[str, Any] = {
            "id": str(it.id), "application_id": str(self.application_id), "type": itype, "data": data,
            "guild_id": str(self.guild_id), "channel_id": str(channel.id), "channel": channel.to_payload(),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "member": user.member_payload(permissions=True), "token": it.token, "version": 1,
            "locale": "en-US", "guild_locale": "en-US", "app_permissions": str(BOT_PERMISSIONS),
            "entitlements": [], "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.to_payload(self.base_url)
        await self.dispatch("INTERACTION_CREATE", payload)
        self.notify()
        return it

    def interaction_by_token(self, token: str) -> Interaction | None:
        for it in self.interactions.values():
            if it.token == token:
                return it
        return None
