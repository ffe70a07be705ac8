"""The loopback Discord-compatible server: lifecycle, waiting, records, gateway dispatch and interactions.

``DevServer`` runs an aiohttp application on 127.0.0.1 that serves Discord's v10 REST API under ``/api/v10``
(``rest.py`` and ``routes/``) and the gateway websocket at ``/gateway`` (``gateway.py``). An unmodified discord.py
client connects to it when ``discord.http.Route.BASE = server.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(server.gateway_url)``.

It starts with one guild ("Dev Guild") with text channels ``general``, ``games`` and ``games-2``; users ``alice``,
``bob``, ``carol``, ``dave`` and ``mod`` (Moderator role: Manage Server, Manage Messages), plus the bot user.
More guilds: ``add_guild``. Lookups live in ``directory.py``, the fault and world controls (permissions, removing
the bot, moderator deletions, interaction failures, request counts) in ``controls.py``.
"""

from __future__ import annotations

import asyncio
import fnmatch
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from devserver.accounting import RequestCounts, RequestRecord, is_interaction_endpoint
from devserver.conformance import Conformance, SpecStats, default_conformance
from devserver.controls import Controls
from devserver.directory import CHANNEL_NAMES, GUILD_BASE_TS, Directory
from devserver.models import (
    Channel,
    Clock,
    ErrorRecord,
    Guild,
    Interaction,
    InteractionFault,
    Message,
    User,
    Violation,
    fixed_id,
    snowflake,
)
from devserver.oauth import OAuth
from devserver.payloads import interaction_payload
from devserver.permissions import EVERYONE_PERMISSIONS, MODERATOR_PERMISSIONS
from devserver.ratelimit import Bucket, RateLimiter

USER_NAMES = ("alice", "bob", "carol", "dave", "mod")
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
SHUTDOWN_S = 2.0
"""How long ``stop()`` lets requests still being answered finish (aiohttp's default, 60 s, is a production
server's grace; a test's Discord is gone at once)."""


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
    code: int = 0
    message: str | None = None

    def matches(self, method: str, path: str) -> bool:
        pattern = self.pattern if " " in self.pattern else f"* {self.pattern}"
        return self.count > self.hits and fnmatch.fnmatchcase(f"{method} {path}", pattern)


@dataclass
class RequestHook:
    """A test's callback run when a request matching ``pattern`` arrives (see ``DevServer.on_request``)."""

    pattern: str
    count: int
    action: Callable[[str, str], None]
    files_only: bool = False
    hits: int = 0

    def matches(self, method: str, path: str, has_files: bool) -> bool:
        pattern = self.pattern if " " in self.pattern else f"* {self.pattern}"
        return (
            self.count > self.hits
            and (has_files or not self.files_only)
            and fnmatch.fnmatchcase(f"{method} {path}", pattern)
        )


class DevServer(Directory, Controls):
    """A Discord-compatible server for tests and local play.

    Args:
        host, port: where to listen (port 0 = a free port, read ``server.port`` after ``start()``).
        token: the only bot token accepted (others get 401 on REST and close code 4004 on the gateway);
            None accepts any token.
        heartbeat_interval_ms: sent in HELLO.
        rate_limits: enforce Discord-like per-route buckets and the global 50/s limit with 429s
            (``ratelimit.py``); off by default (the global limit is then only recorded as a violation).
        shards: the shard count ``GET /gateway/bot`` recommends (discord.py's ``AutoShardedClient`` without a
            ``shard_count`` uses it).
        conformance: every REST request is checked against Discord's OpenAPI spec (``conformance.py``;
            ``spec_stats`` counts them). ``"enforce"`` (default): a request breaking it is recorded as a ``spec``
            violation and answered as Discord would (404, 405 or 400/50035); ``"record"``: recorded, then served
            anyway; ``"off"``: not checked. Anything but ``"off"`` raises ``openapi.SpecError`` when
            jsonschema/referencing (the ``test`` extra) are not installed.
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        heartbeat_interval_ms: int = 41250,
        rate_limits: bool = False,
        shards: int = 1,
        conformance: str = "enforce",
    ) -> None:
        if conformance not in ("enforce", "record", "off"):
            raise ValueError(f"conformance must be 'enforce', 'record' or 'off', not {conformance!r}")
        self.spec_stats = SpecStats()
        self.host, self.port, self.token = host, port, token
        self.conformance = conformance
        self.spec: Conformance | None = None if conformance == "off" else default_conformance()
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.recommended_shards = shards
        self.clock = Clock()
        self.application_id = fixed_id(1)
        self.bot_user = User(id=self.application_id, name="tablebot", bot=True)
        self.users: dict[str, User] = {}
        for n, name in enumerate(USER_NAMES):
            mod = name == "mod"
            self.users[name] = User(
                id=fixed_id(10 + n),
                name=name,
                moderator=mod,
                member_permissions=MODERATOR_PERMISSIONS if mod else EVERYONE_PERMISSIONS,
            )
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self._last_guild_ts = GUILD_BASE_TS
        guild = self._create_guild("Dev Guild", GUILD_BASE_TS, CHANNEL_NAMES)
        self.guild_id, self.mod_role_id, self.bot_role_id = guild.id, guild.mod_role_id, guild.bot_role_id
        self.bot_user.member_permissions = guild.bot_permissions | guild.everyone_permissions
        self.default_channel_id = next(c.id for c in self.channels.values() if c.name == "games")
        self._messages: dict[int, Message] = {}
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []  # (guild id or None, number of commands)
        self.command_creates: list[tuple[float, str | None, int]] = []  # (day, guild id, new command names)
        self.interactions: dict[int, Interaction] = {}
        self.violations: list[Violation] = []
        self.nonces: dict[tuple[int, str], tuple[Any, float]] = {}
        """Channel messages created with ``enforce_nonce``, by (channel, nonce): Discord returns them again."""
        self.nonce_hits = 0
        self.errors: list[ErrorRecord] = []
        self.activity_launches: list[Interaction] = []
        """Interactions the bot answered with ``LAUNCH_ACTIVITY`` (callback type 12), in order."""
        self.requests: list[tuple[str, str, int]] = []  # (method, path, status)
        self.request_log: list[RequestRecord] = []
        self.request_totals = RequestCounts()
        self.injections: list[Injection] = []
        self.request_hooks: list[RequestHook] = []
        self.interaction_faults: list[InteractionFault] = []
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
        self.oauth = OAuth(self)
        """The live table's OAuth2 (``devserver/oauth.py``): ``oauth.launch(user, channel)`` opens the Activity."""

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> DevServer:
        """Start listening; returns self (``server.port`` is then the real port)."""
        app = web.Application(client_max_size=40 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self.rest.attachment)
        app.router.add_post("/api/v10/oauth2/token", self.oauth.token)  # before the REST routes: no bot token
        app.router.add_post("/api/oauth2/token", self.oauth.token)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_S)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        """Stop listening, then close every gateway connection (Discord is gone: new connections are refused).

        Listening stops first: a client reconnecting at once (discord.py resumes on a closed gateway) must be
        refused, not served a new gateway session that the runner's shutdown would then wait on."""
        if self._runner is not None:
            for site in list(self._runner.sites):
                await site.stop()
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
        """Environment variables pointing a bot process at this server (``DEV_GUILD_ID``: the default guild)."""
        return {
            "DISCORD_TOKEN": token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DEV_GUILD_ID": str(self.guild_id),
        }

    # ------------------------------------------------------------------ waiting
    def notify(self) -> None:
        """Wake every ``wait_until`` (called on each change)."""
        self.last_activity = self.clock.now()
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float = 10.0,  # noqa: ASYNC109
        what: str = "condition",
    ) -> None:
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
        """True while some bot session (any shard) has an identified (or resumed) gateway connection."""
        return self.gateway.connected

    async def wait_for_bot(self, timeout: float = 20.0, *, synced: bool = False) -> None:  # noqa: ASYNC109
        """Wait until the bot's gateway is connected (and, with ``synced``, until it has application commands)."""
        await self.wait_until(lambda: self.bot_connected, timeout, "the bot's gateway IDENTIFY")
        if synced:
            await self.wait_until(lambda: bool(self.all_commands()), timeout, "the bot's command sync")

    # ------------------------------------------------------------------ faults and records
    def inject(
        self,
        route_pattern: str,
        status: int,
        count: int = 1,
        *,
        retry_after: float = 0.05,
        code: int = 0,
        message: str | None = None,
    ) -> Injection:
        """Answer the next ``count`` requests matching ``route_pattern`` with ``status`` (429, 5xx, or a refusal
        with Discord's JSON error ``code``: e.g. 403/50013 Missing Permissions, 403/50001 Missing Access,
        400/50083 archived thread, 400/160005 locked thread, 404/10003 Unknown Channel, 413/40005 too large).

        A 429 carries ``retry_after`` (seconds) in the body and the ``Retry-After``/``X-RateLimit-*``/``Via``
        headers discord.py reads. Returns the ``Injection`` (``.hits`` counts served faults).
        """
        inj = Injection(route_pattern, status, count, retry_after, code=code, message=message)
        self.injections.append(inj)
        return inj

    def on_request(
        self, route_pattern: str, action: Callable[[str, str], None], *, count: int = 1, files_only: bool = False
    ) -> RequestHook:
        """Call ``action(method, path)`` for the next ``count`` requests matching ``route_pattern`` (as in
        :meth:`inject`) once they are served, before their answer goes back (``files_only``: only requests carrying
        files, e.g. a board). A test uses it to make something happen at the very moment Discord has what the bot
        sent, e.g. take its database away, or kill it, right after a move's board. Returns the hook (``.hits``)."""
        hook = RequestHook(route_pattern, count, action, files_only)
        self.request_hooks.append(hook)
        return hook

    def rate_limit(self, route_pattern: str, limit: int, per_s: float) -> Bucket:
        """Enforce ``limit`` requests per ``per_s`` s on ``route_pattern`` (per channel / webhook token), with
        the ``X-RateLimit-*`` headers discord.py follows and 429 past the limit (see ``ratelimit.py``)."""
        return self.rate_limiter.add(route_pattern, limit, per_s)

    def violate(
        self,
        kind: str,
        message: str,
        route: str,
        status: int,
        code: int,
        details: Any = None,
        interaction: Interaction | None = None,
    ) -> Violation:
        """Record a violation of Discord's rules by the bot (and the error reply it gets)."""
        v = Violation(kind, message, route, status, code, details)
        self.violations.append(v)
        if interaction is not None:
            interaction.violations.append(v)
        self.notify()
        return v

    def record_request(self, method: str, path: str, status: int, route: str) -> None:
        """Log one REST call (``requests`` and ``request_log``; see ``request_counts``)."""
        record = RequestRecord(method, path, status, route, self.clock.now(), is_interaction_endpoint(path))
        self.requests.append((method, path, status))
        self.request_log.append(record)
        self.request_totals.add(record)

    # ------------------------------------------------------------------ gateway
    async def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None = None, intent: int = 0) -> int:
        """Send a gateway DISPATCH (op 0) to the sessions owning the guild's shard (``guild_id``, default
        ``data["guild_id"]``; none = shard 0), skipping sessions without ``intent``; buffered for RESUME while a
        session is away. Returns the number of sessions it went to."""
        if guild_id is None and data.get("guild_id"):
            guild_id = int(data["guild_id"])
        return await self.gateway.dispatch(event, data, guild_id=guild_id, intent=intent)

    def message_intent(self, msg: Message) -> int:
        """The intent a session needs to get MESSAGE_* events for ``msg``."""
        return INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES

    # ------------------------------------------------------------------ interactions
    async def create_interaction(
        self, user: User, channel: Channel, itype: int, data: dict[str, Any], message: Message | None = None
    ) -> Interaction:
        """Build an INTERACTION_CREATE as Discord does and dispatch it to the session owning the channel's guild.

        While that session's socket is down the event is kept for its RESUME, as on Discord; when no session owns
        the guild's shard nobody gets it (``Interaction.delivered`` False; the user sees "This interaction failed"
        after 3 s). A matching ``inject_interaction_failure`` fault is attached (a ``delay`` backdates the
        interaction). Raises ``RuntimeError`` when no bot has ever identified.
        """
        if self.identify_count == 0:
            raise RuntimeError("devserver: no bot has connected to the gateway")
        now = self.clock.now()
        it = Interaction(
            id=snowflake(),
            token=f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(40)}",
            type=itype,
            user=user,
            channel_id=channel.id,
            data=data,
            created_at=now,
            guild_id=channel.guild_id,
            message_id=message.id if message else None,
            key=interaction_key(itype, data),
        )
        it.fault = next((f for f in self.interaction_faults if f.matches(it.key, itype)), None)
        if it.fault is not None:
            it.fault.hits += 1
            it.created_at = now - it.fault.delay
            if it.fault.delay:  # its snowflake tells its creation, as Discord's does: the bot can see the lag
                it.id = snowflake(ago=it.fault.delay)
        it.last_activity = it.created_at
        it.message_edits_at_start = message.edits if message else 0
        self.interactions[it.id] = it
        payload = interaction_payload(self, it, channel, message)
        it.delivered = await self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id) > 0
        self.notify()
        return it

    def interaction_by_token(self, token: str) -> Interaction | None:
        for it in self.interactions.values():
            if it.token == token:
                return it
        return None


def interaction_key(itype: int, data: dict[str, Any]) -> str:
    """What ``inject_interaction_failure`` matches: a command's path (``"constructo place"``) for commands and
    autocomplete, the ``custom_id`` for components and modal submits."""
    if itype in (2, 4):
        words = [str(data.get("name", ""))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):
            words.append(options[0]["name"])
            options = options[0].get("options") or []
        return " ".join(words)
    return str(data.get("custom_id", ""))
