"""Admission (bot/core/admission.py): when every action slot is taken, an interaction's first response is sent
before its work waits for a slot; its board lags, its answer does not. A refusal still reads true and private."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.app import TableBot
from bot.core.admission import Admission
from bot.services import publish
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, OTHER_CHANNEL_ID, FakeDiscord

ALICE, BOB, CAROL, DAN = 1, 2, 3, 4
SLOW_BOARD_S = 1.0


async def start(driver: Driver, fake: FakeDiscord, a: int, b: int, channel_id: int) -> int:
    token = await driver.command("constructo challenge", a, channel_id, opponent=b)
    challenge = fake.originals[token]
    game_id = int(all_custom_ids(fake.messages[challenge])[0].split(":")[2])
    await driver.click(challenge, f"cx:acc:{game_id}", b, channel_id=channel_id)
    return game_id


@pytest.fixture
async def crowded(bot: TableBot, driver: Driver, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> TableBot:
    """Two games started; then one action slot, boards that take 1 s to draw, and a guard that would wait 10 s
    before answering by itself (so any early first response below is admission's)."""
    await start(driver, fake, ALICE, BOB, CHANNEL_ID)
    await start(driver, fake, CAROL, DAN, OTHER_CHANNEL_ID)
    bot.games.admission = Admission(1, hurry=bot.first_response.now)
    monkeypatch.setattr(bot.first_response, "budget_s", 10.0)
    monkeypatch.setattr(bot.first_response, "busy_budget_s", 10.0)
    real = publish.render_png

    def slow_render(*args: Any, **kwargs: Any) -> bytes:
        time.sleep(SLOW_BOARD_S)  # in a thread of the test's CPU lane (CPU_WORKERS=0), like a loaded worker
        return real(*args, **kwargs)

    monkeypatch.setattr(publish, "render_png", slow_render)
    return bot


def place(driver: Driver, uid: int, channel_id: int, tile: int) -> tuple[str, float]:
    """Dispatch ``/constructo place`` without waiting; returns (token, when)."""
    payload, token = driver._base(2, uid, channel_id)
    payload["data"], _ = driver._command_data("constructo place", {"tile": tile, "size": "small"}, None)
    sent = time.perf_counter()
    driver.bot._connection.parse_interaction_create(payload)
    return token, sent


async def first_call_at(fake: FakeDiscord, token: str) -> float:
    for _ in range(500):
        if fake.callbacks(token):
            return fake.callbacks(token)[0].at
        await asyncio.sleep(0.01)
    raise AssertionError(f"no first response for {token}")


async def test_an_action_waiting_for_a_slot_is_answered_first_and_its_board_follows(
    crowded: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    before = await storage.active_game_in_channel(OTHER_CHANNEL_ID)
    assert before is not None
    busy, _ = place(driver, ALICE, CHANNEL_ID, 1)  # holds the only slot for ~1 s (its board)
    await asyncio.sleep(0.2)
    waiting, sent = place(driver, CAROL, OTHER_CHANNEL_ID, 2)
    answered = await first_call_at(fake, waiting)
    assert answered - sent < 0.5, f"first response after {answered - sent:.2f} s: it queued behind the other board"
    assert fake.callbacks(waiting)[0].payload["type"] == 5  # type: ignore[index]  # public "thinking"
    assert crowded.games.admission.hurried == 1
    await driver.settle()
    for token in (busy, waiting):
        driver.assert_one_response(token)
    board = [c for c in fake.calls_for(waiting) if c.method == "PATCH" and c.files]
    assert board and board[-1].at - sent > 1.5 * SLOW_BOARD_S, "its work waited for the slot: the board came later"
    game = await storage.active_game_in_channel(OTHER_CHANNEL_ID)
    assert game is not None and game.version == before.version + 1


async def test_a_refusal_queued_behind_a_slot_is_private_and_changes_nothing(
    crowded: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Rule T1 (turn order): Dan may not move first. Answered at once by a public "thinking", the refusal then
    replaces it with a private answer; the game is unchanged."""
    before = await storage.active_game_in_channel(OTHER_CHANNEL_ID)
    assert before is not None
    place(driver, ALICE, CHANNEL_ID, 1)
    await asyncio.sleep(0.2)
    token, sent = place(driver, DAN, OTHER_CHANNEL_ID, 2)  # not Dan's turn
    assert await first_call_at(fake, token) - sent < 0.5
    await driver.settle()
    calls = fake.calls_for(token)
    assert [c.method for c in calls] == ["POST", "DELETE", "POST"]  # thinking, removed, the private refusal
    assert calls[-1].payload["flags"] & EPHEMERAL  # type: ignore[index]
    assert "It is not your turn" in fake.visible_text(token)
    game = await storage.active_game_in_channel(OTHER_CHANNEL_ID)
    assert game is not None and game.version == before.version and game.state == before.state


async def test_actions_without_an_interaction_are_not_held() -> None:
    """AI seats, timers and recovery hold no token: they neither wait for a slot nor take one."""
    admission = Admission(1)
    async with admission.admit(object()):
        assert admission.full
        async with asyncio.timeout(0.5):
            async with admission.admit(None):
                pass


async def test_while_busy_a_new_interaction_is_answered_before_any_of_its_work(
    crowded: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two slots, one working (half: busy): the next command is answered at once by the guard, before its channel
    lookup (made to take 0.5 s here) has even returned; then it works in the free slot."""
    crowded.games.admission = Admission(2, hurry=crowded.first_response.now)
    crowded.first_response.pressure = lambda: crowded.games.admission.busy
    monkeypatch.setattr(crowded.first_response, "busy_budget_s", 0.0)
    place(driver, ALICE, CHANNEL_ID, 1)
    await asyncio.sleep(0.2)
    assert crowded.games.admission.busy and not crowded.games.admission.full
    real = storage.active_game_in_channel

    async def slow_lookup(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "active_game_in_channel", slow_lookup)
    token, sent = place(driver, CAROL, OTHER_CHANNEL_ID, 2)
    assert await first_call_at(fake, token) - sent < 0.3, "answered before its work, not after the lookup"
    assert crowded.games.admission.hurried == 0  # a free slot: not admission's answer, the guard's
    await driver.settle()
    driver.assert_one_response(token)
    assert [c for c in fake.calls_for(token) if c.method == "PATCH" and c.files], "its board filled the answer"
