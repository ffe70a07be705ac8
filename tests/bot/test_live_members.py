"""The live table's watchers stay members of the game's server (``bot/web/server.py``, ``bot/web/hub.py``):
a membership is remembered ``member_ttl_s`` (60 s by default) and asked of Discord again after; Discord's "not a
member" closes a watcher's page before a push; an unknown answer keeps it; GUILD_MEMBER_REMOVE closes that
user's watching pages of that server at once (not their seated pages, nor other servers')."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.config import ConfigError
from bot.i18n import t
from bot.web import server as web_server
from bot.web.hub import Page
from bot.web.server import WebTable
from bot.web.settings import WebSettings

G, OTHER_G = 10, 20


class Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "x"


class Http:
    """``get_member``: members in ``present``; 404 Unknown Member for others; ``broken``: a 503 for everyone."""

    def __init__(self) -> None:
        self.present: set[tuple[int, int]] = set()
        self.broken = False
        self.asked: list[tuple[int, int]] = []

    async def get_member(self, guild_id: int, user_id: int) -> dict[str, Any]:
        self.asked.append((guild_id, user_id))
        if self.broken:
            raise discord.HTTPException(Response(503), "unavailable")  # type: ignore[arg-type]
        if (guild_id, user_id) not in self.present:
            raise discord.NotFound(Response(404), {"code": 10007, "message": "Unknown Member"})  # type: ignore[arg-type]
        return {}


class Socket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = False

    async def send_json(self, message: dict[str, Any]) -> None:
        assert not self.closed
        self.sent.append(message)

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(web_server.time, "monotonic", lambda: now[0])
    return now


def table(http: Http) -> WebTable:
    return WebTable(SimpleNamespace(http=http, application_id=1), WebSettings(port=0))


async def test_a_membership_is_remembered_a_minute_then_asked_again(clock: list[float]) -> None:
    http = Http()
    http.present.add((G, 5))
    web = table(http)
    assert await web.is_member(G, 5) and await web.still_member(G, 5)
    assert http.asked == [(G, 5)], "asked once within the minute"
    clock[0] += 59.0
    assert await web.still_member(G, 5) and len(http.asked) == 1
    http.present.discard((G, 5))
    clock[0] += 2.0
    assert not await web.still_member(G, 5) and len(http.asked) == 2, "after the minute: asked again, and gone"
    assert not await web.is_member(G, 5) and len(http.asked) == 3, "a no is never remembered"


async def test_an_unknown_answer_keeps_a_watching_page_but_lets_no_new_one_in(clock: list[float]) -> None:
    http = Http()
    http.present.add((G, 5))
    web = table(http)
    assert await web.is_member(G, 5)
    clock[0] += 61.0
    http.broken = True
    assert await web.still_member(G, 5), "Discord unreachable: the open page stays"
    assert not await web.is_member(G, 5), "but a (re)connect is not let in on an unknown answer"


async def test_a_push_to_a_watcher_who_left_closes_the_page_and_a_player_still_gets_it(clock: list[float]) -> None:
    http = Http()
    http.present |= {(G, 5), (G, 6)}
    web = table(http)
    web.hub.still_member = web.still_member
    gone, stays, player = (
        Page(Socket(), 5, None, "es", G),
        Page(Socket(), 6, None, "en", G),
        Page(Socket(), 5, 0, "en", G),
    )  # type: ignore[arg-type]
    for page in (gone, stays, player):
        web.hub.join(1, page)
    http.present.discard((G, 5))
    state = {"op": "state", "version": 3}
    for page in (gone, stays, player):
        await web.hub.push(page, state)
    assert gone.ws.sent == [{"op": "error", "error": t("live.not_member", "es")}] and gone.ws.closed
    assert stays.ws.sent == [state] and player.ws.sent == [state], "a member watching and a seated player get it"


async def test_member_remove_closes_that_users_watching_pages_of_that_server_only(clock: list[float]) -> None:
    web = table(Http())
    pages = {
        "watching": Page(Socket(), 5, None, "en", G),
        "seated": Page(Socket(), 5, 1, "en", G),
        "elsewhere": Page(Socket(), 5, None, "en", OTHER_G),
        "someone else": Page(Socket(), 6, None, "en", G),
    }  # type: ignore[arg-type]
    for n, page in enumerate(pages.values()):
        web.hub.join(n, page)  # type: ignore[arg-type]
    user = discord.User(state=None, data={"id": 5, "username": "ann", "discriminator": "0", "avatar": None})  # type: ignore[arg-type]
    await web.on_raw_member_remove(discord.RawMemberRemoveEvent({"guild_id": G, "user": {}}, user))  # type: ignore[arg-type, typeddict-item]
    closed = {name for name, page in pages.items() if page.ws.closed}
    assert closed == {"watching"}
    assert pages["watching"].ws.sent == [{"op": "error", "error": t("live.not_member", "en")}]


def test_the_membership_time_is_read_from_the_environment() -> None:
    assert WebSettings.from_env({}).member_ttl_s == 60.0
    assert WebSettings.from_env({"WEB_MEMBER_TTL_S": "0"}).member_ttl_s == 0.0
    for bad in ("-1", "soon", "nan", "4000"):
        with pytest.raises(ConfigError):
            WebSettings.from_env({"WEB_MEMBER_TTL_S": bad})
