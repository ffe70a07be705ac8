"""E2E (issue 12, games that never get stuck): one bot process for every scenario.

- a second identical challenge is refused with a link to the first (either direction);
- a challenge whose message a moderator deleted is accepted by ``/constructo accept`` from another channel; a
  deleted board is posted again by ``/constructo board``; ``/constructo decline`` withdraws without the message;
- mutual abort (``/abandon`` + one click of the other player): aborted, unrated;
- rematch from the result card of a game vs the AI (one click), played to the end;
- the admins' ``/games`` lists the guild's games (channel, whose turn, since when) and aborts one after a
  confirmation;
- the bot removed from a guild: its games there end aborted, unrated; nothing more is posted there; another
  guild's game is untouched.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("lifecycle"))) as e:
        yield e


async def test_duplicate_refused_deleted_challenge_accepted_by_command_board_reposted(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    games = server.channel("games")
    alice, bob = server.as_user("alice"), server.as_user("bob")

    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    challenge = res.message
    assert challenge is not None and not challenge.ephemeral
    game = env.latest_game("constructo", games.id)
    assert game.status == "lobby"

    again = await answered(await alice.in_channel("games-2").slash("constructo challenge", opponent="bob"))
    text = assert_refusal(again, "already waiting")
    assert f"/{games.id}/{challenge.id}" in text, "the refusal links to the first challenge"
    back = await answered(await bob.in_channel("general").slash("constructo challenge", opponent="alice"))
    assert f"/{challenge.id}" in assert_refusal(back)
    assert env.latest_game("constructo").id == game.id, "no second game was created"

    await server.delete_message(challenge)
    nothing = await answered(await server.as_user("carol").slash("constructo accept"))
    assert_refusal(nothing, "no pending")
    res = await answered(await bob.in_channel("general").slash("constructo accept"))
    assert_refusal(res, "accepted", f"<#{games.id}>")
    await server.wait_until(lambda: env.game(game.id).messages.get("board") is not None, 10, "the first board")
    row = env.game(game.id)
    assert row.status == "active" and env.actions(game.id)[-1][2] == "accept"
    board = server.message(row.messages["board"])
    assert board.channel_id == games.id and board.images, "the board went to the game's channel"

    await server.delete_message(board)
    res = await answered(await alice.slash("constructo board"))
    assert not res.ephemeral and res.message is not None and res.message.images
    await server.wait_until(lambda: env.game(game.id).messages.get("board") == res.message.id, 10,
                            "the re-posted board recorded")
    assert {c.get("custom_id", "")[:6] for c in res.message.buttons()} & {"cx:pl:", "cx:mv:"}, "it is playable"

    # the withdraw of a second challenge whose message is gone
    res = await answered(await alice.in_channel("games-2").slash("constructo challenge", opponent="carol"))
    second = env.latest_game("constructo")
    await server.delete_message(res.message)
    res = await answered(await alice.in_channel("general").slash("constructo decline", opponent="carol"))
    assert "withdrew" in res.text
    assert env.game(second.id).status == "aborted"
    env.test_game = game.id  # type: ignore[attr-defined]  # the running game for the mutual abort below
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
