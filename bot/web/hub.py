"""The open pages of each game, told the new state after every commit (the layer's ``on_committed`` hook, as the
publisher and the timers subscribe), whatever made it: a page, a slash command, a button, the AI, a clock.

Each page gets the view of its own seat (:meth:`LiveGame.view`): a hidden hand is built only into its owner's
message. A commit made by another process (shards on PostgreSQL) reaches the pages of this process when the page
reconnects or the next local commit of the game comes (README "The live table").

A watcher (a page without a seat) must stay a member of the game's server: before each push to it the hub asks
``still_member`` (the live table's, remembered ``WEB_MEMBER_TTL_S``), and a member removed (``on_raw_member_remove``,
:meth:`Hub.drop_watcher`) has their watching pages of that server closed at once, with the refusal in words.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.errors import BotError, describe
from bot.web.adapter import live_of

if TYPE_CHECKING:
    from aiohttp import web

    from bot.core.changes import Committed
    from bot.core.kind import Snapshot

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 5.0
"""A page that does not take a message in this long is dropped (it reconnects and gets the current state)."""


@dataclass(eq=False)
class Page:
    """One open page: its socket, user, seat (``None``: watching), language and the game's server (``guild_id``;
    ``None``: a DM game, or not known)."""

    ws: web.WebSocketResponse
    user_id: int
    seat: int | None
    locale: str | None
    guild_id: int | None = None
    sent_version: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    busy: set[str] = field(default_factory=set)
    """The ops of this page being answered (``session.BUSY_OPS``): one of each at a time (the page sends no more)."""


def state_message(snap: Snapshot, seat: int | None, locale: str | None, **extra: Any) -> dict[str, Any]:
    """The ``{"op": "state", ...}`` message of ``snap`` for ``seat``: the adapter's view plus the game's id,
    kind, version, status, seat names and the viewer's seat. Raises ``LookupError`` for a game without adapter."""
    live = live_of(snap.kind)
    if live is None:
        raise LookupError(snap.kind.name)
    return {
        "op": "state",
        "game": snap.id,
        "kind": snap.kind.name,
        "version": snap.version,
        "status": snap.status,
        "names": snap.names,
        "seat": seat,
        "sent_at": time.time(),
        "view": live.view(snap, seat, locale),
        **extra,
    }


class Hub:
    """Pages per game id. ``committed`` is the layer hook; ``on_sent`` (tests, the bench) hears each message."""

    def __init__(self) -> None:
        self.pages: dict[int, set[Page]] = {}
        self.on_sent: list[Callable[[Page, dict[str, Any]], None]] = []
        self.still_member: Callable[[int, int], Awaitable[bool]] | None = None
        """``(guild id, user id) -> still a member?`` asked before each push to a watcher (``None``: not asked)."""

    def join(self, game_id: int, page: Page) -> None:
        self.pages.setdefault(game_id, set()).add(page)

    def leave(self, game_id: int, page: Page) -> None:
        pages = self.pages.get(game_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[game_id]

    async def send(self, page: Page, message: dict[str, Any]) -> None:
        """Send ``message`` to ``page`` (a state older than one it already has is skipped); a page that fails or
        is too slow is closed."""
        async with page.lock:
            version = message.get("version")
            if message.get("op") == "state" and isinstance(version, int):
                if version < page.sent_version:
                    return
                page.sent_version = version
            try:
                await asyncio.wait_for(page.ws.send_json(message), SEND_TIMEOUT_S)
            except (TimeoutError, ConnectionError, RuntimeError) as err:
                log.info("live page of user %s dropped: %s", page.user_id, type(err).__name__)
                await page.ws.close()
                return
        for hear in self.on_sent:
            hear(page, message)

    async def committed(self, committed: Committed) -> None:
        """The layer's ``on_committed`` hook: every page of the game gets the state of its seat."""
        snap = committed.snap
        pages = list(self.pages.get(snap.id, ()))
        if not pages:
            return
        built: dict[tuple[int | None, str | None], dict[str, Any]] = {}
        for page in pages:
            key = (page.seat, page.locale)
            if key not in built:
                built[key] = state_message(snap, page.seat, page.locale)
        await asyncio.gather(*(self.push(p, built[(p.seat, p.locale)]) for p in pages))

    async def push(self, page: Page, message: dict[str, Any]) -> None:
        """:meth:`send` a game's state, to a watcher only while they are still a member of the game's server (else
        the page is told so and closed)."""
        if page.seat is None and page.guild_id is not None and self.still_member is not None:
            if not await self.still_member(page.guild_id, page.user_id):
                await self.shut(page)
                return
        await self.send(page, message)

    async def shut(self, page: Page) -> None:
        """Tell ``page`` it may no longer watch (``live.not_member``, in its language) and close it."""
        text = describe(BotError("live.not_member"), page.locale).replace("**", "")
        log.info("live page of user %s closed: not a member of server %s", page.user_id, page.guild_id)
        await self.send(page, {"op": "error", "error": text})
        await page.ws.close()

    async def drop_watcher(self, guild_id: int, user_id: int) -> int:
        """Close every watching page of ``user_id`` on a game of ``guild_id`` (they left it). Returns how many."""
        gone = [
            p
            for pages in self.pages.values()
            for p in pages
            if p.user_id == user_id and p.seat is None and p.guild_id == guild_id
        ]
        await asyncio.gather(*(self.shut(p) for p in gone))
        return len(gone)
