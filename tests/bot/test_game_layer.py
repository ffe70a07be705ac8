"""The game layer itself (``bot/games``), with the real bot, storage, engines and render of the other bot tests:
one engine state load per action, one AI search per (game, version) however often the AI is notified, the stored
envelope, the registry, and the hooks other features plug into."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import TableBot
from bot.core import registry
from bot.core.changes import Committed
from bot.core.envelope import Envelope, Seat, is_current
from bot.storage import Storage
from engine.conex import Game
from engine.errors import StateError
from engine.protocol import GameOver, TurnStarted
from tests.bot.conftest import Driver, envelope_of, state_of
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, GUILD_ID, FakeDiscord

ALICE, BOB, CAROL = 1, 2, 3


async def _accepted(driver: Driver, fake: FakeDiscord, storage: Storage) -> int:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None
    await driver.click(fake.originals[token], f"cx:acc:{record.id}", BOB)
    return record.id


async def test_one_engine_state_load_per_action(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await _accepted(driver, fake, storage)
    for uid, tile in ((ALICE, 5), (BOB, 4), (ALICE, 1)):
        loads = bot.games.loads
        await driver.command("constructo place", uid, tile=tile, size="small")
        assert bot.games.loads - loads == 1  # the command's own load; the board and the AI check reuse it
    assert len(state_of(await storage.get_game(game)).history) == 3  # type: ignore[arg-type]


async def test_conex_place_loads_once_and_commits_on_the_state_the_finder_saw(
    bot: TableBot, driver: Driver, storage: Storage
) -> None:
    game = Game.new(players=2, seed=7, table="medium", goal=40)
    state = {
        "conex": game.to_dict(),
        "table": "medium",
        "goal": 40,
        "host": ALICE,
        "names": ["alice", "bob"],
        "ai": [],
        "locale": None,
    }
    gid = await storage.create_game("conex", GUILD_ID, CHANNEL_ID, state, [ALICE, BOB], status="active")
    place = next(p for cid in game.hands[0] for p in game.find_placements(0, cid, limit=1))
    loads, copies = bot.games.loads, bot.games.copies
    await driver.command("conex place", ALICE, card=str(place.card), corner=place.corner)  # auto-fit (finder)
    assert bot.games.loads - loads == 1 and bot.games.copies - copies == 1
    record = await storage.get_game(gid)
    assert record is not None and record.version == 1 and is_current(record.state)


async def test_the_ai_searches_each_version_once_however_often_it_is_notified(
    bot: TableBot, driver: Driver, storage: Storage
) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOT_ID, level="easy")
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None
    searches = bot.games.ai.searches
    await driver.command("constructo place", ALICE, tile=5, size="small")
    snap = bot.games.snapshot(await storage.get_game(record.id))  # type: ignore[arg-type]
    for _ in range(3):  # a reconnect's resume, a recovered board, a /board: all while nothing is left to do
        bot.games.ai.notify(snap)
        await bot.games.ai.resume_all()
    await bot.games.ai.idle()
    assert bot.games.ai.searches - searches == 1 and bot.games.ai.duplicates == 0
    assert (await storage.get_game(record.id)).version == 2  # type: ignore[union-attr]


async def test_on_committed_hooks_see_every_commit_with_its_events(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    seen: list[Committed] = []

    async def hook(committed: Committed) -> None:
        seen.append(committed)

    def broken(committed: Committed) -> None:
        raise RuntimeError("a hook failing is logged; the action stands")

    bot.games.on_committed += [broken, hook]
    game = await _accepted(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="small")
    await driver.resign(BOB)  # the command asks, the confirmation resigns (M3)
    assert [c.action for c in seen] == ["accept", "S5", "forfeit"] and seen[0].snap.id == game
    assert any(isinstance(e, TurnStarted) and e.player == 1 for e in seen[1].events)
    assert isinstance(seen[2].events[-1], GameOver) and seen[2].finished


def test_envelope_round_trip_and_refusals() -> None:
    env = Envelope.new(
        options={"table": "small"},
        seats=[Seat.of("a" * 40), Seat.of("AI 1", "medium")],
        host=ALICE,
        locale="es-ES",
        now=5.0,
    )
    assert env.seats[0].name == "a" * 32 and env.names[1] == "AI 1"
    assert Envelope.from_dict(env.to_dict()) == env and env.to_dict()["v"] == 2
    with pytest.raises(StateError):
        Envelope.from_dict({"conex": None})
    with pytest.raises(StateError):
        Envelope.from_dict({"v": 2, "engine": None, "seats": [{"nom": "x"}]})


async def test_a_pending_challenge_saved_before_version_2_is_accepted(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    from engine.constructo import Match

    state = {
        "match": Match.new("flor").to_dict(),
        "ai": None,
        "layout": "flor",
        "names": ["alice", "bob"],
        "locale": None,
    }
    gid = await storage.create_game("constructo", GUILD_ID, CHANNEL_ID, state, [ALICE, BOB], status="lobby")
    button = {"type": 2, "custom_id": f"cx:acc:{gid}", "label": "Accept", "style": 3}
    message: dict[str, Any] = fake.new_message(
        CHANNEL_ID,
        {"content": "a challenge posted by the old bot", "components": [{"type": 1, "components": [button]}]},
        [],
    )
    await storage.set_message(gid, "challenge", int(message["id"]))
    env = envelope_of(await storage.get_game(gid))  # type: ignore[arg-type]
    assert env.engine is None and env.invited == BOB and env.options == {"layout": "flor"}
    await driver.click(int(message["id"]), f"cx:acc:{gid}", BOB)
    assert fake.messages[int(message["id"])]["components"] == []  # the challenge says it was accepted
    record = await storage.get_game(gid)
    assert record is not None and record.status == "active" and state_of(record).rounds[0].layout.name == "flor"


def test_a_broken_game_package_is_left_out() -> None:
    assert registry.register("tests.games.no_such_game") is None
    assert "tests.games.no_such_game" in registry.FAILED
    assert set(registry.kinds()) >= {"constructo", "conex"}
