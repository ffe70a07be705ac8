"""E2E: what a new user read in a trial, through the real bot: an open challenge another user tries to decline
is explained in words (never "Only <@None> can answer"), in English and Spanish. The bot runs with
``TABLEBOT_STRICT_TEXT=1`` (``tests/conftest.py``): any text of it filled with ``None`` fails its interaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("trial")), start=False) as e:
        e.server.user("bob").locale = "es-ES"
        for name in ("tw-open", "tw-open-es"):
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
