"""One page's WebSocket (``/ws``): authenticate, send the current state, apply actions, preview poses.

Messages (JSON objects, ``op`` names the kind):

- page -> server: ``{"op": "hello", "access_token": str, "game": int | null, "channel": str | null, "locale":
  "en" | "es"}`` first (the game by id, else the open game of the channel the Activity runs in); then
  ``{"op": "act", "id": n, "version": v, "action": {"type": ...}}`` and ``{"op": "check", "id": n, "pose": {...}}``.
- server -> page: ``{"op": "state", ...}`` (:func:`bot.web.hub.state_message`) at once and after every commit;
  ``{"op": "done", "id": n, "ok": true}`` or ``{"op": "done", "id": n, "ok": false, "error": words}``;
  ``{"op": "checked", "id": n, ...}`` (the adapter's preview); ``{"op": "error", "error": words}`` before closing.

An action goes through :meth:`GameLayer.perform` (no interaction: the board is posted in the game's channel) and
:meth:`GameLayer.act` with the version the page saw (``expected_version``): the same walk as a command or a button,
and of two actions at once only one applies (the loser is told "someone acted at the same moment").
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import WSMsgType, web

from bot.errors import BotError, describe
from bot.i18n import DEFAULT_LANGUAGE, MESSAGES, language_of, t
from bot.locales.en_live import MESSAGES as LIVE_MESSAGES
from bot.web.adapter import live_of
from bot.web.auth import AuthError, WebUser
from bot.web.hub import Page, state_message
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer
    from bot.web.auth import Auth
    from bot.web.hub import Hub


class WebTable(Protocol):
    """What a socket needs of the live table (:class:`bot.web.server.WebTable`)."""

    auth: Auth
    hub: Hub

    @property
    def layer(self) -> GameLayer: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...

    async def is_member(self, guild_id: int, user_id: int) -> bool: ...


log = logging.getLogger(__name__)

HELLO_TIMEOUT_S = 20.0
BUSY_OPS = ("act", "check", "state")
"""A page's requests answered one at a time per op (the page waits for each answer): a flood costs no CPU."""


def words(err: BaseException, locale: str | None) -> str:
    """What a player reads for a refusal: the bot's own words (``bot.errors.describe``) as plain text for the page:
    Markdown bold and the backslash escapes of names (``john\\_doe``, ``bot.core.names.shown``) removed."""
    return _ESCAPED.sub(r"\1", describe(err, locale).replace("**", ""))


_ESCAPED = re.compile(r"\\([^\w\s]|_)")
"""A backslash-escaped Markdown character (``\\_``, ``\\*``, ``\\[``): the page shows the character itself."""


def page_words(locale: str | None) -> dict[str, str]:
    """Every ``live.page.*`` text in ``locale``, keyed without the prefix (the page formats ``{name}`` itself)."""
    own, english = MESSAGES[language_of(locale)], MESSAGES[DEFAULT_LANGUAGE]
    return {k.removeprefix("live.page."): own.get(k) or english[k] for k in LIVE_MESSAGES if k.startswith("live.page.")}


async def may_watch(table: WebTable, snap: Snapshot, user: WebUser) -> None:
    """A spectator must be a member of the game's server (asked of Discord, ``GET /guilds/{id}/members/{user}``);
    a game in a DM or group DM is shown to its players only. Raises ``BotError("live.not_member")``."""
    guild_id = snap.record.guild_id
    if guild_id is None or not await table.is_member(guild_id, user.id):
        raise BotError("live.not_member")


async def find_game(table: WebTable, hello: dict[str, Any]) -> Snapshot:
    """The game a page asks for: ``game`` (an id) or the open game of ``channel``. Raises ``BotError``."""
    layer = table.layer
    game = hello.get("game")
    if isinstance(game, int | str) and str(game).isdigit():
        return await layer.load(int(game))
    channel = str(hello.get("channel") or "")
    if channel.isdigit():
        record = await layer.storage.active_game_in_channel(int(channel))
        if record is not None:
            return layer.snapshot(record)
    raise BotError("err.no_game_in_channel")


async def serve(table: WebTable, request: web.Request) -> web.WebSocketResponse:
    """Run one page's socket until it closes (see the module docstring)."""
    ws = web.WebSocketResponse(heartbeat=30.0)
    await ws.prepare(request)
    try:
        raw = await ws.receive(timeout=HELLO_TIMEOUT_S)
        hello = json.loads(raw.data) if raw.type == WSMsgType.TEXT else {}
    except (TimeoutError, ValueError):
        hello = {}
    locale = language_of(str(hello.get("locale") or "en")) if isinstance(hello, dict) else "en"
    try:
        if not isinstance(hello, dict) or hello.get("op") != "hello":
            raise BotError("live.bad_hello")
        user = await table.auth.who(str(hello.get("access_token") or ""))
        snap = await find_game(table, hello)
        if live_of(snap.kind) is None:
            raise BotError("live.no_live_table")
        seat = snap.players.index(user.id) if user.id in snap.players else None
        if seat is None:
            await may_watch(table, snap, user)
        you = {"id": str(user.id), "name": user.name}
        first = state_message(snap, seat, locale, you=you, words=page_words(locale))
    except Exception as err:  # refused, or broken: the page says so in words and stops retrying
        if not isinstance(err, AuthError | BotError):
            log.exception("live table: a page could not open its game")
        text = t("live.not_signed_in", locale) if isinstance(err, AuthError) else words(err, locale)
        await ws.send_json({"op": "error", "error": text})
        await ws.close()
        return ws
    page = Page(ws, user.id, seat, locale, snap.record.guild_id)
    table.hub.join(snap.id, page)
    try:
        await table.hub.send(page, first)
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                data = json.loads(msg.data)
            except ValueError:
                continue
            if isinstance(data, dict):
                table.spawn(handle(table, page, snap.id, user, data))
    finally:
        table.hub.leave(snap.id, page)
    return ws


async def handle(table: WebTable, page: Page, game_id: int, user: WebUser, data: dict[str, Any]) -> None:
    """One ``act`` or ``check`` message; the answer goes back on the page's socket."""
    op, ident = data.get("op"), data.get("id")
    if op in BUSY_OPS and op in page.busy:  # a flood (the page waits for each answer): no CPU for it
        await table.hub.send(
            page, {"op": "done", "id": ident, "ok": False, "error": t("live.one_at_a_time", page.locale)}
        )
        return
    if op in BUSY_OPS:
        page.busy.add(str(op))
    try:
        if op == "act":
            await act(table, page, game_id, user, data)
            await table.hub.send(page, {"op": "done", "id": ident, "ok": True})
        elif op == "check":
            result = await check(table, page, game_id, payload(data, "pose"))
            await table.hub.send(page, {"op": "checked", "id": ident, **result})
        elif op == "state":
            snap = await table.layer.load(game_id)
            await table.hub.push(page, state_message(snap, page.seat, page.locale))
    except (RuleError, BotError) as err:
        await table.hub.send(page, {"op": "done", "id": ident, "ok": False, "error": words(err, page.locale)})
    except asyncio.CancelledError:
        raise
    except Exception as err:
        log.exception("live table: %s of user %s on game %s failed", op, user.id, game_id)
        await table.hub.send(page, {"op": "done", "id": ident, "ok": False, "error": words(err, page.locale)})
    finally:
        page.busy.discard(str(op))


def payload(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` when it is an object (a page's action or pose). Raises ``BotError("live.bad_message")`` for
    anything else (a forged or broken message): refused in words, never "something went wrong"."""
    found = data.get(key)
    if not isinstance(found, dict):
        raise BotError("live.bad_message")
    return found


async def act(table: WebTable, page: Page, game_id: int, user: WebUser, data: dict[str, Any]) -> None:
    """Apply the page's action through the layer (raises the refusal)."""
    if page.seat is None:
        raise BotError("live.watching")
    given = payload(data, "action")
    layer = table.layer
    snap = await layer.load(game_id)
    live = live_of(snap.kind)
    assert live is not None
    action, request = live.action(snap, page.seat, given)
    version = data.get("version")
    expected = version if isinstance(version, int) and not isinstance(version, bool) else None
    await layer.perform(
        None, layer.act(game_id, user.id, action, expected_version=expected, request=request, base=snap)
    )


async def check(table: WebTable, page: Page, game_id: int, pose: dict[str, Any]) -> dict[str, Any]:
    """The adapter's legality preview of ``pose`` for the page's seat (no write)."""
    if page.seat is None:
        raise BotError("live.watching")
    snap = await table.layer.load(game_id)
    live = live_of(snap.kind)
    if live is None or live.check is None:
        return {"legal": False}
    result: dict[str, Any] = await live.check(table.layer.cpu, snap, page.seat, pose, page.locale)
    return result
