"""E2E: a Swiss tournament of 7 players × 3 rounds through the real bot, with a restart mid-round (``/tournament``,
``bot/services/tournaments.py``).

Seven members join a Constructo tournament; the organiser starts it; each round's games open as normal games in
threads of their own (seat 0 to the pairing's first player), one player sits out with a bye; players finish their
games (two moves then a resignation, so the games are rated); the next round is paired once every game of the round
is over, without repeating a pairing or a bye. Mid-round 2 the bot is killed: after the restart the round's last
game still ends it and round 3 opens. A player withdraws during round 2 and is not paired in round 3. At the end the
tournament is finished, its final message names the podium, ``/tournament standings`` lists everyone with the
tie-breaks, and the games counted for ratings. Refusals (joining twice, a non-organiser starting) are private.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import User, fixed_id

from .helpers import BotEnv, answered, assert_refusal, bot_env, resign
from .tourney_kit import pairings, status

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = [f"t{n}" for n in range(1, 8)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("tourney")), start=False, extra_env={"THREAD_PER_GAME": "1"}) as e:
        for n, name in enumerate(NAMES, start=1):
            e.server.users[name] = User(id=fixed_id(900 + n), name=name)
        await e.proc.start()
        await e.ready()
        yield e


def name_of(env: BotEnv, user_id: int) -> str:
    return next(n for n in NAMES if env.server.user(n).id == user_id)


async def finish(env: BotEnv, game_id: int, loser_seat: int) -> None:
    """Both players move once, then the player of ``loser_seat`` resigns (a rated game: both moved)."""
    game = env.game(game_id)
    assert game.status == "active" and game.kind == "constructo"
    a, b = (env.server.as_user(name_of(env, p)).in_channel(game.channel_id) for p in game.players)
    await answered(await a.slash("constructo place", tile=5, size="large"), timeout=30)
    await answered(await b.slash("constructo place", tile=4, size="medium"), timeout=30)
    await resign(b if loser_seat == 1 else a)
    await env.server.wait_until(lambda: env.game(game_id).status == "finished", 20, f"game {game_id} finished")


async def all_opened(env: BotEnv, round_no: int) -> list[tuple[int, int | None, str | None, int | None]]:
    def ready() -> bool:
        rows = pairings(env, round_no)
        return bool(rows) and all(r[3] is not None for r in rows if r[1] is not None and r[2] is None)

    await env.server.wait_until(ready, 30, f"round {round_no}'s games opened")
    return pairings(env, round_no)


async def test_seven_players_three_rounds_with_a_restart_mid_round(env: BotEnv) -> None:
    server = env.server
    users = {n: server.as_user(n) for n in NAMES}
    ids = {n: server.user(n).id for n in NAMES}
    res = await answered(await users["t1"].slash("tournament create", game="constructo", format="swiss", rounds=3))
    assert not res.ephemeral and "Constructo tournament" in res.content and "rounds: 3" in res.content, res.content
    for n in NAMES:
        res = await answered(await users[n].slash("tournament join"))
        assert res.ephemeral and "You are in the Constructo tournament" in res.content, res.content
    assert_refusal(await answered(await users["t3"].slash("tournament join")), "already in this tournament")
    assert_refusal(await answered(await users["t2"].slash("tournament start")), "Only the organiser")

    res = await answered(await users["t1"].slash("tournament start"))
    assert not res.ephemeral and "starts with 7 players" in res.content, res.content
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    withdrawn: int | None = None
    for round_no in (1, 2, 3):
        rows = await all_opened(env, round_no)
        active = 7 if withdrawn is None else 6
        seated = sorted(p for a, b, _o, _g in rows for p in (a, b) if p is not None)
        assert seated == sorted(i for i in ids.values() if i != withdrawn), f"round {round_no}: everyone once"
        round_byes = [a for a, b, _o, _g in rows if b is None]
        assert len(round_byes) == active % 2
        assert not set(round_byes) & set(byes), "at most one bye per player"
        byes += round_byes
        games = [(a, b, g) for a, b, _o, g in rows if b is not None]
        for a, b, g in games:
            assert frozenset((a, b)) not in met, "no pairing repeats"
            met.add(frozenset((a, b)))
            game = env.game(g)  # type: ignore[arg-type]
            assert game.players == [a, b] and game.status == "active"
            assert server.channels[game.channel_id].parent_id == server.channel("games").id, "a thread of its own"
        for i, (_a, _b, g) in enumerate(games):
            assert g is not None
            if round_no == 2 and i == len(games) - 1:  # the restart mid-round: two games over, one still running
                await env.proc.kill()
                assert status(env) == ("running", 2)
                await env.proc.start()
                await server.wait_until(lambda: server.bot_connected, 20, "the bot back")
                env.assert_alive()
                withdrawer = next(n for n in NAMES if ids[n] in (games[0][0], games[0][1]))
                res = await answered(await users[withdrawer].slash("tournament withdraw"))
                assert res.ephemeral and "withdrew" in res.content, res.content
                withdrawn = ids[withdrawer]
            await finish(env, g, loser_seat=1 if i % 2 == 0 else 0)
        if round_no < 3:
            await server.wait_until(lambda n=round_no: status(env) == ("running", n + 1), 30, f"round {round_no + 1}")
            said = await server.wait_for_message(
                lambda m, n=round_no: f"round {n + 1} of 3" in m.content, channel="games", timeout=20
            )
            assert said.pinged_users and "Board 1:" in said.content, "the new round's pairings are announced"
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the tournament finished")
    final = await server.wait_for_message(lambda m: "tournament is over" in m.content, channel="games", timeout=20)
    assert len(final.pinged_users) == 3, "the podium is mentioned"
    res = await answered(await users["t5"].slash("tournament standings"))
    assert res.ephemeral and "final standings" in res.content and "Buchholz" in res.content, res.content
    assert res.content.count(" pts (") == 7 and "(withdrew)" in res.content
    rated = env.ratings("constructo")
    assert sum(rated[i][1] for i in ids.values()) == 2 * len(met), "every tournament game counted for ratings"
    env.assert_alive()


async def test_a_conex_round_robin_of_three_everyone_once_with_a_bye_each(env: BotEnv) -> None:
    """After the Swiss one finished, a new tournament may open: CONEX, round robin, 3 players (3 rounds, one game and
    one bye a round); a Spanish player reads Spanish; each game ends by a player leaving it (a forfeit)."""
    server = env.server
    names = ["t2", "t6", "t4"]  # t4, in Spanish, joins last
    server.users["t4"].locale = "es-ES"
    users = {n: server.as_user(n) for n in names}
    res = await answered(await users["t2"].slash("tournament create", game="conex", format="roundrobin", rounds=2))
    assert_refusal(res, "round robin plays every opponent once")
    res = await answered(await users["t2"].slash("tournament create", game="conex", format="roundrobin"))
    assert not res.ephemeral and "round robin" in res.content, res.content
    assert_refusal(await answered(await users["t2"].slash("tournament start")), "at least 3 players")
    for n in names:
        res = await answered(await users[n].slash("tournament join"))
    assert "Estás en el torneo de CONEX (3 jugadores" in res.content, res.content
    res = await answered(await users["t2"].slash("tournament start"))
    assert "starts with 3 players" in res.content and "rounds: 3" in res.content, res.content
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for round_no in (1, 2, 3):
        rows = await all_opened(env, round_no)
        ((a, b, _o, g),) = [r for r in rows if r[1] is not None]
        ((bye, *_),) = [r for r in rows if r[1] is None]
        met.add(frozenset((a, b)))
        byes.add(bye)
        game = env.game(g)  # type: ignore[arg-type]
        assert game.kind == "conex" and game.players == [a, b]
        leaver = server.as_user(name_of(env, b)).in_channel(game.channel_id)
        leave = await answered(await leaver.slash("conex leave"))
        await answered(await leaver.click(leave.message, "Yes, leave the game"))
        await server.wait_until(lambda g=g: env.game(g).status == "finished", 20, "the game over")
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the round robin finished")
    assert len(met) == 3 and len(byes) == 3, "everyone met everyone once and sat out once"
    res = await answered(await users["t4"].slash("tournament standings"))
    assert "clasificación final" in res.content and res.content.count(" pts (") == 3, res.content
    env.assert_alive()


async def test_a_round_stored_before_a_crash_opens_at_the_restart_and_an_aborted_game_scores_nothing(
    env: BotEnv,
) -> None:
    """The crash window between storing a round and opening its games: the round is in the database, no game is.
    At the next READY the bot opens it (once). An admin's ``/abort`` of a tournament game ends it with nothing for
    either player; the bye still scores; the one-round tournament is then over."""
    server = env.server
    names = ["t1", "t3", "t5"]
    users = {n: server.as_user(n) for n in names}
    ids = [server.user(n).id for n in names]
    await answered(await users["t1"].slash("tournament create", game="constructo", rounds=1))
    for n in names:
        await answered(await users[n].slash("tournament join"))
    await env.proc.kill()
    with contextlib.closing(sqlite3.connect(env.db_path)) as conn:  # what /tournament start had committed
        (tid,) = conn.execute("SELECT max(id) FROM tournaments").fetchone()
        conn.execute("UPDATE tournaments SET status = 'running', round = 1 WHERE id = ?", (tid,))
        conn.execute(
            "INSERT INTO tournament_games (tournament_id, round, board, a, b, outcome) VALUES (?, 1, 1, ?, ?, NULL),"
            " (?, 1, 2, ?, NULL, 'bye')",
            (tid, ids[0], ids[1], tid, ids[2]),
        )
        conn.commit()
    await env.proc.start()
    env.assert_alive()
    ((a, b, _o, g), _bye) = await all_opened(env, 1)
    assert (a, b) == (ids[0], ids[1]) and g is not None
    game = env.game(g)
    assert game.status == "active" and game.players == [a, b]
    with env.db() as conn:
        both = conn.execute(
            "SELECT count(*) FROM games g WHERE g.status = 'active' AND g.id IN (SELECT game_id FROM game_players"
            " WHERE user_id = ?) AND g.id IN (SELECT game_id FROM game_players WHERE user_id = ?)",
            (a, b),
        ).fetchone()[0]
    assert both == 1, "the pairing's game opened once"
    await answered(await server.as_user("mod", game.channel_id).slash("abort"))
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the one-round tournament finished")
    assert pairings(env, 1)[0][2] == "none"
    res = await answered(await users["t3"].slash("tournament standings"))
    lines = [ln for ln in res.content.split("\n") if " pts (" in ln]
    assert lines[0].lower().startswith("1. t5: 1 pts") and all(": 0 pts" in ln for ln in lines[1:]), res.content
