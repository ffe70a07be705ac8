"""The live table's socket (``bot/web/session.py``): a forged or broken message from a page gets a refusal in words
("reload it"), never "something went wrong", and reaches no game."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.errors import BotError
from bot.i18n import t
from bot.web.auth import WebUser
from bot.web.hub import Page
from bot.web.session import handle


class Hub:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, _page: Any, message: dict[str, Any]) -> None:
        self.sent.append(message)


class NoLayer:
    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a forged message reached the game layer ({name})")


@pytest.mark.parametrize(
    "data",
    [
        {"op": "check", "id": 6, "pose": "zz"},
        {"op": "check", "id": 6, "pose": [1, 2]},
        {"op": "check", "id": 6},
        {"op": "act", "id": 6, "action": "draw"},
        {"op": "act", "id": 6, "action": []},
    ],
)
@pytest.mark.parametrize("locale", ["en", "es"])
async def test_a_forged_action_or_pose_is_refused_in_words(data: dict[str, Any], locale: str) -> None:
    hub = Hub()
    table = SimpleNamespace(hub=hub, layer=NoLayer())
    page = Page(None, 5, 0, locale)  # type: ignore[arg-type]
    await handle(table, page, 1, WebUser(5, "Ann"), data)  # type: ignore[arg-type]
    assert hub.sent == [{"op": "done", "id": 6, "ok": False, "error": t("live.bad_message", locale)}]


async def test_a_flood_of_checks_from_one_page_costs_one_at_a_time() -> None:
    """The page waits for each answer; a forged page that does not gets "one at a time" and no CPU."""
    hub, gate, loading, loads = Hub(), asyncio.Event(), asyncio.Event(), []

    class SlowLayer:
        async def load(self, game_id: int) -> Any:
            loads.append(game_id)
            loading.set()
            await gate.wait()
            raise BotError("err.no_game", id=game_id)

    table = SimpleNamespace(hub=hub, layer=SlowLayer())
    page = Page(None, 5, 0, "en")  # type: ignore[arg-type]
    user = WebUser(5, "Ann")
    pose = {"card": 1, "x": 0, "y": 0, "rotation": 0}
    first = asyncio.create_task(handle(table, page, 1, user, {"op": "check", "id": 1, "pose": pose}))  # type: ignore[arg-type]
    await loading.wait()
    flood = asyncio.gather(*(handle(table, page, 1, user, {"op": "check", "id": n, "pose": pose}) for n in (2, 3)))  # type: ignore[arg-type]
    await asyncio.wait_for(flood, 30)  # a guard: without the limit the flood waits on the gate with the first
    assert [m["id"] for m in hub.sent] == [2, 3] and all(m["error"] == t("live.one_at_a_time", "en") for m in hub.sent)
    assert loads == [1], "the flood loaded nothing"
    gate.set()
    await first
    await handle(table, page, 1, user, {"op": "check", "id": 4, "pose": pose})  # type: ignore[arg-type]
    assert loads == [1, 1] and [m["id"] for m in hub.sent] == [2, 3, 1, 4], "answered, the page may ask again"
