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


async def test_a_click_on_an_aborted_games_board_says_it_was_aborted(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """A client not yet updated clicks the board of a game an admin just aborted: the refusal says the game was
    aborted, not to rematch from a result card an aborted game does not have (``err.game_aborted``)."""
    import copy

    from tests.bot.conftest import refusal, start

    game = await start(driver, fake, storage)
    record = await storage.get_game(game)
    assert record is not None
    board = copy.deepcopy(fake.messages[record.messages["board"]])
    await driver.command("abort", ADMIN, admin=True)
    ids = all_custom_ids(board)
    resign = next(c for c in ids if c.startswith("cx:res:"))
    told = [refusal(fake, await driver.click(int(board["id"]), resign, ALICE, message=board))]
    place = next(c for c in ids if c.startswith("cx:pl:"))  # a chip size and a tile, from the board's select
    told.append(refusal(fake, await driver.click(int(board["id"]), place, ALICE, values=["5"], message=board)))
    told.append(refusal(fake, await driver.click(int(board["id"]), f"of:dr:{game}:1", ALICE, message=board)))
    for text in told:
        assert "aborted" in text and "result card" not in text and "Rematch" not in text, text
