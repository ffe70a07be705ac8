"""E2E: a game's thread is never left empty (``bot/services/orphans.py``; README "Design notes", "Orphan threads").

A game opened in a thread of its own creates the thread first and stores the game next.

- The bot SIGKILLed the moment Discord has made the thread (before its id is back, so before the game is stored):
  after the restart the empty thread the bot owns and no game names is deleted; a thread with a stored game in it
  stays; the same challenge then opens normally.
- Storing the game fails (its ``COMMIT`` fails as on a full disk, ``fail:full@commit``): the player is told the
  database's disk is full and nothing was applied, and the thread made for it is gone at once.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = ("orph-keep", "orph-crash", "orph-full")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("orphans"))
    extra = {"THREAD_PER_GAME": "1", "TABLEBOT_STORAGE_STALL_FILE": str(tmp / "fault")}
    async with bot_env(tmp, start=False, extra_env=extra) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


def threads_of(env: BotEnv, channel: str) -> list[int]:
    parent = env.server.channel(channel).id
    return [c.id for c in env.server.channels.values() if c.is_thread and c.parent_id == parent]


def stored_in(env: BotEnv, channel_id: int) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games WHERE channel_id = ?", (channel_id,)).fetchone()[0])


async def test_a_thread_left_by_a_crash_before_its_game_was_stored_is_removed_at_the_restart(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    carol = server.as_user("carol", server.channel("orph-keep").id)
    await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    (kept,) = threads_of(env, "orph-keep")
    assert stored_in(env, kept) == 1
    proc = env.proc

    def kill(_method: str, _path: str) -> None:
        if proc.proc is not None and proc.proc.returncode is None:
            os.kill(proc.proc.pid, signal.SIGKILL)

    server.on_request("POST /channels/*/threads", kill)
    dave = server.as_user("dave", server.channel("orph-crash").id)
    await dave.slash("constructo challenge", opponent="bot", level="easy")
    await server.wait_until(lambda: not proc.running, 20, "the bot killed as its thread was made")
    (orphan,) = threads_of(env, "orph-crash")
    assert stored_in(env, orphan) == 0 and server.messages(orphan) == [], "an empty thread no game names"
    await proc.kill()
    await proc.start()
    await server.wait_until(lambda: orphan not in server.channels, 30, "the empty thread removed")
    assert threads_of(env, "orph-keep") == [kept], "a thread with its game stays"
    await answered(await dave.slash("constructo challenge", opponent="bot", level="easy"))
    (made,) = threads_of(env, "orph-crash")
    assert stored_in(env, made) == 1
    assert f"thread {orphan} deleted: no game was stored" in env.proc.log()
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_a_thread_whose_game_could_not_be_stored_is_removed_at_once(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    fault = env.data_dir.parent / "fault"
    fault.write_text("fail:full@commit")
    try:
        alice = server.as_user("alice", server.channel("orph-full").id)
        res = await answered(await alice.slash("constructo challenge", opponent="bot", level="easy"))
        assert_refusal(res, "disk is full", "not applied")
        assert threads_of(env, "orph-full") == [], "no empty thread left"
    finally:
        fault.write_text("")
    await answered(await alice.slash("constructo challenge", opponent="bot", level="easy"))
    (made,) = threads_of(env, "orph-full")
    assert stored_in(env, made) == 1
    assert env.violations_since(mark) == [], env.violations_since(mark)
