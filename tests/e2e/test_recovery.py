"""E2E (real bot process + DevServer): a board whose post was lost is re-posted (breaker report bug 1).

- The AI's move is saved but its board post fails, then the process is SIGKILLed: after the restart (READY)
  the bot re-posts the current board, so the human learns the AI moved and gets live selects.
- A transient 503 on the AI's board post (no kill): the bot retries and the board appears by itself.
"""

from __future__ import annotations

from pathlib import Path

from devserver import DevServer
from devserver.process import BotProcess

from .helpers import BotEnv, answered, assert_png, recorded_board, select_with_prefix

FOLLOWUPS = "POST /webhooks/*/*"
CHANNEL_POSTS = "POST /channels/*/messages"


def board_version(env: BotEnv, game_id: int) -> int | None:
    return env.game(game_id).messages.get("board.version")


async def ai_game(env: BotEnv) -> tuple[int, int]:
    """alice challenges the AI (easy) in #games; returns (game id, version)."""
    alice = env.server.as_user("alice")
    res = await answered(await alice.slash("constructo challenge", opponent="bot", level="easy"))
    assert not res.ephemeral, res.text
    game = env.latest_game("constructo", env.server.channel("games").id)
    await recorded_board(env, game.id)  # the board answering the challenge is recorded just after it
    assert game.status == "active" and board_version(env, game.id) == game.version
    return game.id, game.version


def assert_live_board_for_alice(env: BotEnv, game_id: int) -> None:
    row = env.game(game_id)
    assert row.messages.get("board.version") == row.version
    board = env.server.message(row.messages["board"])
    alice_id = env.server.user("alice").id
    assert f"<@{alice_id}> to move" in board.content, board.content
    ai_move = env.actions(game_id)[-1][2]
    assert f"played **{ai_move}**" in board.content, board.content
    sel = select_with_prefix(board, f"cx:pl:{game_id}:{row.version}:")
    assert sel is not None, "the re-posted board carries selects for the current version"
    assert_png(board.images[0])


async def test_restart_reposts_the_board_of_a_saved_but_unposted_ai_move(
    devserver: DevServer, bot_process: BotProcess, tmp_path: Path
) -> None:
    env = BotEnv(devserver, bot_process, tmp_path / "data")
    game_id, version = await ai_game(env)
    # the AI's board never gets through: neither as a followup of Alice's interaction nor in the channel
    fault = devserver.inject(CHANNEL_POSTS, 503, count=10_000)
    carried = devserver.inject(FOLLOWUPS, 404, count=10_000)  # as if Discord no longer knew the token
    await answered(await devserver.as_user("alice").slash("constructo place", tile=5, size="small"))
    await devserver.wait_until(lambda: env.game(game_id).version == version + 2, 15, "the AI's move to be saved")
    await devserver.wait_until(lambda: fault.hits >= 1, 60, "the AI's board to fall back to the channel")
    await bot_process.kill()
    assert carried.hits >= 1 and board_version(env, game_id) == version + 1, "the AI's board was not posted"
    fault.count, carried.count = fault.hits, carried.hits  # the outage is over
    await bot_process.start()
    await devserver.wait_until(lambda: board_version(env, game_id) == version + 2, 15, "the board to be re-posted")
    env.assert_alive()
    assert_live_board_for_alice(env, game_id)
    assert env.game(game_id).version == version + 2, "recovery only posts: nothing is played twice"


async def test_a_transient_503_on_the_ai_board_is_retried(
    devserver: DevServer, bot_process: BotProcess, tmp_path: Path
) -> None:
    env = BotEnv(devserver, bot_process, tmp_path / "data")
    game_id, version = await ai_game(env)
    fault = devserver.inject(FOLLOWUPS, 503, count=1)  # the AI's board is a followup of Alice's interaction
    await answered(await devserver.as_user("alice").slash("constructo place", tile=5, size="small"))
    await devserver.wait_until(lambda: board_version(env, game_id) == version + 2, 20, "the retried AI board")
    assert fault.hits == 1
    assert_live_board_for_alice(env, game_id)
    env.assert_alive()
