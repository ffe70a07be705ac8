"""Games saved by the bot before the game protocol (``tests/fixtures/main_v1.sqlite3``, made by main ``ee2f4d7``,
see ``tests/fixtures/README.md``) load through the game layer and continue: their pre-version-2 envelope and
version-1 engine state are migrated on load, the next action commits, and the game is stored as a version-2
envelope holding a version-2 engine state from then on (issue 11 part 2). The real bot runs on a copy of the
file, Discord recorded at the HTTP seams; the e2e twin is ``tests/e2e/test_v1_database.py``."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import TableBot
from bot.core.envelope import is_current
from bot.storage import Storage
from tests.bot.conftest import Driver, envelope_of, game_of, match_of
from tests.bot.fakediscord import FakeDiscord

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "main_v1.sqlite3"
ALICE, BOB = 101, 102


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    db = tmp_path / "main_v1.sqlite3"
    shutil.copy(FIXTURE, db)  # never touch the frozen fixture
    st = await Storage.open(db)
    try:
        yield st
    finally:
        await st.close()


async def test_constructo_games_continue(bot: TableBot, storage: Storage, fake: FakeDiscord) -> None:
    vs_ai = await storage.get_game(1)
    assert vs_ai is not None and not is_current(vs_ai.state) and vs_ai.state["match"]["version"] == 1
    env = envelope_of(vs_ai)
    assert [s.ai for s in env.seats] == [None, "easy"] and env.options == {"layout": "flor"}
    match = match_of(vs_ai)
    committed = await bot.games.act(1, vs_ai.players[0], str(match.legal_actions(0)[0]))
    stored = await storage.get_game(1)
    assert stored is not None and is_current(stored.state) and stored.state["engine"]["version"] == 2
    assert stored.version == vs_ai.version + 1
    bot.games.ai.notify(committed.snap)  # the AI seat plays on
    await bot.games.ai.idle()
    after = await storage.get_game(1)
    assert after is not None and after.version == vs_ai.version + 2 and match_of(after).current_player == 0
    round2 = await storage.get_game(2)
    assert round2 is not None
    match = match_of(round2)
    assert match.round_no == 2
    seat = match.current_player
    assert seat is not None
    await bot.games.act(2, round2.players[seat], str(match.legal_actions(seat)[0]))
    after = await storage.get_game(2)
    assert after is not None and match_of(after).history[: len(match.history)] == match.history
    done = await storage.get_game(3)
    assert done is not None and match_of(done).outcome.reason == "M3"  # type: ignore[union-attr]


async def test_conex_game_with_a_forfeit_and_an_owed_discard_continues(bot: TableBot, storage: Storage) -> None:
    record = await storage.get_game(5)
    assert record is not None and record.state["conex"]["version"] == 1 and record.state["forfeited"] == [2]
    game = game_of(record)
    assert game.awaiting() == (0, 1) and game.forfeited == {2}
    await bot.games.act(5, record.players[0], f"discard {game.hands[0][0]}")
    record = await storage.get_game(5)
    assert record is not None and is_current(record.state) and record.state["engine"]["version"] == 2
    game = game_of(record)
    assert game.forfeited == {2} and not game.pending_discards and game.current_player == 1
    await bot.games.act(5, record.players[1], "draw")
    record = await storage.get_game(5)
    assert record is not None and game_of(record).current_player == 0  # the forfeited seat 2 is skipped
    from bot.errors import BotError

    with pytest.raises(BotError) as refused:
        await bot.games.act(5, record.players[2], "draw")
    assert refused.value.key == "cn.forfeited"


async def test_conex_lobby_starts_with_a_128_bit_seed_and_finished_games_keep_their_result(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    lobby = await storage.get_game(6)
    assert lobby is not None and lobby.status == "lobby"
    env = envelope_of(lobby)
    assert env.names == ["Alice", "Bob", "AI 1"] and env.host == ALICE and env.options["table"] == "large"
    fake.users[ALICE] = "Alice"
    token = await driver.command("conex start", ALICE, channel_id=lobby.channel_id)
    started = await storage.get_game(6)
    assert started is not None and started.status == "active"
    game = game_of(started)
    assert game.setup["bots"] == [2] and game.seed.bit_length() > 64  # 128 random bits: < 2**-64 to fail
    assert "CONEX started: 3 players" in fake.visible_text(token)
    finished = await storage.get_game(8)
    assert finished is not None
    assert game_of(finished).outcome.reason == "forfeit" and game_of(finished).winners == [1]  # type: ignore[union-attr]
