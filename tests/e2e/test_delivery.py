"""E2E (issue 13): honest delivery when the disk misbehaves, against the real bot process.

Slow storage: the SQLite write lock held by another process for 4 s (then up to 20 s), and every storage call
stalled for 4 s, then 20 s (``$TABLEBOT_STORAGE_STALL_FILE``, bot/storage/faults.py): commands, components and
autocomplete still get their first response within Discord's 3 s, and the final answer matches what is stored.
Discord's side (permissions, late first responses, refused answers) is in ``test_delivery_discord.py``.

One bot process for the module; each scenario has its own channels.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.result import InteractionResult

from .delivery_kit import challenge, delivery_env, first_response_s, free_placement, hold_write_lock, stall_storage
from .helpers import BotEnv, answered, assert_png, buttons

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = ("slow-1", "slow-2", "slow-3")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with delivery_env(Path(tmp_path_factory.mktemp("delivery")), CHANNELS) as e:
        yield e


async def test_write_lock_held_4s_component_answered_in_time_and_true(env: BotEnv) -> None:
    """Accept while another process holds the write lock for 4 s: answered within 3 s (a deferred update), then
    the game starts, its board is posted and the challenge loses its buttons."""
    server = env.server
    mark = env.mark()
    res, game_id = await challenge(env, "slow-1")
    bob = server.as_user("bob", "slow-1")
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, env.db_path, 4.0))
    await asyncio.sleep(0.2)
    click = await answered(await bob.click(res.message, "Accept"), timeout=30)
    await holder
    assert first_response_s(click) < 3.0
    await server.wait_until(
        lambda: env.game(game_id).status == "active" and "board" in env.game(game_id).messages,
        20,
        "the started game's board",
    )
    board = server.message(env.game(game_id).messages["board"])
    assert_png(board.images[0])
    await server.wait_until(lambda: not buttons(server.message(res.message.id)), 10, "the challenge to lose Accept")
    assert env.violations_since(mark) == [], env.log_tail()


async def test_storage_stalled_every_kind_answers_in_time(env: BotEnv) -> None:
    """Storage stalled 4 s, then 20 s: a command, a component and an autocomplete each get their first response
    within 3 s; the autocomplete offers nothing rather than nothing in time; the move and the acceptance are
    applied once the storage answers, and what the players read says so."""
    server = env.server
    mark = env.mark()
    res2, game2 = await challenge(env, "slow-2")
    bob2 = server.as_user("bob", "slow-2")
    await answered(await bob2.click(res2.message, "Accept"), followups=1)
    res3, game3 = await challenge(env, "slow-3")
    alice2 = server.as_user("alice", "slow-2")
    for stall, tile in ((4.0, 5), (20.0, 1)):
        version = env.game(game2).version
        stall_storage(env, stall)
        move = await alice2.slash("constructo place", tile=tile, size="large")
        it = await server.create_interaction(
            alice2.user, alice2.channel, 4, alice2._command_data("constructo place", {"tile": ""}, focused="tile")
        )
        auto = InteractionResult(server, it)
        results = [move, auto]
        if stall == 20.0:
            results.append(await server.as_user("bob", "slow-3").click(res3.message, "Accept"))
        await asyncio.sleep(3.2)
        for r in results:
            assert not r.failed, f"{r!r} failed with storage stalled {stall} s"
            assert first_response_s(r) < 3.0, r
        assert auto.response_type == 8 and auto.choices == []
        await answered(move, timeout=stall + 20)
        assert env.game(game2).version == version + 1, "the move is applied once storage answers"
        assert f"L{tile}" in move.text and move.images, move.text
        assert not move.ephemeral
        bob2 = server.as_user("bob", "slow-2")
        await answered(await bob2.slash("constructo place", tile=tile + 1, size="small"), timeout=20)
    await server.wait_until(
        lambda: env.game(game3).status == "active" and "board" in env.game(game3).messages,
        30,
        "the accepted game's board",
    )
    await server.wait_until(lambda: not buttons(server.message(res3.message.id)), 10, "the challenge to lose Accept")
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_write_lock_held_20s_the_move_is_refused_privately_and_truly(env: BotEnv) -> None:
    """Another process holds the SQLite write lock for up to 20 s (the slow-1 game of the first test goes on): the
    move is answered within 3 s (thinking), then, storage staying busy, refused privately (the public thinking
    message removed); nothing is stored; once the lock is gone the same move plays. The lock is held until the
    refusal has been read (at most 20 s): the bot gives up while it is held, however long it waits before that."""
    server = env.server
    mark = env.mark()
    game_id = env.latest_game("constructo", server.channel("slow-1").id).id
    row = env.game(game_id)
    tile, size = free_placement(env, game_id)
    player = server.as_user(
        "alice" if row.players[row.match.current_player] == server.user("alice").id else "bob", "slow-1"
    )
    release = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, env.db_path, 20.0, release))
    try:
        await asyncio.sleep(0.2)
        move = await player.slash("constructo place", tile=tile, size=size)
        await asyncio.sleep(3.1)
        assert not move.failed and first_response_s(move) < 3.0
        # the refusal is a followup sent just after the public thinking message is deleted: wait for it too
        await answered(move, timeout=30, followups=1)
        assert holder.done() is False, "the refusal came while the lock was still held"
        assert move.message.deleted, "the public thinking message is removed"
        refusal = move.followups[-1]
        assert refusal.ephemeral and "busy" in refusal.content.lower(), refusal.content
        assert env.game(game_id).version == row.version, "nothing stored"
    finally:
        release.set()
        await holder
    move = await answered(await player.slash("constructo place", tile=tile, size=size), timeout=20)
    assert not move.ephemeral and env.game(game_id).version == row.version + 1
    assert env.violations_since(mark) == [], env.log_tail()
