"""E2E: what a new user read in a trial, through the real bot: an open challenge another user tries to decline
is explained in words (never "Only <@None> can answer"), in English and Spanish; the board's Take back button
appears once a player has a move on the board to take back, the other player clicking it is told whose it is, and a
takeback request is withdrawn with **Cancel request** (a draw offer keeps **Cancel offer**). The bot runs with
``TABLEBOT_STRICT_TEXT=1`` (``tests/conftest.py``): any text of it filled with ``None`` fails its interaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("trial")), start=False) as e:
        e.server.user("bob").locale = "es-ES"
        for name in ("tw-open", "tw-open-es", "tw-takeback"):
            e.server.add_channel(name)
        await e.proc.start()
        yield e


@pytest.mark.parametrize(
    ("channel", "author", "other", "said"),
    [
        (
            "tw-open",
            "alice",
            "carol",
            "This is an open challenge: anyone may accept it; only its author can withdraw it.",
        ),
        (
            "tw-open-es",
            "dave",
            "bob",
            "Es un desafío abierto: cualquiera puede aceptarlo; solo quien lo creó puede retirarlo.",
        ),
    ],
)
async def test_an_open_challenge_cannot_be_declined_by_another_and_says_so(
    env: BotEnv, channel: str, author: str, other: str, said: str
) -> None:
    server = env.server
    res = await answered(await server.as_user(author, channel).slash("constructo challenge", clock="none"))
    assert not res.ephemeral, res.text
    game = env.latest_game("constructo", server.channel(channel).id)
    await server.wait_until(lambda: "lobby" in env.game(game.id).messages, 15, "the challenge message")
    msg = server.message(env.game(game.id).messages["lobby"])
    text = assert_refusal(await answered(await server.as_user(other, channel).click(msg, "Decline")), said)
    assert "None" not in text, text
    assert env.game(game.id).status == "lobby", "the challenge still waits"
    accepted = await answered(await server.as_user(other, channel).click(msg, "Accept"))  # anyone may accept it
    assert not accepted.ephemeral, accepted.text
    await server.wait_until(lambda: env.game(game.id).status == "active", 15, "the accepted game")


def labels(message: Message) -> list[str]:
    return [c.get("label") or "" for c in message.buttons() if c.get("type") == 2]


async def test_take_back_shows_once_a_move_can_be_taken_back_and_a_request_is_cancelled_as_a_request(
    env: BotEnv,
) -> None:
    server = env.server
    alice, bob = server.as_user("alice", "tw-takeback"), server.as_user("carol", "tw-takeback")
    res = await answered(await alice.slash("constructo challenge", opponent="carol", clock="none"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", server.channel("tw-takeback").id)
    board = await recorded_board(env, game.id)
    assert "Offer draw" in labels(board) and "Take back" not in labels(board), labels(board)  # no move yet
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    board = await recorded_board(env, game.id)
    assert "Take back" in labels(board), labels(board)  # alice's move can be taken back
    refusal = assert_refusal(await answered(await bob.click(board, "Take back")), "no move on the board")
    assert "for Alice" in refusal, refusal  # the button is there for alice: carol is told so
    res = await answered(await alice.click(board, "Take back"))
    assert labels(res.message)[-3:] == ["Accept takeback", "Decline", "Cancel request"], labels(res.message)
    res = await answered(await alice.click(res.message, "Cancel request"))
    assert "Alice withdrew their takeback request" in res.text, res.text
    res = await answered(await alice.click(await recorded_board(env, game.id), "Offer draw"))
    assert labels(res.message)[-3:] == ["Accept draw", "Decline", "Cancel offer"], labels(res.message)
    await answered(await alice.click(res.message, "Cancel offer"))
    await resign(alice)
