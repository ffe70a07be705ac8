"""E2E: the quick-match queue (``bot/services/matchqueue.py``) when the server's settings change under it, and when
the bot dies while a match opens; through the real bot.

- A member blocked (a game turned off, a channel no longer allowed) while queued is passed over and taken out when a
  group forms, by a join or by the AI-seat timer: later joiners are paired without them and never refused because
  of them, a player with ``bots`` is not retried forever; whoever was taken out is told privately the next time they
  use ``/play`` (in words, never naming anyone else).
- A SIGKILL after the group is claimed and before (or right after) the game is stored loses nobody: after the
  restart the pairing has exactly one game, and nobody is left queued; claims left by a crash are deleted at
  start-up when their game exists, else released and paired again.
"""

from __future__ import annotations

import os
import signal
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import User, fixed_id

from .helpers import BotEnv, answered, bot_env, games_of, queued

pytestmark = pytest.mark.asyncio(loop_scope="module")

WAIT_S = 4


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"QUEUE_WAIT_S": str(WAIT_S), "THREAD_PER_GAME": "1"}
    async with bot_env(Path(tmp_path_factory.mktemp("queuefault")), start=False, extra_env=extra) as e:
        for n in range(1, 21):
            e.server.users[f"f{n}"] = User(id=fixed_id(950 + n), name=f"f{n}")
        e.server.users["f9"].locale = "es-ES"
        e.server.add_channel("queue-2")
        await e.proc.start()
        await e.ready()
        yield e


async def admin(env: BotEnv, **options: object) -> None:
    res = await answered(await env.server.as_user("mod").slash("settings", **options))
    assert res.ephemeral and res.text.startswith("Saved."), res.text


async def test_a_member_blocked_while_queued_is_passed_over_and_told_later(env: BotEnv) -> None:
    server = env.server
    f1, f2, f3 = server.as_user("f1"), server.as_user("f2"), server.as_user("f3")
    await answered(await f1.slash("play join", game="constructo"))
    await admin(env, block="f1")
    r2 = await answered(await f2.slash("play join", game="constructo"))
    assert r2.ephemeral and "queued" in r2.content and "nobody else waits" in r2.content, r2.content
    assert f"<@{f1.id}>" not in r2.content and "may not play" not in r2.content
    assert f1.id not in queued(env), "the blocked member is taken out when the group forms"
    r3 = await answered(await f3.slash("play join", game="constructo"))
    assert "may not play" not in r3.text and f"<@{f1.id}>" not in r3.text, r3.text
    (game,) = games_of(env, f3.id)
    assert sorted(game.players) == sorted([f2.id, f3.id]) and game.status == "active"
    assert queued(env).keys().isdisjoint({f1.id, f2.id, f3.id})
    await admin(env, unblock="f1")
    told = await answered(await f1.slash("play leave"))
    assert told.ephemeral and "taken out of the Constructo queue" in told.content, told.content
    assert "no longer let you play" in told.content and "K3" not in told.content
    again = await answered(await f1.slash("play leave"))
    assert "not in a quick-match queue" in again.content, "said once"


async def test_the_ai_fill_is_not_held_up_by_a_blocked_member_of_the_group(env: BotEnv) -> None:
    server = env.server
    f4, f5 = server.as_user("f4"), server.as_user("f5")
    await answered(await f4.slash("play join", game="conex", seats=3, clock="live"))
    await admin(env, block="f4")
    await answered(await f5.slash("play join", game="conex", seats=3, clock="live", bots=True))
    await server.wait_until(lambda: len(games_of(env, f5.id)) == 1, WAIT_S + 20, "f5's game with AI seats")
    (game,) = games_of(env, f5.id)
    assert game.players[0] == f5.id and f4.id not in game.players
    assert all(p < 0 for p in game.players[1:]), game.players
    assert f4.id not in queued(env) and games_of(env, f4.id) == []
    await admin(env, unblock="f4")
    res = await answered(await f4.slash("play join", game="conex", seats=3, clock="live"))
    assert "taken out of the CONEX queue" in res.content and "queued" in res.content, res.content
    await answered(await f4.slash("play leave"))


async def test_a_blocked_member_with_bots_is_taken_out_not_retried(env: BotEnv) -> None:
    server = env.server
    f6 = server.as_user("f6")
    await answered(await f6.slash("play join", game="conex", seats=2, bots=True))
    await admin(env, block="f6")
    await server.wait_until(lambda: f6.id not in queued(env), WAIT_S + 20, "f6 taken out at the deadline")
    assert games_of(env, f6.id) == []
    await admin(env, unblock="f6")
    told = await answered(await f6.slash("play leave"))
    assert "taken out of the CONEX queue" in told.content, told.content


async def test_a_game_turned_off_while_queued_with_bots_takes_the_player_out(env: BotEnv) -> None:
    server = env.server
    f7 = server.as_user("f7")
    await answered(await f7.slash("play join", game="conex", seats=2, bots=True))
    await admin(env, game_off="conex")
    try:
        await server.wait_until(lambda: f7.id not in queued(env), WAIT_S + 20, "f7 taken out at the deadline")
        assert games_of(env, f7.id) == [], "no CONEX game opens while CONEX is turned off"
    finally:
        await admin(env, game_on="conex")
    told = await answered(await f7.slash("play leave"))
    assert "CONEX was turned off in this server" in told.content, told.content


async def test_a_channel_no_longer_allowed_takes_the_player_out_in_their_language(env: BotEnv) -> None:
    server = env.server
    f9 = server.as_user("f9")  # es-ES
    await answered(await f9.slash("play join", game="constructo", bots=True))
    await admin(env, allow_channel="queue-2")
    try:
        await server.wait_until(lambda: f9.id not in queued(env), WAIT_S + 20, "f9 taken out at the deadline")
        assert games_of(env, f9.id) == []
    finally:
        await admin(env, any_channel=True)
    told = await answered(await f9.slash("play leave"))
    assert "Te sacamos de la cola de Constructo" in told.content and "canal" in told.content, told.content


async def _kill_on(env: BotEnv, pattern: str) -> None:
    proc = env.proc

    def kill(_method: str, _path: str) -> None:
        if proc.proc is not None and proc.proc.returncode is None:
            os.kill(proc.proc.pid, signal.SIGKILL)

    hook = env.server.on_request(pattern, kill)
    await env.server.wait_until(lambda: not proc.running, 20, f"the bot killed at {pattern}")
    hook.count = hook.hits
    await proc.kill()
    await proc.start()


@pytest.mark.parametrize(
    "pattern",
    [
        "POST /channels/*/threads",  # the group claimed, the game not stored yet
        "POST /interactions/*/*/callback",  # the game stored (its thread named to the joiner): no second game
    ],
)
async def test_a_sigkill_while_the_paired_game_opens_loses_nobody_and_opens_one_game(env: BotEnv, pattern: str) -> None:
    server = env.server
    first, second = ("f11", "f12") if "threads" in pattern else ("f13", "f14")
    a, b = server.as_user(first), server.as_user(second)
    await answered(await a.slash("play join", game="constructo", clock="live"))
    await b.slash("play join", game="constructo", clock="live")
    await _kill_on(env, pattern)
    await server.wait_until(
        lambda: len(games_of(env, a.id)) == 1 and not {a.id, b.id} & set(queued(env)), 30, "their one game"
    )
    (game,) = games_of(env, a.id)
    assert sorted(game.players) == sorted([a.id, b.id]) and game.status == "active"
    assert len(games_of(env, b.id)) == 1, "one game for one pairing, whatever the restart"
    env.assert_alive()


async def test_claims_left_by_a_crash_are_settled_when_their_game_exists_else_paired_again(env: BotEnv) -> None:
    """The start-up recovery itself, made exact: claims written while the bot is down (as a crash between storing
    the game and deleting the claim, or before storing it, leaves them)."""
    server = env.server
    a, b = server.as_user("f15"), server.as_user("f16")
    await answered(await a.slash("play join", game="constructo", clock="daily"))
    await answered(await b.slash("play join", game="constructo", clock="daily"))
    (game,) = games_of(env, a.id)
    c, d = server.as_user("f17"), server.as_user("f18")
    await answered(await c.slash("play join", game="constructo", clock="none"))
    await env.proc.kill()
    with closing(sqlite3.connect(env.db_path, timeout=5)) as conn, conn:
        created = conn.execute("SELECT created_at FROM games WHERE id = ?", (game.id,)).fetchone()[0]
        row = conn.execute("SELECT * FROM match_queue WHERE user_id = ?", (c.id,)).fetchone()
        for uid, stamp in ((a.id, created - 1), (b.id, created - 1), (d.id, created + 5)):
            conn.execute("INSERT INTO match_queue VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (uid, *row[1:-1], stamp))
        conn.execute("UPDATE match_queue SET claimed_at = ? WHERE user_id = ?", (created + 5, c.id))
    await env.proc.start()
    await server.wait_until(lambda: not queued(env), 30, "every claim settled or paired")
    assert [g.id for g in games_of(env, a.id)] == [game.id], "a claim whose game exists opens no second game"
    assert games_of(env, b.id) == games_of(env, a.id)
    (again,) = games_of(env, c.id)
    assert sorted(again.players) == sorted([c.id, d.id]) and again.status == "active", "a lost claim pairs again"
