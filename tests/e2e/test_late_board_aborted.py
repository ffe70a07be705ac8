"""E2E: a board landing after its game was aborted says so. An admin's ``/abort`` commits while the Start's board is
still on its way (held here by a rate limit on the follow-up that carries it): that board arrives below the abort
note and must not show a player to move and a running clock with its buttons gone, as if the game ran on; it reads
as the aborted game's board (``bot/services/boards.py`` ``late_words``), as the recorded board of an aborted game
does."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import FOLLOWUP, BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("lateboard"))) as e:
        await e.ready()
        yield e


async def test_a_start_board_landing_after_an_abort_reads_as_aborted(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    ch = "late-abort"
    server.add_channel(ch)
    alice, bob, mod = (server.as_user(n, ch) for n in ("alice", "bob", "mod"))
    lobby = (await answered(await alice.slash("conex new", table="small"))).message
    await answered(await bob.click(lobby, "Join"))
    game_id = env.latest_game("conex", server.channel(ch).id).id
    held = server.inject(FOLLOWUP, 429, retry_after=2.0)  # the Start's board waits 2 s
    start = await alice.click(lobby, "Start")
    await server.wait_until(lambda: env.game(game_id).status == "active", 10, "the start committed")
    await server.wait_until(lambda: held.hits == 1, 10, "the board held")
    aborted = await answered(await mod.slash("abort"))
    assert not aborted.ephemeral and env.game(game_id).status == "aborted"
    await answered(start)

    def boards() -> list:
        return [m for m in server.messages(ch) if m.images and m.id != lobby.id]

    await server.wait_until(lambda: bool(boards()) and not boards()[-1].buttons(), 15, "the late board, stripped")
    await asyncio.sleep(1.0)  # its text edit, if any, comes with the strip
    board = server.message(boards()[-1].id)
    assert board.id > aborted.message.id, "the board landed after the abort note"
    assert f"<@{alice.id}> to play" not in board.content and "clock is running" not in board.content, board.content
    assert "abort" in board.content.lower(), board.content
    assert env.violations_since(mark) == [], env.log_tail()
