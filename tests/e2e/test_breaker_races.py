"""E2E (QA): two clicks at once on the new commands do what one would (``/learn``, ``/tournament``)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import User, fixed_id

from .helpers import BotEnv, answered, bot_env, games_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = [f"q{n}" for n in range(1, 13)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("brk")), start=False, extra_env={"THREAD_PER_GAME": "1"}) as e:
        for n, name in enumerate(NAMES, start=1):
            e.server.users[name] = User(id=fixed_id(700 + n), name=name)
        await e.proc.start()
        await e.ready()
        yield e


def tutorials(env: BotEnv, user_id: int) -> int:
    """How many running tutorials ``user_id`` has."""
    return sum(1 for g in games_of(env, user_id) if g.status == "active" and g.state.get("options", {}).get("tutorial"))


async def test_two_learn_commands_at_once_open_one_tutorial(env: BotEnv) -> None:
    user = env.server.as_user("q1")
    first, second = await user.slash("learn constructo"), await user.slash("learn constructo")
    texts = [(await answered(r, timeout=30)).content for r in (first, second)]
    assert tutorials(env, env.server.user("q1").id) == 1, texts
    assert any("still going on" in x for x in texts), texts


def entrants(env: BotEnv) -> int:
    with env.db() as conn:
        row = conn.execute(
            "SELECT count(*) FROM tournament_players WHERE tournament_id = (SELECT max(id) FROM tournaments)"
        ).fetchone()
    return int(row[0])


async def test_a_round_robin_never_takes_more_than_ten_even_when_two_join_at_once(env: BotEnv) -> None:
    users = {n: env.server.as_user(n) for n in NAMES}
    await answered(await users["q1"].slash("tournament create", game="constructo", format="roundrobin"))
    for n in NAMES[:9]:
        await answered(await users[n].slash("tournament join"))
    a, b = await users["q10"].slash("tournament join"), await users["q11"].slash("tournament join")
    said = [(await answered(r, timeout=30)).content for r in (a, b)]
    assert entrants(env) == 10, said
    assert any("full" in s for s in said), said


def paired(env: BotEnv) -> set[int]:
    with env.db() as conn:
        rows = conn.execute(
            "SELECT a, b FROM tournament_games WHERE tournament_id = (SELECT max(id) FROM tournaments)"
        ).fetchall()
    return {p for row in rows for p in row if p is not None}


def entrant_ids(env: BotEnv) -> set[int]:
    with env.db() as conn:
        rows = conn.execute(
            "SELECT user_id FROM tournament_players WHERE tournament_id = (SELECT max(id) FROM tournaments)"
        ).fetchall()
    return {int(r[0]) for r in rows}


async def test_a_player_leaving_as_the_tournament_starts_is_either_paired_and_in_or_out_and_unpaired(
    env: BotEnv,
) -> None:
    users = {n: env.server.as_user(n) for n in NAMES}
    await answered(await users["q1"].slash("tournament cancel"))
    await answered(await users["q1"].slash("tournament create", game="constructo", format="swiss", rounds=1))
    for n in NAMES[:5]:
        await answered(await users[n].slash("tournament join"))
    start, leave = await users["q1"].slash("tournament start"), await users["q5"].slash("tournament leave")
    said = [(await answered(r, timeout=30)).content for r in (start, leave)]
    await env.server.wait_until(lambda: bool(paired(env)), 20, "round 1 stored")
    assert paired(env) == entrant_ids(env), said


async def test_a_tournament_cancelled_as_it_starts_is_not_said_to_have_started(env: BotEnv) -> None:
    users = {n: env.server.as_user(n) for n in NAMES}
    with contextlib.closing(sqlite3.connect(env.db_path)) as conn:  # the previous test's tournament runs: closed
        conn.execute("UPDATE tournaments SET status = 'finished' WHERE status IN ('open', 'running')")
        conn.commit()
    await answered(await users["q1"].slash("tournament create", game="constructo", format="swiss", rounds=1))
    for n in NAMES[:4]:
        await answered(await users[n].slash("tournament join"))
    start, cancel = await users["q1"].slash("tournament start"), await users["q1"].slash("tournament cancel")
    said = [(await answered(r, timeout=30)).content for r in (start, cancel)]
    with env.db() as conn:
        status = conn.execute("SELECT status FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()[0]
    if status == "cancelled":
        assert "cancelled" in said[1] and "started" not in said[0], said
    else:
        assert status == "running" and "starts with" in said[0], said
