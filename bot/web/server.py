"""The live table's aiohttp application, run by the bot process when ``WEB_PORT`` is set.

Routes: ``GET /`` (the page), ``GET /static/...`` (its assets, shipped in the package), ``GET /api/config`` (the
client id the Embedded App SDK needs), ``POST /api/token`` (``{"code"}`` -> ``{"access_token"}``: the OAuth2
exchange, :mod:`bot.web.auth`), ``GET /api/state?game=|channel=`` (``Authorization: Bearer <token>``: the current
state for that user, as the socket sends it) and ``GET /ws`` (:mod:`bot.web.session`).

:meth:`WebTable.attach` subscribes the hub to the layer's commits and adds the board's "Play in the live table"
button; :meth:`start` listens; :meth:`close` stops.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

from bot.errors import BotError
from bot.i18n import language_of
from bot.web import button, session
from bot.web.auth import Auth, AuthError
from bot.web.hub import Hub, state_message
from bot.web.settings import WebSettings

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_MEMBERS = 10_000
"""Memberships remembered at most (then forgotten all at once: each is asked again)."""


class WebTable:
    """The live table of one bot: ``settings``, ``auth``, ``hub`` (open pages), ``port`` once started."""

    def __init__(self, bot: Any, settings: WebSettings) -> None:
        self.bot = bot
        self.settings = settings
        app_id = getattr(bot, "application_id", None)
        self.auth = Auth(settings, app_id)
        self.hub = Hub()
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._members: dict[tuple[int, int], float] = {}
        """(guild id, user id) -> when Discord last said they are a member (``time.monotonic()``)."""

    @property
    def layer(self) -> GameLayer:
        return self.bot.games  # type: ignore[no-any-return]

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.bot.spawn(coro, name="live-table")

    def _fresh(self, guild_id: int, user_id: int) -> bool:
        seen = self._members.get((guild_id, user_id))
        return seen is not None and time.monotonic() - seen < self.settings.member_ttl_s

    async def _ask(self, guild_id: int, user_id: int) -> bool | None:
        """Discord's answer (``GET /guilds/{g}/members/{u}``): True, False (not a member), ``None`` (unknown)."""
        try:
            await self.bot.http.get_member(guild_id, user_id)
        except discord.NotFound:
            self._members.pop((guild_id, user_id), None)
            return False
        except discord.HTTPException as err:
            log.info("live table: membership of %s in %s unknown (%s)", user_id, guild_id, err.status)
            return None
        if len(self._members) >= MAX_MEMBERS:
            self._members.clear()
        self._members[(guild_id, user_id)] = time.monotonic()
        return True

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is in the server ``guild_id`` (a page (re)connecting to watch): asked of Discord,
        a yes remembered ``settings.member_ttl_s`` seconds (default 60), a no or an unknown answer never."""
        if self._fresh(guild_id, user_id):
            return True
        return await self._ask(guild_id, user_id) is True

    async def still_member(self, guild_id: int, user_id: int) -> bool:
        """Before a push to a watcher: as :meth:`is_member`, but an unknown answer (Discord unreachable) keeps the
        page open; only Discord's "not a member" closes it."""
        if self._fresh(guild_id, user_id):
            return True
        return await self._ask(guild_id, user_id) is not False

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """GUILD_MEMBER_REMOVE (only with the members intent): forget the member and close their watching pages of
        that server at once."""
        self._members.pop((payload.guild_id, payload.user.id), None)
        await self.hub.drop_watcher(payload.guild_id, payload.user.id)

    def attach(self) -> None:
        """Subscribe to every commit (the hub) and put the launch button under every running board."""
        self.layer.on_committed.append(self.hub.committed)
        self.hub.still_member = self.still_member
        self.bot.add_listener(self.on_raw_member_remove, "on_raw_member_remove")
        self.layer.publisher.board_items.append(button.board_item)
        self.bot.add_dynamic_items(button.LiveTableButton)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        app.router.add_get("/api/config", self.config)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/ws", self.ws)
        app.router.add_static("/static/", STATIC)
        return app

    async def start(self) -> int:
        """Listen on ``settings.host:settings.port`` (0: a free port); returns the port."""
        self._runner = web.AppRunner(self.app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        server = site._server
        self.port = server.sockets[0].getsockname()[1] if server is not None else self.settings.port  # type: ignore[attr-defined]
        log.info("live table on http://%s:%s/", self.settings.host, self.port)
        return int(self.port or 0)

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.auth.close()

    # -- routes --------------------------------------------------------------------------------------------------
    async def index(self, _request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def config(self, _request: web.Request) -> web.Response:
        client_id = self.auth.client_id or getattr(self.bot, "application_id", None)
        self.auth.client_id = client_id
        return web.json_response({"client_id": str(client_id or "")})

    async def token(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            body = {}
        code = str(body.get("code") or "") if isinstance(body, dict) else ""
        if not code:
            return web.json_response({"error": "no code"}, status=400)
        if self.auth.client_id is None:
            self.auth.client_id = getattr(self.bot, "application_id", None)
        try:
            answer = await self.auth.exchange(code)
        except AuthError as err:
            return web.json_response({"error": str(err)}, status=401 if err.status else 502)
        return web.json_response({"access_token": answer["access_token"]})

    async def state(self, request: web.Request) -> web.Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        locale = language_of(request.query.get("locale") or "en")
        try:
            user = await self.auth.who(token)
            snap = await session.find_game(self, dict(request.query))
            seat = snap.players.index(user.id) if user.id in snap.players else None
            if seat is None:
                await session.may_watch(self, snap, user)
            return web.json_response(state_message(snap, seat, locale))
        except AuthError:
            return web.json_response({"error": "not signed in"}, status=401)
        except (BotError, LookupError) as err:
            return web.json_response({"error": session.words(err, locale)}, status=404)

    async def ws(self, request: web.Request) -> web.WebSocketResponse:
        return await session.serve(self, request)


async def start_live_table(bot: Any, env: Mapping[str, str] | None = None) -> WebTable | None:
    """``python -m bot``: when ``WEB_PORT`` is set, start the live table and hand it to ``bot`` (``bot.live_table``,
    attached to the layer in its ``setup_hook``); else ``None``. Raises ``ConfigError`` for bad settings and
    ``OSError`` when the port cannot be bound."""
    settings = WebSettings.from_env(os.environ if env is None else env)
    if not settings.enabled:
        return None
    table = WebTable(bot, settings)
    await table.start()
    bot.live_table = table
    return table
