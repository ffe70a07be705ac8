"""``within``: an action is deferred after 2 s normally, but after 0.5 s while the process has more than
``BUSY_ACTIONS`` actions in progress (the first response must not wait for a storage queue under load)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.games import delivery


class FakeInteraction:
    def __init__(self) -> None:
        self.deferred_at: float | None = None
        self.extras: dict[str, Any] = {}
        self.id = 1
        outer = self

        class Response:
            def is_done(self) -> bool:
                return outer.deferred_at is not None

            async def defer(self, **_: Any) -> None:
                outer.deferred_at = asyncio.get_running_loop().time()

        self.response = Response()


async def test_a_loaded_process_defers_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delivery, "DEFER_AFTER_S", 0.4)
    monkeypatch.setattr(delivery, "BUSY_DEFER_AFTER_S", 0.05)
    monkeypatch.setattr(delivery, "BUSY_ACTIONS", 2)

    async def slow(seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"

    quiet = FakeInteraction()
    assert await delivery.within(quiet, slow(0.2)) == "done"  # type: ignore[arg-type]
    assert quiet.deferred_at is None, "a quiet process answers with the result, no defer"

    busy = [FakeInteraction() for _ in range(4)]
    results = await asyncio.gather(*(delivery.within(it, slow(0.2)) for it in busy))  # type: ignore[arg-type]
    assert results == ["done"] * 4
    late = [it for it in busy if it.deferred_at is not None]
    assert late, "with more actions in progress than BUSY_ACTIONS, they are deferred before they finish"
    assert delivery._in_progress == 0
