"""Mutual abort and rematch through the game layer (issue 12), for both games.

- Constructo, two people: one click each on the result card's Rematch; the first click is answered by a public
  offer naming who is awaited, the second opens the new game (seats swapped, same options); clicking again points
  to the started rematch; a third user may not click.
- CONEX, three people: ``/abandon`` then one click each (1/3, 2/3, aborted, unrated; the board loses its buttons).
- CONEX against the AI: one click on Rematch opens the table with the seats rotated (the AI seat first).
"""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, envelope_of, initial, match_of, refusal, start
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, OTHER_CHANNEL_ID, FakeDiscord
from tests.bot.test_conex_cog import forfeit, start_game, table_msg
from tests.bot.test_constructo_cog import board_of

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
    # same seats (each player keeps their colour and pattern, C1), the other player starts
    assert new.players == [ALICE, BOB] and match_of(new).first == 1 and match_of(new).current_player == 1
    old = await storage.get_game(game)
    assert old is not None and envelope_of(new).options == {**envelope_of(old).options, "first": 1}
    assert envelope_of(new).options["layout"] == "flor"
    assert "started already" in refusal(fake, await driver.click(int(card["id"]), f"rm:go:{game}", ALICE))


async def test_conex_mutual_abort_needs_every_player(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE, BOB, CAROL))
    token = await driver.command("abandon", BOB)
    offer = fake.originals[token]
    assert "Agreed: 1/3" in fake.visible_text(token) and f"<@{ALICE}>" in fake.visible_text(token)
    assert all_custom_ids(fake.messages[offer]) == [f"ma:ok:{gid}"]
    await driver.click(offer, f"ma:ok:{gid}", CAROL)
    assert "Agreed: 2/3" in fake.messages[offer]["content"] and "bob proposes" in fake.messages[offer]["content"]
    assert (await storage.get_game(gid)).status == "active"  # type: ignore[union-attr]
    assert "already agreed" in refusal(fake, await driver.command("abandon", CAROL))
    token = await driver.command("abandon", ALICE)  # the last agreement by command
    assert "Every player agreed" in fake.visible_text(token)
    record = await storage.get_game(gid)
    assert record is not None and record.status == "aborted" and record.result is None
    assert "Every player agreed" in fake.messages[offer]["content"] and fake.messages[offer]["components"] == []
    assert (await table_msg(storage, fake, gid))["components"] == []
    assert "no game" in refusal(fake, await driver.command("abandon", ALICE)).lower()


async def test_conex_rematch_against_the_ai_one_click_rotated(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=(ALICE,), bots=1)
    await forfeit(driver, fake, ALICE, gid)  # no human left: finished, unrated
    card = await table_msg(storage, fake, gid)
    assert all_custom_ids(card)[0] == f"rm:go:{gid}"
    await driver.click(int(card["id"]), f"rm:go:{gid}", ALICE)
    await driver.settle()
    new = await storage.get_game(gid + 1)
    assert new is not None and new.kind == "conex" and new.players == [-1, ALICE]
    old = await storage.get_game(gid)
    assert old is not None and envelope_of(new).options == envelope_of(old).options
    assert envelope_of(new).seats[0].ai is not None and envelope_of(new).seats[1].ai is None
    assert new.status == "active"


async def test_simultaneous_rematch_clicks_open_one_game(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    await driver.command("constructo resign", ALICE)
    ask = [m for m in fake.messages.values() if f"cx:rsy:{game}" in all_custom_ids(m)]
    if ask:
        await driver.click(int(ask[-1]["id"]), f"cx:rsy:{game}", ALICE)
    card = await board_of(storage, fake, game)
    for uid in (ALICE, BOB, ALICE, BOB):  # all dispatched before any handler runs
        payload, token = driver._base(3, uid, CHANNEL_ID)
        payload["data"] = {"custom_id": f"rm:go:{game}", "component_type": 2}
        payload["message"] = card
        fake.component_message[token] = int(card["id"])
        driver.bot._connection.parse_interaction_create(payload)
    await driver.settle()
    games = [g for g in [await storage.get_game(i) for i in range(game + 1, game + 4)] if g is not None]
    assert len(games) == 1 and games[0].players == [ALICE, BOB], "exactly one rematch"


def test_every_lifecycle_string_is_in_spanish_too() -> None:
    from bot.cogs import unstuck
    from bot.games.constructo.locales import es as cx_es
    from bot.locales import en_lifecycle, es_lifecycle

    assert set(en_lifecycle.MESSAGES) <= set(es_lifecycle.MESSAGES)
    described = [unstuck.UnstuckCog.abandon.description, unstuck.UnstuckCog.games.description]
    assert all(d in es_lifecycle.COMMANDS for d in described)
    assert "Accept a Constructo challenge (also when its message is gone)" in cx_es.COMMANDS


async def test_two_identical_challenges_sent_at_once_leave_one(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    tokens = []
    for uid, other, channel in ((ALICE, BOB, CHANNEL_ID), (BOB, ALICE, OTHER_CHANNEL_ID)):  # before either runs
        payload, token = driver._base(2, uid, channel)
        payload["data"], _ = driver._command_data("constructo challenge", {"opponent": other}, None)
        driver.bot._connection.parse_interaction_create(payload)
        tokens.append(token)
    await driver.settle()
    open_games = [g for g in await storage.list_active_games() if g.status == "lobby"]
    assert len(open_games) == 1, open_games
    refused = [tok for tok in tokens if initial(fake, tok)["data"].get("flags", 0) & EPHEMERAL]
    assert len(refused) == 1 and "already waiting" in refusal(fake, refused[0])
