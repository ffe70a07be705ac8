"""E2E races against the real bot process: the same user double-clicks (two interactions sent at once), two
users act at once. Exactly one action applies (one entry in the action log, one new version) and the other
interaction gets a clear ephemeral answer; the server records no protocol violation."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.result import InteractionResult

from .helpers import BotEnv, answered, assert_png, assert_refusal, bot_env, check_log_sequence

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("races"))) as e:
        yield e


def split(results: tuple[InteractionResult, InteractionResult]) -> tuple[InteractionResult, InteractionResult]:
    """(the applied one, the refused one): exactly one answer is public."""
    public = [r for r in results if not r.ephemeral]
    refused = [r for r in results if r.ephemeral]
    assert len(public) == 1 and len(refused) == 1, [r.text for r in results]
    return public[0], refused[0]


async def both(*coros: object) -> tuple[InteractionResult, InteractionResult]:
    """Send two interactions at the same moment, then wait for both answers."""
    a, b = await asyncio.gather(*coros)  # type: ignore[arg-type]
    await asyncio.gather(answered(a), answered(b))
    return a, b


async def test_same_user_double_clicks_and_double_commands_apply_once(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice", "games"), server.as_user("bob", "games")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    board = res.followups[-1]
    game_id = env.latest_game("constructo").id
    version = env.game(game_id).version

    # double click on the same select option
    sel = next(c for c in board.buttons() if c.get("type") == 3 and c["custom_id"].endswith(":L"))
    results = await both(
        alice.select(board, "5", custom_id=sel["custom_id"]), alice.select(board, "5", custom_id=sel["custom_id"])
    )
    applied, refused = split(results)
    assert_png(applied.message.images[0])
    text = assert_refusal(refused)
    assert any(k in text for k in ("out of date", "same moment", "NotYourTurn", "T2")), text
    log = env.actions(game_id)
    assert [a for _s, _p, a in log].count("L5") == 1 and env.game(game_id).version == version + 1
    check_log_sequence(log, version + 1)

    # the same slash command sent twice at once by bob (to move)
    results = await both(
        bob.slash("constructo place", tile=4, size="medium"), bob.slash("constructo place", tile=4, size="medium")
    )
    applied, refused = split(results)
    assert_png(applied.message.images[0])
    text = assert_refusal(refused)
    assert any(k in text for k in ("not your turn", "T2", "same moment")), text
    log = env.actions(game_id)
    assert [a for _s, _p, a in log] == ["accept", "L5", "M4"]
    check_log_sequence(log, version + 2)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_two_users_answer_one_challenge_at_once(env: BotEnv) -> None:
    """bob accepts while alice withdraws the same challenge: exactly one of them happens."""
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice", "games-2"), server.as_user("bob", "games-2")
    challenge = await answered(await alice.slash("constructo challenge", opponent="bob"))
    game_id = env.latest_game("constructo", server.channel("games-2").id).id
    results = await both(bob.click(challenge.message, "Accept"), alice.click(challenge.message, "Decline"))
    applied, refused = split(results)
    assert_refusal(refused)
    log = [a for _s, _p, a in env.actions(game_id)]
    row = env.game(game_id)
    assert log in (["accept"], ["withdraw"]), log
    assert row.status == ("active" if log == ["accept"] else "aborted")
    assert (applied is results[0]) == (log == ["accept"]), "the public answer belongs to the action that applied"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_two_users_take_the_last_seat_at_once(env: BotEnv) -> None:
    """A CONEX lobby with 3 of 4 seats taken: dave and mod click Join together; one sits, one is told it is full."""
    server = env.server
    mark = env.mark()
    users = {n: server.as_user(n, "general") for n in ("alice", "bob", "carol", "dave", "mod")}
    lobby = (await answered(await users["alice"].slash("conex new"))).message
    for n in ("bob", "carol"):
        await answered(await users[n].click(lobby, "Join"))
    game_id = env.latest_game("conex").id
    assert len(env.game(game_id).players) == 3
    results = await both(users["dave"].click(lobby, "Join"), users["mod"].click(lobby, "Join"))
    refused = [r for r in results if r.ephemeral]
    assert len(refused) == 1, [r.text for r in results]
    assert_refusal(refused[0], "U1", "full")
    row = env.game(game_id)
    assert len(row.players) == 4 and len(set(row.players)) == 4
    winner = next(r for r in results if not r.ephemeral).interaction.user.id
    assert row.players[-1] == winner
    assert [a for _s, _p, a in env.actions(game_id)] == ["join"] * 3
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
