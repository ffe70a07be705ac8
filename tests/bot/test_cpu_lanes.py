"""Fair background work (``bot/core/cpu.py``): cheap AI jobs run in a light lane of their own, so a 1-ms CONEX discard
never queues behind long hard-AI searches, and the AI scheduler picks the lane from the game's ``Rules.ai_lane``.

The lane tests run real worker processes and sleeping jobs: they check the order in which jobs finish, not times.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest

from bot.app import TableBot
from bot.core.cpu import BACKGROUND_NICE, INTERACTIVE_NICE, LIGHT_NICE, CpuPools
from bot.games.conex.kind import ConexRules
from bot.games.constructo.kind import ConstructoRules
from bot.storage import Storage
from engine.conex import Game
from engine.constructo import Match
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, GUILD_ID

ALICE = 1
LONG_JOBS = 8
LONG_JOB_S = 0.4


def nap(seconds: float) -> float:
    """A long job (module level: it runs in a worker process)."""
    time.sleep(seconds)
    return seconds


def discard() -> tuple[int, int]:
    """A cheap job: its worker's pid and nice."""
    return os.getpid(), os.nice(0)


async def light_job_beside_long_ones(pools: CpuPools) -> int:
    """Queue ``LONG_JOBS`` long background jobs, then one light job; returns how many long jobs had finished when
    the light one was done."""
    for lane in ("light", "background"):  # every worker started: the order below is the lanes', not start-ups
        await pools.run(lane, discard)
    long_jobs = [asyncio.ensure_future(pools.run("background", nap, LONG_JOB_S)) for _ in range(LONG_JOBS)]
    await asyncio.sleep(0.05)  # the long jobs are submitted first
    await pools.run("light", discard)
    finished = sum(job.done() for job in long_jobs)
    await asyncio.gather(*long_jobs)
    return finished


async def test_a_light_job_finishes_while_long_background_jobs_are_still_queued() -> None:
    pools = CpuPools(1, 1, 1)
    try:
        finished = await light_job_beside_long_ones(pools)
        pid, nice = await pools.run("interactive", discard)
        light_pid, light_nice = await pools.run("light", discard)
        bg_pid, bg_nice = await pools.run("background", discard)
    finally:
        pools.close()
    assert finished <= 2, f"the light job waited for {finished} of {LONG_JOBS} long jobs"
    assert len({os.getpid(), pid, light_pid, bg_pid}) == 4  # a worker of its own per lane
    # the light lane runs between the interactive and the background priority
    base = os.nice(0)  # the bot process
    assert (nice, light_nice, bg_nice) == tuple(
        min(19, base + n) for n in (INTERACTIVE_NICE, LIGHT_NICE, BACKGROUND_NICE)
    )
    assert nice < light_nice < bg_nice or bg_nice == 19


async def test_without_a_light_lane_the_cheap_job_waits_for_every_long_one() -> None:
    """The contrast (the behaviour before the light lane, ``light=0``): the test above can fail."""
    pools = CpuPools(1, 1, 0)
    try:
        finished = await light_job_beside_long_ones(pools)
    finally:
        pools.close()
    assert finished == LONG_JOBS


async def test_an_unknown_lane_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown CPU lane"):
        await CpuPools(0).run("urgent", discard)


def test_each_game_names_the_lane_of_its_ai_jobs() -> None:
    match = Match.new("rombo", first=0)
    constructo = ConstructoRules()
    assert constructo.ai_lane(match, 0, "hard") == "background"  # a node-budget search, ~0.7 s of CPU
    assert constructo.ai_lane(match, 0, "medium") == "light"
    assert constructo.ai_lane(match, 0, "easy") == "light"
    while not match.current_round.is_over:
        match.play(match.current_round.legal_moves()[0])
    assert match.phase == "choosing_layout"
    assert constructo.ai_lane(match, 1, "hard") == "light"  # round 2's layout (M1): a short search
    game = Game.new(players=2, seed=7, table="medium", goal=40)
    assert ConexRules().ai_lane(game, 0, "medium") == "light"  # a discard (X3) or a turn of <= 100 finder calls


async def test_the_ai_scheduler_runs_each_search_in_its_games_lane(bot: TableBot, storage: Storage) -> None:
    lanes: list[tuple[str, str]] = []
    original = bot.games.pools.run

    async def spy(lane: str, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if fn.__name__ == "ai_action":  # boards are drawn in the interactive lane meanwhile
            lanes.append((fn.__module__, lane))
        return await original(lane, fn, *args, **kwargs)

    bot.games.pools.run = spy  # type: ignore[method-assign]
    conex = Game.new(players=2, seed=7, table="medium", goal=40)  # seat 0 (the AI) starts
    conex_state = {"conex": conex.to_dict(), "table": conex.table_size, "goal": conex.goal, "host": -1}
    conex_state |= {"names": ["AI 1", "alice"], "ai": [-1], "locale": None}
    hard = {"match": Match.new("rombo", first=0).to_dict(), "ai": {"seat": 0, "level": "hard"}, "layout": "rombo"}
    hard |= {"names": ["AI", "alice"], "locale": None}
    games = [
        await storage.create_game("conex", GUILD_ID, CHANNEL_ID, conex_state, [-1, ALICE], status="active"),
        await storage.create_game("constructo", GUILD_ID, CHANNEL_ID + 1, hard, [BOT_ID, ALICE], status="active"),
    ]
    for game in games:  # as after a restart: the board of version 0 was posted
        await storage.set_message(game, "board", 990 + game)
        await storage.set_message(game, "board.version", 0)
    assert await bot.games.ai.resume_all() == 2
    await bot.games.ai.idle()
    assert sorted(lanes) == [("bot.games.conex.ai", "light"), ("bot.games.constructo.kind", "background")]
    for game in games:
        record = await storage.get_game(game)
        assert record is not None and record.version == 1  # each AI seat played once


async def test_a_conex_ai_seat_moves_while_hard_constructo_searches_still_wait(bot: TableBot, storage: Storage) -> None:
    """The whole path with real worker processes: three hard Constructo AI seats and then a CONEX AI seat are resumed
    at once; the CONEX seat (queued last) has moved while at least two of the hard searches have not finished. With
    one first-come, first-served background lane it would move only after all three."""
    pools = bot.games.pools = CpuPools(1, 1, 1)
    try:
        await pools.warm()
        hard = {"match": Match.new("rombo", first=0).to_dict(), "ai": {"seat": 0, "level": "hard"}, "layout": "rombo"}
        hard |= {"names": ["AI", "alice"], "locale": None}
        games = [
            await storage.create_game("constructo", GUILD_ID, CHANNEL_ID + n, hard, [BOT_ID, ALICE], status="active")
            for n in (1, 2, 3)
        ]
        conex = Game.new(players=2, seed=7, table="medium", goal=40)  # seat 0 (the AI) starts
        state = {"conex": conex.to_dict(), "table": conex.table_size, "goal": conex.goal, "host": -1}
        state |= {"names": ["AI 1", "alice"], "ai": [-1], "locale": None}
        cheap = await storage.create_game("conex", GUILD_ID, CHANNEL_ID, state, [-1, ALICE], status="active")
        for game in [*games, cheap]:
            await storage.set_message(game, "board", 990 + game)
            await storage.set_message(game, "board.version", 0)

        order: list[int] = []  # the games in the order their AI moves were committed
        bot.games.on_committed.append(lambda committed: order.append(committed.snap.id))
        assert await bot.games.ai.resume_all() == 4
        await bot.games.ai.idle()
        assert sorted(order) == sorted([*games, cheap])  # every AI seat moved once
    finally:
        pools.close()
    assert order.index(cheap) <= 1, f"the CONEX seat moved after {order.index(cheap)} of 3 hard searches"
