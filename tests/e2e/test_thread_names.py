"""E2E: the name and the end of a thread the bot opened for an open challenge (``bot/services/footprint.py``),
through the real bot with a thread per game.

An open challenge's thread ("Constructo: Alice vs anyone") is renamed to the real players once someone accepts
(and Discord refusing the rename leaves the accepted game playing); a challenge withdrawn, declined or expired
leaves no identically named thread open: it is archived, after its message says how the challenge ended.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Channel

from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCALE = 0.008
"""The bot's clock runs 125 times faster (a 1-minute expiry lasts 0.48 s)."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"THREAD_PER_GAME": "1", "TABLEBOT_CLOCK_SCALE": str(SCALE)}
    async with bot_env(Path(tmp_path_factory.mktemp("names")), extra_env=extra) as e:
        for name in ("tn-accept", "tn-refused", "tn-withdraw", "tn-expire", "tn-lobby"):
            e.server.add_channel(name)
        yield e


async def open_challenge(env: BotEnv, channel: str, user: str = "alice") -> tuple[int, Channel]:
    """``user``'s open challenge in ``channel`` (no clock); returns the game id and its thread."""
    server = env.server
    res = await answered(await server.as_user(user, channel).slash("constructo challenge", clock="none"))
    assert not res.ephemeral, res.text
    game = env.latest_game("constructo")
    await server.wait_until(lambda: "lobby" in env.game(game.id).messages, 15, "the challenge message")
    thread = server.channels[env.game(game.id).channel_id]
    assert thread.is_thread and thread.parent_id == server.channel(channel).id
    assert thread.name == "Constructo: Alice vs anyone" and not thread.archived
    return game.id, thread


async def test_accepted_open_challenge_renames_its_thread(env: BotEnv) -> None:
    server = env.server
    game_id, thread = await open_challenge(env, "tn-accept")
    msg = server.message(env.game(game_id).messages["lobby"])
    await answered(await server.as_user("carol", thread.id).click(msg, "Accept"))
    assert env.game(game_id).status == "active"
    await server.wait_until(lambda: thread.name == "Constructo: Alice vs Carol", 15, "the thread renamed")
    assert not thread.archived


async def test_a_started_conex_lobby_renames_its_thread_to_the_seats(env: BotEnv) -> None:
    """The lobby's thread ("CONEX lobby of Alice") is named after the players once the host starts the game."""
    server = env.server
    res = await answered(await server.as_user("alice", "tn-lobby").slash("conex new", table="small"))
    assert not res.ephemeral, res.text
    game = env.latest_game("conex")
    thread = server.channels[env.game(game.id).channel_id]
    assert thread.is_thread and thread.name == "CONEX lobby of Alice", thread.name
    await answered(await server.as_user("carol", thread.id).slash("conex join"))
    started = await answered(await server.as_user("alice", thread.id).slash("conex start"))
    assert not started.ephemeral, started.text
    assert env.game(game.id).status == "active"
    await server.wait_until(lambda: thread.name == "CONEX: Alice vs Carol", 15, "the lobby's thread renamed")
    assert not thread.archived


async def test_a_refused_rename_leaves_the_game_playing(env: BotEnv) -> None:
    server = env.server
    game_id, thread = await open_challenge(env, "tn-refused")
    refusal = server.inject(f"PATCH /channels/{thread.id}", 403, count=1, code=50013)
    msg = server.message(env.game(game_id).messages["lobby"])
    res = await answered(await server.as_user("carol", thread.id).click(msg, "Accept"))
    assert not res.failed, res
    await server.wait_until(lambda: refusal.hits == 1, 15, "the rename tried and refused")
    await server.wait_until(lambda: "board" in env.game(game_id).messages, 15, "the first board")
    assert env.game(game_id).status == "active" and thread.name == "Constructo: Alice vs anyone"
    assert "accepted" in server.message(msg.id).content


async def test_withdrawn_and_declined_open_challenges_archive_their_thread(env: BotEnv) -> None:
    server = env.server
    game_id, thread = await open_challenge(env, "tn-withdraw")
    msg_id = env.game(game_id).messages["lobby"]
    await answered(await server.as_user("alice", "tn-withdraw").slash("constructo decline"))
    assert env.game(game_id).status == "aborted"
    await server.wait_until(lambda: thread.archived, 15, "the withdrawn challenge's thread archived")
    assert "withdr" in server.message(msg_id).content.lower(), server.message(msg_id).content
    assert server.channels.get(thread.id) is thread, "archived, not deleted"


async def test_an_expired_open_challenge_archives_its_thread(env: BotEnv) -> None:
    server = env.server
    text = (await answered(await server.as_user("mod").slash("settings", expiry=1))).text
    assert "1 minute" in text, text
    try:
        game_id, thread = await open_challenge(env, "tn-expire")
        msg_id = env.game(game_id).messages["lobby"]
        await server.wait_until(lambda: env.game(game_id).status == "aborted", 20, "the challenge expired")
        await server.wait_until(lambda: thread.archived, 15, "the expired challenge's thread archived")
        assert "expired" in server.message(msg_id).content, server.message(msg_id).content
    finally:
        await answered(await server.as_user("mod").slash("settings", expiry=15))


async def test_quick_match_without_threads_per_game_starts_in_the_channel(env: BotEnv) -> None:
    """The README's quick match: a thread of its own only while ``/settings thread_per_game`` is on."""
    server = env.server
    server.add_channel("tn-quick")
    mod = server.as_user("mod")
    assert "off" in (await answered(await mod.slash("settings", thread_per_game=False))).text
    try:
        for name in ("dave", "bob"):
            await answered(await server.as_user(name, "tn-quick").slash("play join", game="constructo", clock="none"))
        game = env.latest_game("constructo")
        assert sorted(game.players) == sorted([server.user("dave").id, server.user("bob").id]), game
        assert game.status == "active" and game.channel_id == server.channel("tn-quick").id, "in the channel itself"
    finally:
        await answered(await mod.slash("settings", thread_per_game=True))
    for name in ("dave", "bob"):
        await answered(await server.as_user(name, "tn-quick").slash("play join", game="constructo", clock="none"))
    game = env.latest_game("constructo")
    assert game.status == "active" and server.channels[game.channel_id].parent_id == server.channel("tn-quick").id
