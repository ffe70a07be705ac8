"""Rematch between two people (issue 12): one click each on the result card; the first click is answered by a
public offer naming who is awaited, the second opens the new game (seats swapped, same options) whose first board
answers it; clicking again points to the started rematch; a third user may not click."""

from __future__ import annotations

from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, envelope_of, refusal
from tests.bot.fakediscord import CHANNEL_ID, FakeDiscord
from tests.bot.test_constructo_cog import board_of, start

ALICE, BOB, CAROL = 1, 2, 3


async def test_rematch_one_click_each_seats_swapped_same_options(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage, layout="flor")
    await driver.command("constructo resign", BOB)
    ask = [m for m in fake.messages.values() if f"cx:rsy:{game}" in all_custom_ids(m)]
    if ask:  # resign asks for a confirmation
        await driver.click(int(ask[-1]["id"]), f"cx:rsy:{game}", BOB)
    card = await board_of(storage, fake, game)
    assert (await storage.get_game(game)).status == "finished"  # type: ignore[union-attr]
    assert all_custom_ids(card)[0] == f"rm:go:{game}"

    assert "not a player" in refusal(fake, await driver.click(int(card["id"]), f"rm:go:{game}", CAROL))
    token = await driver.click(int(card["id"]), f"rm:go:{game}", BOB)
    offer = fake.visible_text(token)
    assert "wants a rematch" in offer and f"<@{ALICE}>" in offer and "bob starts" in offer.lower(), offer
    assert await storage.active_game_in_channel(CHANNEL_ID) is None, "nothing opened before everyone agreed"
    assert "already asked" in refusal(fake, await driver.click(int(card["id"]), f"rm:go:{game}", BOB))

    await driver.click(int(card["id"]), f"rm:go:{game}", ALICE)
    new = await storage.active_game_in_channel(CHANNEL_ID)
    assert new is not None and new.status == "active" and new.id != game
    assert new.players == [BOB, ALICE], "the first player swapped"
    old = await storage.get_game(game)
    assert old is not None and envelope_of(new).options == envelope_of(old).options
    assert envelope_of(new).options["layout"] == "flor"
    assert "started already" in refusal(fake, await driver.click(int(card["id"]), f"rm:go:{game}", ALICE))
