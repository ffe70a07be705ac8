"""The live table's socket (``bot/web/session.py``): a forged or broken message from a page gets a refusal in words
("reload it"), never "something went wrong", and reaches no game."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import t
from bot.web.auth import WebUser
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
    page = SimpleNamespace(seat=0, locale=locale)
    await handle(table, page, 1, WebUser(5, "Ann"), data)  # type: ignore[arg-type]
    assert hub.sent == [{"op": "done", "id": 6, "ok": False, "error": t("live.bad_message", locale)}]
