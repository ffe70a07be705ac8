"""A click on a set-up that has started (an open challenge someone else accepted first, a Join sent as the host
clicks Start): a player of the game is told to play on its board; anyone else that it started without them."""

from __future__ import annotations

import copy

from bot.app import TableBot
from bot.i18n import t
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, refusal
from tests.bot.fakediscord import FakeDiscord

ALICE, BOB, CAROL = 1, 2, 3


async def test_an_open_challenge_accepted_first_by_another_tells_the_late_one_the_seats_are_taken(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    token = await driver.command("constructo challenge", ALICE)
    message = fake.originals[token]
    shown = copy.deepcopy(fake.messages[message])  # as Carol's client still shows it
    game = int(all_custom_ids(shown)[0].split(":")[2])
    await driver.click(message, f"cx:acc:{game}", BOB, message=shown)
    record = await storage.get_game(game)
    assert record is not None and record.status == "active" and record.players == [ALICE, BOB]
    late = refusal(fake, await driver.click(message, f"cx:acc:{game}", CAROL, message=shown))
    assert late == t("lobby.gone_started_without", "en-US") and "play on its board" not in late, late
    again = refusal(fake, await driver.click(message, f"cx:acc:{game}", BOB, message=shown))
    assert "play on its board" in again, again
    after = await storage.get_game(game)
    assert after is not None and after.version == record.version and after.players == [ALICE, BOB]


async def test_a_join_on_a_lobby_that_started_tells_the_joiner_the_seats_are_taken(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    lobby = fake.originals[await driver.command("conex new", ALICE)]
    shown = copy.deepcopy(fake.messages[lobby])
    await driver.click(lobby, "cn:join:1", BOB)
    await driver.click(lobby, "cn:start:1", ALICE)
    record = await storage.get_game(1)
    assert record is not None and record.status == "active"
    late = refusal(fake, await driver.click(lobby, "cn:join:1", CAROL, message=shown))
    assert "its seats are taken" in late and "play on its board" not in late, late


def test_the_started_without_you_text_is_in_spanish() -> None:
    es = t("lobby.gone_started_without", "es-ES")
    assert es != t("lobby.gone_started_without", "en-US") and "asientos" in es, es
