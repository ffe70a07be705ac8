"""E2E: a game command typed in a thread whose game is still running (a tutorial's thread, a game's own thread) is
refused privately with the truth: a thread cannot hold a thread (Discord's rule), so the player is pointed to the
thread's channel, never told that an admin could grant a permission the bot already has
(``bot/services/footprint.py`` ``open_thread``). Nothing is stored or posted for it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("busythread")), extra_env={"THREAD_PER_GAME": "1"}) as e:
        await e.ready()
        yield e


def game_count(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


async def test_a_game_command_in_a_busy_thread_points_to_its_channel(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    ch = "busy-thread"
    server.add_channel(ch)
    parent = server.channel(ch).id
    await answered(await server.as_user("alice", ch).slash("learn constructo"))
    tutorial = env.latest_game("constructo")
    assert tutorial.channel_id != parent, "the tutorial has a thread of its own"
    alice, bob = server.as_user("alice", tutorial.channel_id), server.as_user("bob", tutorial.channel_id)
    games = game_count(env)
    public = [m.id for m in server.all_messages() if not m.ephemeral]
    for user, command, options in (
        (alice, "constructo challenge", {"opponent": "bob"}),
        (bob, "conex new", {}),
        (bob, "learn conex", {}),
    ):
        text = assert_refusal(await answered(await user.slash(command, **options)), "thread", f"<#{parent}>")
        assert "grant" not in text and "Create Public Threads" not in text, text
    assert game_count(env) == games, "nothing stored"
    assert [m.id for m in server.all_messages() if not m.ephemeral] == public, "nothing posted"
    assert env.violations_since(mark) == [], env.log_tail()
