"""E2E: quick-match queues (``/play join``, ``/play leave``, ``bot/services/matchqueue.py``) through the real bot.

Two players queueing for Constructo are paired and their game opens in a thread of its own, with one public message
notifying exactly them; CONEX waits for the table size chosen (3 seats); a player who allows AI seats gets them after
the wait (``QUEUE_WAIT_S``, 4 s here), also across a restart; a player is in one queue at a time (joining another
moves them, said privately; ``/play leave`` and the **Leave the queue** button leave); the queue survives a restart
(a player queued before it is paired after it); a queued player who opens another game stays queued and is paired,
unless the match finds them at their open-game cap: then they are taken out of the queue and the others keep waiting;
two joins at once next to one waiting player make one game, the other joiner keeps waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message, User, fixed_id

from .helpers import BotEnv, answered, bot_env, games_of, queued

pytestmark = pytest.mark.asyncio(loop_scope="module")

WAIT_S = 4


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"QUEUE_WAIT_S": str(WAIT_S), "THREAD_PER_GAME": "1"}
    async with bot_env(Path(tmp_path_factory.mktemp("queue")), start=False, extra_env=extra) as e:
        for n in range(1, 17):
            user = User(id=fixed_id(700 + n), name=f"q{n}")
            e.server.users[f"q{n}"] = user
        e.server.users["q13"].locale = "es-ES"
        e.server.add_channel("queue-2")
        await e.proc.start()
        await e.ready()
        yield e


def joined_at(env: BotEnv, user_id: int) -> float:
    with env.db() as conn:
        return float(conn.execute("SELECT joined_at FROM match_queue WHERE user_id = ?", (user_id,)).fetchone()[0])


def last_id(env: BotEnv) -> int:
    return max((m.id for m in env.server.all_messages()), default=0)


async def ping(env: BotEnv, after: int, channel: str = "games") -> Message:
    """The public "your quick match is ready" message posted after message ``after`` in ``channel``."""
    return await env.server.wait_for_message(
        lambda m: "quick match is ready" in m.content and not m.ephemeral, channel=channel, after=after, timeout=20
    )


async def test_two_players_queue_for_constructo_and_are_paired_in_a_thread(env: BotEnv) -> None:
    server = env.server
    q1, q2 = server.as_user("q1"), server.as_user("q2")
    res = await answered(await q1.slash("play join", game="constructo"))
    assert res.ephemeral and "queued" in res.content and "nobody else waits" in res.content, res.content
    assert "Leave the queue" in {b.get("label") for b in res.message.buttons()}
    assert queued(env) == {q1.id: ("constructo", 2)}
    assert games_of(env, q1.id) == [], "nothing opens for one player"

    mark = last_id(env)
    res = await answered(await q2.slash("play join", game="constructo"))
    assert not res.ephemeral
    (game,) = games_of(env, q2.id)
    assert game.kind == "constructo" and game.status == "active" and sorted(game.players) == sorted([q1.id, q2.id])
    thread = server.channels[game.channel_id]
    assert thread.parent_id == server.channel("games").id, "the game opens in a thread of its own"
    said = await ping(env, mark)
    assert sorted(said.pinged_users) == sorted([q1.id, q2.id]), "the paired players and nobody else are notified"
    assert not said.pinged_everyone and said.pinged_roles == []
    await server.wait_until(lambda: "board" in env.game(game.id).messages, 10, "the first board")
    assert f"{game.channel_id}/{env.game(game.id).messages['board']}" in said.content, "a jump link to the board"
    assert queued(env) == {}


async def test_conex_waits_for_the_chosen_table_of_three(env: BotEnv) -> None:
    server = env.server
    q3, q4, q5 = (server.as_user(n) for n in ("q3", "q4", "q5"))
    await answered(await q3.slash("play join", game="conex", seats=3))
    res = await answered(await q4.slash("play join", game="conex", seats=3))
    assert res.ephemeral and "2 players wait" in res.content, res.content
    assert games_of(env, q3.id) == [] and games_of(env, q4.id) == []
    mark = last_id(env)
    res = await answered(await q5.slash("play join", game="conex", seats=3))
    assert "The game has a thread of its own" in res.content and "lobby" not in res.content, res.content
    (game,) = games_of(env, q5.id)
    assert game.kind == "conex" and game.status == "active" and game.players == [q3.id, q4.id, q5.id]
    said = await ping(env, mark)
    assert sorted(said.pinged_users) == sorted([q3.id, q4.id, q5.id])
    assert queued(env) == {}


async def test_the_wait_fills_the_free_seats_with_ai_players(env: BotEnv) -> None:
    server = env.server
    q6 = server.as_user("q6", "queue-2")
    mark = last_id(env)
    res = await answered(await q6.slash("play join", game="conex", seats=3, bots=True))
    assert res.ephemeral and f"within {WAIT_S} s" in res.content, res.content
    said = await ping(env, mark, "queue-2")
    (game,) = games_of(env, q6.id)
    assert game.status == "active" and game.players[0] == q6.id and len(game.players) == 3
    assert all(p < 0 for p in game.players[1:]), "AI seats fill the table"
    assert said.pinged_users == [q6.id]
    assert queued(env) == {}


async def test_one_queue_per_player_and_leaving(env: BotEnv) -> None:
    server = env.server
    q7 = server.as_user("q7")
    await answered(await q7.slash("play join", game="constructo"))
    res = await answered(await q7.slash("play join", game="conex", seats=4))
    assert "You left the Constructo queue" in res.content, res.content
    assert queued(env) == {q7.id: ("conex", 4)}
    res = await answered(await q7.slash("play leave"))
    assert res.ephemeral and "You left the CONEX queue" in res.content, res.content
    assert queued(env) == {}
    res = await answered(await q7.slash("play leave"))
    assert "not in a quick-match queue" in res.content

    res = await answered(await q7.slash("play join", game="constructo", seats=3))
    assert res.ephemeral and "Constructo is played by 2 players" in res.content, res.content
    assert queued(env) == {}
    await answered(await q7.slash("play join", game="constructo"))
    first = joined_at(env, q7.id)
    res = await answered(await q7.slash("play join", game="constructo"))
    assert queued(env) == {q7.id: ("constructo", 2)} and joined_at(env, q7.id) == first, "joining again keeps the place"
    clicked = await answered(await q7.click(res.message, "Leave the queue"))
    assert queued(env) == {}
    assert "You left the Constructo queue" in clicked.content, clicked.content
    assert games_of(env, q7.id) == []


async def test_a_spanish_player_is_answered_in_spanish(env: BotEnv) -> None:
    q13 = env.server.as_user("q13")
    res = await answered(await q13.slash("play join", game="conex", seats=2, bots=False))
    assert res.ephemeral and "Estás en la cola de **CONEX** (2 jugadores)" in res.content, res.content
    clicked = await answered(await q13.click(res.message, "Salir de la cola"))
    assert "Has salido de la cola de CONEX" in clicked.content, clicked.content
    assert queued(env) == {}


async def test_the_queue_and_its_wait_survive_a_restart(env: BotEnv) -> None:
    server = env.server
    q8, q9, q10 = server.as_user("q8"), server.as_user("q9"), server.as_user("q10", "queue-2")
    await answered(await q8.slash("play join", game="constructo"))
    await answered(await q10.slash("play join", game="conex", seats=2, bots=True))
    await env.proc.kill()
    assert games_of(env, q10.id) == [], "the wait had not run out before the bot stopped"
    await env.proc.start()
    env.assert_alive()
    # the wait ran out while the bot was down: its stored deadline opens the AI game after the restart
    await server.wait_until(  # its queue row goes once the game is stored (claimed meanwhile)
        lambda: len(games_of(env, q10.id)) == 1 and q10.id not in queued(env), 30, "q10's game with an AI seat"
    )
    (ai_game,) = games_of(env, q10.id)
    assert ai_game.players[0] == q10.id and ai_game.players[1] < 0
    assert queued(env) == {q8.id: ("constructo", 2)}, "q8 still waits after the restart"
    mark = last_id(env)
    await answered(await q9.slash("play join", game="constructo"))
    (game,) = games_of(env, q9.id)
    assert sorted(game.players) == sorted([q8.id, q9.id]) and game.status == "active"
    said = await ping(env, mark)
    assert sorted(said.pinged_users) == sorted([q8.id, q9.id])


async def test_a_queued_player_who_opens_another_game_stays_queued_unless_at_the_cap(env: BotEnv) -> None:
    """The rule: queueing does not reserve anything; another game opened meanwhile keeps the player queued and the
    match seats them if their open games allow it; one at their cap is taken out of the queue."""
    server = env.server
    q11, q12, q1 = server.as_user("q11"), server.as_user("q12"), server.as_user("q1")
    await answered(await q11.slash("play join", game="constructo"))
    await answered(await q11.slash("constructo challenge", opponent="carol"))
    assert queued(env) == {q11.id: ("constructo", 2)}, "opening another game keeps the player queued"
    await answered(await q12.slash("play join", game="constructo"))
    games = games_of(env, q11.id)
    assert len(games) == 2 and any(sorted(g.players) == sorted([q11.id, q12.id]) for g in games)

    # the cap: q11 now has 2 open games; with a cap of 2 per member, the next match finds q11 at the cap
    mod = server.as_user("mod")
    await answered(await mod.slash("settings", games_per_member=2))
    await answered(await q11.slash("play join", game="conex", seats=2))
    assert q11.id not in queued(env), "at the cap already: refused before queueing"
    await answered(await server.as_user("q2").slash("play join", game="conex", seats=2))  # q2 has 1 game
    await answered(await server.as_user("q2").slash("constructo challenge", opponent="dave"))  # q2: 2 now
    res = await answered(await q1.slash("play join", game="conex", seats=2))
    assert res.ephemeral and "nobody else waits" in res.content, res.content
    assert q1.id in queued(env) and server.user("q2").id not in queued(env), "q2 at the cap left the queue"
    assert len(games_of(env, server.user("q2").id)) == 2


async def test_two_joins_at_once_make_one_game_with_the_waiting_player(env: BotEnv) -> None:
    server = env.server
    q14, q15, q16 = (server.as_user(n) for n in ("q14", "q15", "q16"))
    await answered(await q14.slash("play join", game="constructo", clock="live"))
    both = await asyncio.gather(
        q15.slash("play join", game="constructo", clock="live"), q16.slash("play join", game="constructo", clock="live")
    )
    for res in both:
        await answered(res)
    (game,) = games_of(env, q14.id)
    (late,) = [u for u in (q15, q16) if u.id not in game.players]
    assert game.status == "active" and len(game.players) == 2
    waiting = queued(env)
    assert waiting.get(late.id) == ("constructo", 2), "the other joiner waits: nobody is in two games or none"
    assert not {q14.id, q15.id, q16.id} - {late.id} & set(waiting)
    assert games_of(env, late.id) == []


async def test_the_servers_settings_bind_the_queue_too(env: BotEnv) -> None:
    """``/settings`` (``bot/services/house.py``): a game turned off, a channel off the allow-list and a blocked member
    are refused privately by ``/play join`` as by a challenge, and nobody is queued."""
    server = env.server
    mod, q14 = server.as_user("mod"), server.as_user("q14")

    async def admin(**options: object) -> None:
        res = await answered(await mod.slash("settings", **options))
        assert res.ephemeral and res.text.startswith("Saved."), res.text

    await admin(game_off="conex")
    res = await answered(await q14.slash("play join", game="conex", seats=2))
    assert res.ephemeral and "CONEX is turned off in this server" in res.content, res.content
    await admin(game_on="conex", allow_channel="queue-2")
    res = await answered(await q14.slash("play join", game="constructo"))
    assert res.ephemeral and "Games are played only in" in res.content, res.content
    await admin(any_channel=True, block="q14")
    res = await answered(await q14.slash("play join", game="constructo"))
    assert res.ephemeral and "blocked you" in res.content, res.content
    assert q14.id not in queued(env)
    await admin(unblock="q14")
    res = await answered(await q14.slash("play join", game="constructo"))
    assert res.ephemeral and queued(env).get(q14.id) == ("constructo", 2), res.content
    await answered(await q14.slash("play leave"))
