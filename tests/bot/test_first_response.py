"""The first-response guard (bot/first_response.py): a handler too slow for Discord's 3 s still gets exactly one
first response, of the right kind, and its own answer follows through the interaction."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, start
from tests.bot.fakediscord import CHANNEL_ID, FakeDiscord

ALICE, BOB = 1, 2


@pytest.fixture
def slow(bot: TableBot, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every game action takes 0.3 s; the guard answers after 0.05 s."""
    monkeypatch.setattr(bot.first_response, "budget_s", 0.05)
    real = bot.games.transact

    async def slow_transact(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.games, "transact", slow_transact)
    return bot


async def test_a_slow_click_is_a_deferred_update_then_its_board_follows(
    slow: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game_id = await start(driver, fake, storage)  # Accept: deferred update, the challenge edited through @original
    record = await storage.get_game(game_id)
    assert record is not None and record.status == "active"
    accept_token = [t for t, i in fake.tokens.items() if t in fake.component_message][-1]
    callbacks = fake.callbacks(accept_token)
    assert [c.payload["type"] for c in callbacks] == [6]  # type: ignore[index]
    assert slow.first_response.answered >= 1
    board = fake.messages[record.messages["board"]]
    assert board["attachments"], "the first board came as a followup"


async def test_a_slow_command_gets_public_thinking_and_a_private_refusal_stays_private(
    slow: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start(driver, fake, storage)
    token = await driver.command("constructo place", BOB, tile=5, size="large")  # not Bob's turn
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5  # type: ignore[index]  # the guard's thinking
    assert [c.method for c in calls[1:]] == ["DELETE", "POST"]  # thinking removed, then the private refusal
    assert "It is not your turn" in fake.visible_text(token)


async def test_a_slow_autocomplete_gets_no_choices_in_time(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await start(driver, fake, storage)
    monkeypatch.setattr(bot.first_response, "budget_s", 0.05)
    real = storage.get_game

    async def slow_get(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "get_game", slow_get)
    monkeypatch.setattr(storage, "active_game_in_channel", lambda *a, **k: slow_get(1))
    choices = await driver.autocomplete("constructo place", ALICE, "tile", channel_id=CHANNEL_ID, tile="", size="large")
    assert choices == []


async def test_a_loaded_process_answers_sooner_and_a_quiet_one_answers_with_the_result(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One load-aware mechanism: the guard's budget is ``budget_s`` normally and ``busy_budget_s`` while more than
    ``busy_after`` interactions wait for their first response (the answer must not queue behind storage)."""
    await start(driver, fake, storage)
    monkeypatch.setattr(bot.first_response, "budget_s", 10.0)
    monkeypatch.setattr(bot.first_response, "busy_budget_s", 0.05)
    monkeypatch.setattr(bot.first_response, "busy_after", 2)
    real = storage.active_game_in_channel

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "active_game_in_channel", slow)
    quiet = await driver.command("constructo place", BOB, tile=5, size="large")  # not Bob's turn: refused
    assert fake.calls_for(quiet)[0].payload["type"] == 4, "one at a time: answered with the refusal itself"  # type: ignore[index]
    tokens = []
    for _ in range(5):
        payload, token = driver._base(2, BOB, CHANNEL_ID)
        payload["data"], _ = driver._command_data("constructo place", {"tile": 5, "size": "large"}, None)
        bot._connection.parse_interaction_create(payload)
        tokens.append(token)
    await driver.settle()
    first = [fake.calls_for(t)[0].payload["type"] for t in tokens]  # type: ignore[index]
    assert first.count(5) >= 1, f"with more than busy_after waiting, the guard answered early: {first}"
    for token in tokens:
        driver.assert_one_response(token)


async def test_an_answer_racing_the_guard_fills_the_guards_thinking(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guard may answer between a handler's "not answered yet?" check and its first response (more often under
    load, when the guard's budget is short): the handler's answer then fills the guard's thinking message instead
    of failing (the challenge message is the interaction's original response, never deleted)."""
    import discord
    from discord.interactions import InteractionResponse

    from bot.first_response import GuardedResponse

    async def raced(self: GuardedResponse, *args: Any, **kwargs: Any) -> Any:
        await InteractionResponse.defer(self, thinking=True)  # the guard, first
        self._parent.extras["loading"] = "public"
        self.responded.set()
        raise discord.InteractionResponded(self._parent)

    monkeypatch.setattr(GuardedResponse, "send_message", raced)
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5  # type: ignore[index]
    assert not [c for c in calls if c.method == "DELETE"], "the thinking message is filled, not deleted"
    assert any(i.startswith("cx:acc:") for i in all_custom_ids(fake.messages[fake.originals[token]]))


async def test_a_slow_private_command_gets_private_thinking_and_no_public_flash(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command declared ``extras=PRIVATE_ANSWER`` (``/mygames``) never shows a public "thinking", however slow."""
    monkeypatch.setattr(bot.first_response, "budget_s", 0.05)
    await start(driver, fake, storage)
    real = storage.list_active_games

    async def slow_list(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "list_active_games", slow_list)
    token = await driver.command("mygames", ALICE)
    calls = fake.calls_for(token)
    first = calls[0].payload
    assert first["type"] == 5 and first["data"]["flags"] & 64, first  # type: ignore[index]  # private thinking
    assert "DELETE" not in [c.method for c in calls], "the private thinking is filled in, not replaced"
    assert "your turn" in fake.visible_text(token)
