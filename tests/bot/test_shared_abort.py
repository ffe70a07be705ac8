"""/abort strips the components of every message the game stored (breaker report bug 7), whatever the game:
the CONEX lobby's Join/Leave/Start/Add bot buttons included, under the game's publish lock."""

from __future__ import annotations

from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids
from tests.bot.fakediscord import CHANNEL_ID, FakeDiscord

ALICE, ADMIN = 1, 4


async def test_abort_strips_the_conex_lobby_buttons(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    lobby = fake.originals[await driver.command("conex new", ALICE)]
    assert all_custom_ids(fake.messages[lobby]), "the lobby has its buttons"
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.messages.get("lobby") == lobby
    await driver.command("abort", ADMIN, admin=True)
    after = await storage.get_game(record.id)
    assert after is not None and after.status == "aborted"
    assert fake.messages[lobby]["components"] == [], "no Join/Start button survives /abort"


async def test_abort_goes_on_when_one_stored_message_is_gone(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=2)
    challenge = fake.originals[token]
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None
    await storage.set_message(record.id, "lost", 999)  # a message deleted by a moderator: PATCH gives 404
    token = await driver.command("abort", ADMIN, admin=True)
    assert "aborted" in fake.visible_text(token)
    assert fake.messages[challenge]["components"] == []
    after = await storage.get_game(record.id)
    assert after is not None and after.status == "aborted"
