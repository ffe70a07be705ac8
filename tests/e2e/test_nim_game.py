"""E2E: the test-only third game, Nim (``tests/games/nim``), played end to end through the real bot process and the
DevServer. It is registered only with ``TABLEBOT_EXTRA_GAMES=tests.games.nim`` (no line in ``bot/``): challenge,
Accept, moves by command and by the board's select, the result stored from the engine's ``Outcome`` and rated,
``/leaderboard game:nim`` ranking the winner first, the result card's **Replay** (an animated GIF drawn by Nim's own
renderer, ``tests/games/nim/replay.py``, in the bot's CPU workers, and Nim's own move list) and **Download record**
(the JSON re-plays through Nim's engine to the stored game), and a game against the AI. This proves the recipe of
``docs/adding-a-game.md``: the layer runs a game it has never heard of, and its kind names its engine and replay.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from engine.record import load_record
from tests.games.nim.engine import Nim, best_take

from .helpers import BotEnv, answered, assert_png, assert_stripped, bot_env, check_log_sequence, select_with_prefix

pytestmark = pytest.mark.asyncio(loop_scope="module")


def as_stored(state: Nim) -> Any:
    """``state.to_dict()`` as the database holds it (JSON: pairs become lists)."""
    return json.loads(json.dumps(state.to_dict()))


def files_of(messages: list[Any]) -> dict[str, bytes]:
    """Every attachment of ``messages`` by file name."""
    return {a.filename: a.data for m in messages for a in m.attachments}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"TABLEBOT_EXTRA_GAMES": "tests.games.nim"}  # the one registration, outside bot/
    async with bot_env(Path(tmp_path_factory.mktemp("nim")), extra_env=extra) as e:
        yield e


async def test_nim_challenge_moves_result_and_leaderboard(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice"), server.as_user("bob")
    users = {alice.id: alice, bob.id: bob}

    res = await answered(await alice.slash("nim challenge", opponent="bob", heaps="2 3"))
    assert not res.ephemeral and "challenges you to Nim" in res.text
    game = env.latest_game("nim", server.channel("games").id)
    assert game.status == "lobby" and game.players == [alice.id, bob.id] and game.state["engine"] is None

    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    board = res.followups[-1]
    assert_png(board.images[0], min_long_side=1000)
    assert "Nim started: heaps 2 3" in board.content and f"<@{alice.id}> to take" in board.content

    for turn in range(10):
        row = env.game(game.id)
        if row.status != "active":
            break
        state = Nim.from_dict(row.engine)
        seat = state.current_player
        assert seat is not None
        user = users[row.players[seat]]
        take = best_take(state, seat)
        if turn % 2:
            res = await answered(await user.slash("nim take", heap=take.heap, count=take.count))
        else:
            sel = select_with_prefix(board, f"nm:take:{game.id}:{row.version}")
            assert sel is not None and len(sel["options"]) == sum(state.heaps)  # every legal take is offered
            res = await answered(await user.select(board, str(take), custom_id=sel["custom_id"]))
        assert not res.ephemeral, res.text
        assert env.actions(game.id)[-1][1:] == (user.id, str(take))
        await assert_stripped(server, board.id)
        board = res.message
        assert board is not None
    row = env.game(game.id)
    assert row.status == "finished" and "wins" in board.content and "Rating changes" in board.content
    check_log_sequence(env.actions(game.id), row.version)
    state = Nim.from_dict(row.engine)
    assert state.outcome is not None and state.outcome.reason == "N2"
    winner = row.players[state.outcome.winners[0]]
    loser = row.players[1 - state.outcome.winners[0]]
    assert row.result is not None and row.result["ranking"] == [[winner], [loser]] and row.result["rated"]
    ratings = env.ratings("nim")
    assert ratings[winner][2:4] == (1, 0) and ratings[loser][2:4] == (0, 1) and ratings[winner][0] > ratings[loser][0]

    # the result card: Replay (GIF of Nim's own frames, Nim's move list) and Download record, private to the clicker
    replay = await answered(await server.as_user("carol").click(board, "Replay"), timeout=60)
    assert replay.ephemeral and f"Game #{game.id}" in replay.text and "no animated replay" not in replay.text
    history = env.game(game.id).engine["history"]
    seat, text = history[0]
    assert f"1. {['Alice', 'Bob'][seat]}: take " in replay.text and f"({text})" in replay.text
    files = files_of(replay.messages)
    with Image.open(io.BytesIO(files[f"replay-{game.id}.gif"])) as gif:
        assert gif.format == "GIF" and gif.n_frames == len(history) + 1  # the start and one frame per take
    replayed = load_record(json.loads(files[f"game-{game.id}.json"]), [Nim])
    assert as_stored(replayed) == row.engine
    download = await answered(await bob.click(board, "Download record"))
    assert download.ephemeral
    record = json.loads(files_of(download.messages)[f"game-{game.id}.json"])
    assert record["game"] == "nim" and record["players"] == ["Alice", "Bob"]
    assert as_stored(load_record(record, [Nim])) == row.engine  # the record re-plays through the engine

    res = await answered(await server.as_user("carol").slash("leaderboard", game="nim"))
    text = res.text
    names = {alice.id: "Alice", bob.id: "Bob"}
    assert text.index(names[winner]) < text.index(names[loser]), text

    res = await answered(await alice.slash("nim challenge", opponent="bot", heaps="1 2"))
    assert "Nim started" in res.text
    ai_game = env.latest_game("nim", server.channel("games").id)
    assert ai_game.id != game.id and ai_game.status == "active"  # against the AI: starts at once
    await answered(await alice.slash("nim take", heap=2, count=1))  # 1 1: the AI can only take one
    await server.wait_until(lambda: env.game(ai_game.id).version == 2, 20, "the AI's answer")
    assert sum(env.game(ai_game.id).engine["heaps"]) == 1
    last = 1 + env.game(ai_game.id).engine["heaps"].index(1)
    await answered(await alice.slash("nim take", heap=last, count=1))
    done = env.game(ai_game.id)
    assert done.status == "finished" and done.result is not None and not done.result["rated"]  # an AI seat
    assert done.result["ranking"] == [[alice.id], [done.players[1]]]
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
