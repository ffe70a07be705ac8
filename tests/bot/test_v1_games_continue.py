"""Games saved by the bot before the game protocol (``tests/fixtures/main_v1.sqlite3``, made by main ``ee2f4d7``,
see ``tests/fixtures/README.md``) load through the services and continue: the next action commits and the game is
stored with version-2 engine state from then on (issue 11 part 2)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.errors import BotError
from bot.service.conex import ConexService, forfeited_of, game_of
from bot.service.constructo import ConstructoService, match_of
from bot.storage import Storage

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "main_v1.sqlite3"
BOT = 900  # the bot's user id in the fixture (the Constructo AI seat)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    db = tmp_path / "main_v1.sqlite3"
    shutil.copy(FIXTURE, db)  # never touch the frozen fixture
    st = await Storage.open(db)
    try:
        yield st
    finally:
        await st.close()


async def test_constructo_games_continue(storage: Storage) -> None:
    svc = ConstructoService(storage, bot_user_id=BOT)
    vs_ai = await svc.get(1)
    assert vs_ai.state["match"]["version"] == 1
    match = match_of(vs_ai)
    committed = await svc.play(1, vs_ai.players[0], str(match.legal_actions(0)[0]))
    assert committed.record.state["match"]["version"] == 2 and committed.record.version == vs_ai.version + 1
    assert await svc.ai_turn(1) is not None  # the AI seat plays on
    round2 = await svc.get(2)
    match = match_of(round2)
    assert match.round_no == 2
    seat = match.current_player
    assert seat is not None
    await svc.play(2, round2.players[seat], str(match.legal_actions(seat)[0]))
    assert match_of(await svc.get(2)).history[: len(match.history)] == match.history
    done = match_of(await svc.get(3))
    assert done.outcome is not None and done.outcome.reason == "M3"


async def test_conex_game_with_a_forfeit_and_an_owed_discard_continues(storage: Storage) -> None:
    svc = ConexService(storage, bot_user_id=BOT)
    record = await svc.get(5)
    assert record.state["conex"]["version"] == 1 and forfeited_of(record) == {2}
    game = game_of(record)
    assert game.awaiting() == (0, 1) and game.forfeited == {2}
    await svc.act(5, record.players[0], f"discard {game.hands[0][0]}")
    record = await svc.get(5)
    assert record.state["conex"]["version"] == 2 and "forfeited" not in record.state
    game = game_of(record)
    assert forfeited_of(record) == {2} and not game.pending_discards and game.current_player == 1
    await svc.act(5, record.players[1], "draw")
    game = game_of(await svc.get(5))
    assert game.current_player == 0  # the forfeited seat 2 is skipped
    with pytest.raises(BotError) as refused:
        await svc.act(5, record.players[2], "draw")
    assert refused.value.key == "cn.forfeited"


async def test_conex_lobby_starts_with_a_128_bit_seed_and_finished_games_keep_their_result(storage: Storage) -> None:
    svc = ConexService(storage, bot_user_id=BOT)
    committed = await svc.start(6, 101)
    game = game_of(committed.record)
    assert game.setup["bots"] == [2] and game.seed.bit_length() > 64  # 128 random bits: < 2**-64 to fail
    finished = game_of(await svc.get(8))
    assert finished.outcome is not None and finished.outcome.reason == "forfeit" and finished.winners == [1]
