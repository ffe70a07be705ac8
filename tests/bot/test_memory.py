"""Memory (issue 20, "one core for every action"): what the bot keeps per game in memory is dropped when the game
closes, and an answered interaction is kept as its webhook, not as the whole ``discord.Interaction``.

Handler-level tests with the real bot, storage, engine and render (Discord recorded at the HTTP seams). Each checks
every per-game map of the layer and its services for the game's id after the game finished or was aborted.
"""

from __future__ import annotations

import gc
from typing import Any

import discord

from bot.app import TableBot
from bot.services import agreements
from bot.services.answered import Answered
from bot.storage import Storage
from tests.bot.conftest import Driver, initial, start
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, FakeDiscord

ALICE, BOB, ADMIN = 1, 2, 4


def kept(bot: TableBot, game_id: int) -> list[str]:
    """The per-game maps of the layer and its services that still hold an entry for ``game_id``."""
    gc.collect()  # the weak maps (locks) drop a lock nobody holds only once it is collected
    layer = bot.games
    maps: dict[str, Any] = {
        "layer._locks": layer._locks,
        "publisher._locks": layer.publisher._locks,
        "publisher._recent": layer.publisher._recent,
        "publisher.blocked": layer.publisher.blocked,
        "publisher._inflight": layer.publisher._inflight,
        "publisher._unrecorded": layer.publisher._unrecorded,
        "ai._latest": layer.ai._latest,
        "ai._tasks": layer.ai._tasks,
        "ai._searched": layer.ai._searched,
        "outbox._games": layer.outbox._games,
        "outbox._queues": layer.outbox._queues,
    }
    found = [name for name, held in maps.items() if game_id in held]
    found += [f"agreements._LOCKS[{key}]" for key in list(agreements._LOCKS) if key.endswith(f":{game_id}")]
    return found


async def assert_forgotten(bot: TableBot, driver: Driver, storage: Storage, game_id: int, status: str) -> None:
    """Once everything the close owed is done, the game is ``status`` and no per-game map holds it."""
    await driver.settle()
    await bot.games.ai.idle()
    record = await storage.get_game(game_id)
    assert record is not None and record.status == status
    assert kept(bot, game_id) == []


async def resign(driver: Driver, fake: FakeDiscord, game_id: int, who: int) -> None:
    """``who`` resigns (the command asks first; the confirmation finishes the game: rule M3)."""
    ask = await driver.command("constructo resign", who)
    assert initial(fake, ask)["data"]["components"], "the resignation asks first"
    await driver.click(fake.originals[ask], f"cx:rsy:{game_id}", who)


async def test_a_finished_game_leaves_no_entry_in_any_per_game_map(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    for tile, who in ((5, ALICE), (4, BOB)):
        await driver.command("constructo place", who, tile=tile, size="large")
    await driver.command("abandon", BOB)  # an abort offer: its agreement had a lock of its own
    await resign(driver, fake, game, ALICE)  # rule M3: Bob wins
    await assert_forgotten(bot, driver, storage, game, "finished")


async def test_a_finished_game_against_the_ai_leaves_no_entry_in_any_per_game_map(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOT_ID, level="easy")
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None
    await driver.command("constructo place", ALICE, tile=5, size="large")  # the AI answers
    await bot.games.ai.idle()
    assert (await storage.get_game(record.id)).version == 2  # type: ignore[union-attr]  # the AI answered
    await resign(driver, fake, record.id, ALICE)
    await assert_forgotten(bot, driver, storage, record.id, "finished")


async def test_an_aborted_game_leaves_no_entry_in_any_per_game_map(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("abort", ADMIN, admin=True)  # an admin not seated: aborted at once, no last board
    await assert_forgotten(bot, driver, storage, game, "aborted")


async def test_answered_interactions_are_kept_as_their_webhook_not_the_interaction(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    for tile, who in ((5, ALICE), (4, BOB), (6, ALICE)):
        await driver.command("constructo place", who, tile=tile, size="large")
    publisher = bot.games.publisher
    delivery = publisher.delivery
    kept_routes = [a for a, _original in delivery._sent_by.values()] + list(delivery._latest.values())
    kept_routes += list(publisher._recent.values())
    assert delivery.remembered >= 3 and publisher._recent.get(game) is not None
    assert all(isinstance(a, Answered) for a in kept_routes), {type(a).__name__ for a in kept_routes}
    assert not any(isinstance(getattr(a, name, None), discord.Interaction) for a in kept_routes for name in a.__slots__)
    # one per interaction, whatever number of messages it sent
    assert len({id(a) for a in kept_routes}) == len({a.id for a in kept_routes})
    # and they still carry the boards: Bob's move strips Alice's board through her interaction's webhook
    record = await storage.get_game(game)
    assert record is not None
    alice_board = record.messages["board"]
    sender = delivery._sender(alice_board)
    assert sender is not None
    calls = len(fake.calls)
    await driver.command("constructo place", BOB, tile=3, size="large")
    patches = [c.path for c in fake.calls[calls:] if c.method == "PATCH"]
    assert any(sender[0].token in p for p in patches), patches
    assert fake.messages[alice_board]["components"] == []
