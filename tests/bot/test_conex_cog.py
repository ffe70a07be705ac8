"""Handler-level tests of /conex and its components: real Interaction objects from gateway payloads, real
storage (temp SQLite), real engine and render; Discord recorded at the HTTP seams (``tests/bot/conftest.py``).

Every dispatched interaction is checked for exactly one initial response (``Driver``)."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import TableBot
from bot.service.conex import ConexService, game_of
from bot.storage import Storage
from engine.conex import Game
from tests.bot import conftest
from tests.bot.conftest import Driver, all_custom_ids
from tests.bot.fakediscord import CHANNEL_ID, EPHEMERAL, FakeDiscord, png_ok

# /conex place has number options (type 10); the shared driver maps only the types the Constructo cog uses.
conftest._OPTION_TYPES.setdefault(discord.AppCommandOptionType.number, 10)

ALICE, BOB, CAROL = 1, 2, 3
SEED = 7


def initial(fake: FakeDiscord, token: str) -> dict[str, Any]:
    (call,) = fake.callbacks(token)
    assert isinstance(call.payload, dict)
    return call.payload


def refusal(fake: FakeDiscord, token: str) -> str:
    """The text of an ephemeral refusal: the only answer of the interaction."""
    payload = initial(fake, token)
    assert payload["type"] == 4, payload
    assert payload["data"]["flags"] & EPHEMERAL, payload
    assert not fake.calls_for(token)[1:], "a refusal is the only answer"
    return str(payload["data"]["content"])


async def record_of(storage: Storage, game_id: int = 1) -> Any:
    record = await storage.get_game(game_id)
    assert record is not None
    return record


async def table_msg(storage: Storage, fake: FakeDiscord, game_id: int = 1) -> dict[str, Any]:
    record = await record_of(storage, game_id)
    return fake.messages[record.messages["board"]]


def lobby_id(fake: FakeDiscord, token: str) -> int:
    return fake.originals[token]


async def start_game(driver: Driver, fake: FakeDiscord, storage: Storage, bot: TableBot,
                     seats: tuple[int, ...] = (ALICE, BOB), bots: int = 0, seed: int = SEED) -> int:
    """Alice opens a lobby, the others join by button, Alice starts (seeded deal through the service)."""
    token = await driver.command("conex new", ALICE)
    lobby = lobby_id(fake, token)
    for uid in seats[1:]:
        await driver.click(lobby, "cn:join:1", uid)
    for _ in range(bots):
        await driver.click(lobby, "cn:bot:1", ALICE)
    service: ConexService = bot.services["conex"]  # type: ignore[assignment]
    original = service.start

    async def seeded(game_id: int, user_id: int, *, seed_: int | None = None) -> Any:
        return await original(game_id, user_id, seed=seed)

    service.start = seeded  # type: ignore[method-assign,assignment]
    try:
        await driver.click(lobby, "cn:start:1", ALICE)
    finally:
        service.start = original  # type: ignore[method-assign]
    record = await record_of(storage)
    assert record.status == "active"
    return record.id


def expected_game(players: int = 2, seed: int = SEED) -> Game:
    return Game.new(players=players, seed=seed, table="medium", goal=40)


# -- lobby --------------------------------------------------------------------------------------
async def test_new_lobby_has_join_leave_start_addbot(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("conex new", ALICE, table="small", goal=30)
    payload = initial(fake, token)
    assert payload["type"] == 4 and not payload["data"].get("flags", 0) & EPHEMERAL
    assert all_custom_ids(payload["data"]) == ["cn:join:1", "cn:leave:1", "cn:start:1", "cn:bot:1"]
    assert "table small" in payload["data"]["content"] and "goal 30" in payload["data"]["content"]
    record = await record_of(storage)
    assert record.status == "lobby" and record.players == [ALICE] and record.state["goal"] == 30
    assert record.messages["lobby"] == lobby_id(fake, token)


async def test_join_leave_and_host_only_start(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    lobby = lobby_id(fake, await driver.command("conex new", ALICE))
    text = refusal(fake, await driver.click(lobby, "cn:start:1", ALICE))
    assert text.startswith("**U1** — ")  # one player is too few
    join = await driver.click(lobby, "cn:join:1", BOB)
    assert initial(fake, join)["type"] == 7 and "<@2>" in fake.messages[lobby]["content"]
    assert "already" in refusal(fake, await driver.click(lobby, "cn:join:1", BOB))
    assert "Only the host" in refusal(fake, await driver.click(lobby, "cn:start:1", BOB))
    assert "Only the host" in refusal(fake, await driver.click(lobby, "cn:bot:1", BOB))
    assert "not a player" in refusal(fake, await driver.click(lobby, "cn:start:1", CAROL))
    await driver.command("conex join", CAROL)  # the command does the same as the button
    assert (await record_of(storage)).players == [ALICE, BOB, CAROL]
    assert "<@3>" in fake.messages[lobby]["content"]  # the lobby message was refreshed
    await driver.click(lobby, "cn:leave:1", BOB)
    record = await record_of(storage)
    assert record.players == [ALICE, CAROL] and record.state["names"] == ["alice", "carol"]
    assert record.status == "lobby"
    start = await driver.click(lobby, "cn:start:1", ALICE)
    record = await record_of(storage)
    assert record.status == "active" and game_of(record).players == 2
    assert fake.messages[lobby]["components"] == []  # the lobby lost its buttons
    calls = fake.calls_for(start)
    assert calls[0].payload["type"] == 7 and len(calls) == 2  # type: ignore[index]  # edit + table followup
    table = await table_msg(storage, fake)
    assert "<@1> to play" in table["content"]
    (name, data), = fake.files[int(table["id"])]
    assert record.version == 4  # join, join, leave, start
    assert name == "conex-1-4.png" and png_ok(data)
    assert all_custom_ids(table) == ["cn:hand:1", "cn:hints:1", "cn:draw:1:4"]


async def test_full_table_and_host_leaving_closes_the_lobby(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    lobby = lobby_id(fake, await driver.command("conex new", ALICE))
    for uid in (BOB, CAROL):
        await driver.click(lobby, "cn:join:1", uid)
    await driver.click(lobby, "cn:bot:1", ALICE)
    record = await record_of(storage)
    assert record.players == [ALICE, BOB, CAROL, -1] and record.state["ai"] == [-1]
    assert refusal(fake, await driver.click(lobby, "cn:join:1", 4)).startswith("**U1** — ")
    await driver.command("conex leave", ALICE)
    assert (await record_of(storage)).status == "aborted"
    assert fake.messages[lobby]["components"] == []
    assert await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_lobby_commands_refused_before_start(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await driver.command("conex new", ALICE)
    assert "not started" in refusal(fake, await driver.command("conex hand", ALICE))
    assert "not started" in refusal(fake, await driver.command("conex draw", ALICE))
    assert "no CONEX game" in refusal(fake, await driver.command("conex draw", ALICE, channel_id=CHANNEL_ID + 5))


# -- hand ---------------------------------------------------------------------------------------
async def test_hand_is_ephemeral_with_legal_counts(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    token = await driver.command("conex hand", BOB)
    calls = fake.calls_for(token)
    assert calls[0].payload["type"] == 5 and calls[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    edit = calls[1]
    assert png_ok(edit.files[0][1])
    game = expected_game()
    for i, card in enumerate(game.hand(1)):
        assert f"{'ABCDE'[i]}: #{card.id} " in edit.payload["content"]  # type: ignore[index]
    assert "legal" in edit.payload["content"]  # type: ignore[index]
    # the My hand button does the same for whoever clicks it; strangers are refused
    table = await table_msg(storage, fake)
    click = await driver.click(int(table["id"]), "cn:hand:1", ALICE)
    assert fake.calls_for(click)[0].payload["data"]["flags"] & EPHEMERAL  # type: ignore[index]
    assert f"#{game.hand(0)[0].id}" in fake.visible_text(click)
    assert "not a player" in refusal(fake, await driver.click(int(table["id"]), "cn:hand:1", CAROL))
