"""E2E (issue 13.4): ``docker stop`` sends SIGTERM to the real bot process. The bot drains: interactions in
flight (held up by Discord here: a 429 on their answer) and background work (the AI's board post) finish
and are delivered, new interactions meanwhile get a private "restarting" answer, then storage is closed
and checkpointed, so the main database file alone holds every action. Exit code 0."""

from __future__ import annotations

import shutil
import signal
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import EDIT_ORIGINAL, BotEnv, answered, assert_refusal, bot_env, check_log_sequence

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest_asyncio.fixture
async def env(tmp_path: Path) -> AsyncIterator[BotEnv]:
    async with bot_env(tmp_path) as e:
        yield e


def main_file_alone(env: BotEnv, tmp: Path) -> sqlite3.Connection:
    """The stopped bot's main database file copied alone (no -wal, no -shm): what a file backup would hold."""
    wal = env.db_path.with_name(env.db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the -wal still holds data after the stop"
    copy = tmp / "alone" / "copy.sqlite3"
    copy.parent.mkdir()
    shutil.copy(env.db_path, copy)
    return sqlite3.connect(copy)


def public_images(env: BotEnv, channel: str) -> list[bytes]:
    return [img for m in env.server.messages(channel) if not m.ephemeral for img in m.images]


async def sigterm_and_wait(env: BotEnv) -> int:
    proc = env.proc.proc
    assert proc is not None
    proc.send_signal(signal.SIGTERM)
    await env.server.wait_until(lambda: "draining" in env.proc.log(), 15, "the bot to start draining")
    return proc.returncode if proc.returncode is not None else -999


async def test_sigterm_finishes_the_move_in_flight_refuses_new_ones_and_checkpoints(
    env: BotEnv, tmp_path: Path
) -> None:
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice"), server.as_user("bob")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game_id = env.latest_game("constructo").id
    version = env.game(game_id).version

    # the move reaches the bot 1.2 s late (answered "thinking" first), and Discord holds its board's edit back
    server.inject_interaction_failure("constructo place", code=None, delay=1.2)
    held = server.inject(EDIT_ORIGINAL, 429, 1, retry_after=2.0)
    move = await alice.slash("constructo place", tile=5, size="large")
    await server.wait_until(lambda: held.hits == 1, 20, "the move's answer to be held")
    await sigterm_and_wait(env)

    late = await answered(await bob.slash("help"))  # while draining: refused privately, nothing done
    assert_refusal(late, "restarting")
    await answered(move, timeout=30)  # the move in flight is delivered after the retry
    assert not move.ephemeral and len(move.message.images) == 1
    assert env.proc.proc is not None
    assert await env.proc.proc.wait() == 0, env.proc.log(3000)
    assert "storage closed" in env.proc.log()

    with main_file_alone(env, tmp_path) as conn:
        stored_version = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        log = [
            (s, p, a)
            for s, p, a in conn.execute(
                "SELECT seq, player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
    assert stored_version == version + 1
    check_log_sequence(log, stored_version)
    assert log[-1][1:] == (alice.id, "L5")
    assert env.violations_since(mark) == []


async def test_sigterm_waits_for_the_ais_board_post_in_the_background(env: BotEnv, tmp_path: Path) -> None:
    server = env.server
    carol = server.as_user("carol", "games-2")
    await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    game_id = env.latest_game("constructo", server.channel("games-2").id).id
    version = env.game(game_id).version
    images = len(public_images(env, "games-2"))
    # the AI's board, posted in the background as a followup of carol's interaction
    held = server.inject("POST /webhooks/*/*", 429, 1, retry_after=2.0)
    await answered(await carol.slash("constructo place", tile=5, size="large"), timeout=30)
    await server.wait_until(lambda: held.hits == 1, 30, "the AI's board post to be held")
    await sigterm_and_wait(env)
    assert env.proc.proc is not None
    assert await env.proc.proc.wait() == 0, env.proc.log(3000)
    assert held.hits == 1
    assert len(public_images(env, "games-2")) == images + 2, "the human's board and the AI's, before the stop"
    with main_file_alone(env, tmp_path) as conn:
        assert conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0] == version + 2
