"""E2E network faults: the DevServer answers some of the real bot's sends with 429 (with ``retry_after``) or
500/502/504 (which discord.py retries unconditionally after 1 s, 3 s, ...). The bot (through discord.py) retries:
every action is logged once, every board image arrives exactly once (the file is re-sent intact on the retry),
no interaction fails and no protocol violation is recorded."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import (
    CALLBACK,
    EDIT_ORIGINAL,
    FOLLOWUP,
    BotEnv,
    answered,
    assert_png,
    bot_env,
    check_log_sequence,
    replay_constructo,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

STRIP = "strip"
"""Stripping the previous board: an edit through the webhook of the interaction that posted it."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("faults"))) as e:
        yield e


def public_images(env: BotEnv, channel: str) -> list[bytes]:
    return [img for m in env.server.messages(channel) if not m.ephemeral for img in m.images]


async def test_429_and_5xx_on_sends_are_retried_without_duplicates_or_lost_images(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice"), server.as_user("bob")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))

    # the board after Accept is a followup: rate-limited once
    inj = server.inject(FOLLOWUP, 429, 1, retry_after=0.3)
    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    assert inj.hits == 1
    assert len(res.followups) == 1
    assert_png(res.followups[0].images[0])
    game_id = env.latest_game("constructo").id

    # the board is the move's first response (a callback carrying the file); a move that reaches the bot 1.2 s
    # late is answered "thinking" first and its board edited in (EDIT_ORIGINAL)
    plays = [
        (alice, {"tile": 5, "size": "large"}, EDIT_ORIGINAL, 429),
        (bob, {"tile": 4, "size": "medium"}, EDIT_ORIGINAL, 502),
        (alice, {"tile": 1, "size": "small"}, CALLBACK, 500),  # the board's callback
        (bob, {"tile": 9, "size": "small"}, STRIP, 504),  # stripping the previous board
        (alice, {"tile": 2, "size": "medium"}, CALLBACK, 429),  # a rate-limited board callback
        (bob, {"tile": 3, "size": "large"}, CALLBACK, 429),
    ]
    for user, options, route, status in plays:
        version = env.game(game_id).version
        images = len(public_images(env, "games"))
        previous_board = env.game(game_id).messages["board"]
        if route == STRIP:
            route = f"PATCH /webhooks/*/{res.interaction.token}/messages/*"
        if route == EDIT_ORIGINAL:
            server.inject_interaction_failure("constructo place", code=None, delay=1.2)
        inj = server.inject(route, status, 1, retry_after=0.2)
        res = await answered(await user.slash("constructo place", **options), timeout=30)
        await server.wait_until(
            lambda: not server.message(previous_board).components,  # noqa: B023
            15,
            "the previous board to lose its components",
        )
        assert inj.hits == 1, f"{route} {status} was not hit"
        assert not res.ephemeral, res.text
        assert len(res.message.images) == 1
        assert_png(res.message.images[0])
        assert len(public_images(env, "games")) == images + 1, "exactly one new board image"
        row = env.game(game_id)
        assert row.version == version + 1, f"{route} {status}: the move must apply exactly once"
        size = options["size"][0].upper()
        assert env.actions(game_id)[-1][1:] == (user.id, f"{size}{options['tile']}")
        assert any(e.injected and e.status == status for e in server.errors)

    row = env.game(game_id)
    log = env.actions(game_id)
    check_log_sequence(log, row.version)
    assert replay_constructo(row.state, row.players, log).to_dict() == row.match.to_dict()
    assert [a for _s, _p, a in log] == ["accept", "L5", "M4", "S1", "S9", "M2", "L3"]
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_ai_board_posted_once_through_429_and_500_on_its_followup(env: BotEnv) -> None:
    """Against the AI, its boards are followups of the human's interaction (no channel request): a 429 and a 500 on
    them are retried, one post each."""
    server = env.server
    mark = env.mark()
    carol = server.as_user("carol", "games-2")
    res = await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    game_id = env.latest_game("constructo", server.channel("games-2").id).id
    assert env.game(game_id).status == "active"
    for status, (tile, size) in zip((429, 500), ((5, "large"), (1, "small")), strict=True):
        version = env.game(game_id).version
        images = len(public_images(env, "games-2"))
        inj = server.inject(FOLLOWUP, status, 1, retry_after=0.2)
        res = await answered(await carol.slash("constructo place", tile=tile, size=size), timeout=30)
        assert not res.ephemeral, res.text
        await server.wait_until(
            lambda: env.game(game_id).version >= version + 2,  # noqa: B023
            20,
            "the AI's answer",
        )
        await server.wait_until(
            lambda: len(public_images(env, "games-2")) >= images + 2,  # noqa: B023
            20,
            "the AI's board",
        )
        assert inj.hits == 1
        assert len(public_images(env, "games-2")) == images + 2, "the human's board and the AI's, once each"
        for img in public_images(env, "games-2")[-2:]:
            assert_png(img)
        log = env.actions(game_id)
        assert len(log) == version + 2 and log[-1][1] == server.application_id
    check_log_sequence(env.actions(game_id), env.game(game_id).version)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
