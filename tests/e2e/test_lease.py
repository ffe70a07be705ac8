"""E2E (issue 20.3): several real bot processes on one PostgreSQL, one server per shard (``bot/lease.py``).

- A second process configured for the same shard waits as standby (no IDENTIFY, no request) while the first
  serves; the first is SIGKILLed in the middle of a human game and a game against the AI: the standby takes over
  within seconds (measured), the games go on, every action is applied once (gapless log, one commit per version
  across both processes' logs) and no board is posted twice. A process for another shard is never held up.
- The holder's lease connection is terminated (``pg_terminate_backend``): it stops serving and exits with
  ``ExitCode.LEASE_LOST`` within seconds, and an unsharded standby takes over; a standby stopped with SIGTERM
  exits 0 without ever contacting Discord.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from bot.exitcodes import ExitCode
from bot.lease import namespace_of
from devserver import DevServer
from devserver.process import BotProcess
from tests.storage.conftest import pg_unavailable, pg_url

from .conftest import E2E_TOKEN
from .helpers import answered, check_log_sequence, replay_constructo
from .test_shards import commits_of, games

__all__ = ["pg_unavailable", "pg_url"]  # the storage tests' fixtures: a fresh schema of its own per test

TAKEOVER_LIMIT_S = 20.0
"""A standby must be serving this soon after the holder dies (about 1 s of polling plus a start-up; generous for a
loaded test machine; the measured figures are printed and reported in docs/bot.md)."""
EXIT_LIMIT_S = 8.0
"""A holder whose lease connection is terminated must have exited this soon (it notices at once; closing takes
the rest)."""


async def wait_for_log(proc: BotProcess, text: str, server: DevServer, timeout: float = 30) -> None:  # noqa: ASYNC109
    """Wait until ``text`` is in ``proc``'s log (the log file is polled through the server's wait loop)."""
    await server.wait_until(lambda: text in proc.log() or not proc.running, timeout, f"{text!r} in the bot's log")
    assert text in proc.log(), proc.log(3000)


async def lease_backend(url: str) -> int:
    """The PostgreSQL backend pid holding this installation's lease locks (exclusive mode)."""
    conn = await asyncpg.connect(url)
    try:
        installation = await conn.fetchval("SELECT value FROM meta WHERE key = 'storage.installation_id'")
        pids = await conn.fetch(
            "SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid = $1::bigint::oid AND mode = 'ExclusiveLock'",
            namespace_of(installation),
        )
    finally:
        await conn.close()
    assert len(pids) == 1, f"one process holds the lease, not {pids}"
    return int(pids[0][0])


async def stored_until(
    url: str,
    game_id: int,
    predicate: Callable[[dict[str, Any]], bool],
    what: str,
    timeout: float = 30,  # noqa: ASYNC109
) -> dict[str, Any]:
    """Poll the stored game ``game_id`` (every 50 ms, at most ``timeout`` s) until ``predicate`` holds; return it."""
    deadline = time.monotonic() + timeout
    while True:
        game = (await games(url))[game_id]
        if predicate(game):
            return game
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: game {game_id} is stored as {game}")
        await asyncio.sleep(0.05)


async def a_placement(url: str, game_id: int) -> dict[str, Any]:
    """Options of ``/constructo place`` for a legal placement of the player to move in the stored game."""
    game = (await games(url))[game_id]
    match = replay_constructo(game["state"], game["players"], game["log"])
    move = next(m for m in match.legal_actions(match.current_player) if getattr(m, "size", None) is not None)
    return {"tile": move.tile, "size": move.size.name.lower()}


def board_posts(server: DevServer, channel_id: int) -> list[str]:
    """The texts of the public messages with a picture (boards) in ``channel_id`` (each names its move and round)."""
    return [m.content for m in server.messages(channel_id) if m.images and not m.ephemeral]


async def test_a_standby_for_the_same_shard_takes_over_after_a_sigkill(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    server = devserver
    guilds = [server.add_guild(f"shard-{i}", shard=(i, 2)) for i in range(2)]
    env = {"DATABASE_URL": pg_url, "DEV_GUILD_ID": "", "CPU_WORKERS": "1"}

    def process(name: str, shard: int) -> BotProcess:
        return BotProcess(
            server, tmp_path / name, tmp_path / f"{name}.log", token=E2E_TOKEN, extra_env=env, shards=([shard], 2)
        )

    first, standby, other = process("first", 0), process("standby", 0), process("other", 1)
    mark = len(server.violations)
    try:
        await first.start()
        assert "lease held for shards 0" in first.log()
        requests, identified = len(server.requests), server.identify_count
        await standby.start(wait=False)
        await wait_for_log(standby, "standby for shards 0", server)
        assert (len(server.requests), server.identify_count) == (requests, identified), (
            "a standby sends no request and opens no gateway session"
        )
        await other.start()  # shard 1 is not held up by shard 0's lease
        assert "lease held for shards 1" in other.log()

        chan = server.channel("games", guild=guilds[0])
        alice, bob = server.as_user("alice", chan), server.as_user("bob", chan)
        res = await answered(await alice.slash("constructo challenge", opponent="bob"))
        await answered(await bob.click(res.message, "Accept"), followups=1)
        await answered(await alice.slash("constructo place", tile=5, size="large"))
        carol = server.as_user("carol", server.channel("general", guild=guilds[0]))
        await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
        stored = await games(pg_url)
        human = next(i for i, g in stored.items() if len(g["log"]) == 2)  # accept + L5
        ai_game = next(i for i in stored if i != human)
        await answered(await carol.slash("constructo place", **await a_placement(pg_url, ai_game)))
        await stored_until(pg_url, ai_game, lambda g: g["board_version"] == 1, "carol's board recorded")

        before_kill = server.identify_count
        assert before_kill == identified + 1, "only the shard-1 process identified while the standby waited"
        assert "connected as" not in standby.log()
        killed, killed_at = time.monotonic(), time.time()
        await first.kill()  # while the AI thinks about its answer: the new server must play and post it, once
        await standby.wait_ready(before_kill, timeout=TAKEOVER_LIMIT_S)
        takeover_s = time.monotonic() - killed
        taken = re.search(
            r"\n(\S+ \S+) INFO +bot\.lease: lease taken for shards 0 after [\d.]+ s as standby", standby.log()
        )
        assert taken, standby.log(3000)
        lease_s = datetime.strptime(taken[1], "%Y-%m-%d %H:%M:%S,%f").timestamp() - killed_at
        print(
            f"takeover after SIGKILL: lease taken after {lease_s:.2f} s, shard 0 served again after "
            f"{takeover_s:.2f} s (AI answer committed before the kill: {commits_of(first, ai_game)[-1:] == ['2']})"
        )

        res = await answered(await bob.slash("constructo place", tile=4, size="medium"))
        assert not res.ephemeral, res.text
        await stored_until(pg_url, ai_game, lambda g: g["version"] == g["board_version"] == 2, "the AI's answer")
        res = await answered(await carol.slash("constructo place", **await a_placement(pg_url, ai_game)))
        assert not res.ephemeral, res.text
        await stored_until(pg_url, ai_game, lambda g: g["version"] == g["board_version"] == 4, "the AI's 2nd answer")
    finally:
        for proc in (first, standby, other):
            await proc.stop()

    stored = await games(pg_url)
    assert stored[ai_game]["version"] == 4 and stored[human]["version"] == 3
    for game_id, g in stored.items():
        check_log_sequence(g["log"], g["version"])  # gapless: nothing lost, nothing applied twice
        versions = commits_of(first, game_id) + commits_of(standby, game_id)
        assert sorted(versions, key=int) == [str(v) for v in range(1, g["version"] + 1)], (
            f"game {game_id}: one commit per version across both processes, {versions}"
        )
        assert commits_of(other, game_id) == []
        assert g["board_version"] == g["version"], f"game {game_id}: the latest board is posted"
    # the AI game's channel: its first board, then one public board per version: none posted twice, none missing
    boards = board_posts(server, carol.channel.id)
    assert len(boards) == len(set(boards)) == stored[ai_game]["version"] + 1, boards
    assert takeover_s < TAKEOVER_LIMIT_S
    assert server.violations[mark:] == []


async def test_a_holder_whose_lease_connection_is_cut_exits_and_a_standby_serves(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    server = devserver
    env = {"DATABASE_URL": pg_url, "CPU_WORKERS": "1"}

    def process(name: str) -> BotProcess:  # unsharded: the lease covers every shard
        return BotProcess(server, tmp_path / name, tmp_path / f"{name}.log", token=E2E_TOKEN, extra_env=env)

    holder, standby, late = process("holder"), process("standby"), process("late")
    mark = len(server.violations)
    try:
        await holder.start()
        assert "lease held for shards all" in holder.log()
        await standby.start(wait=False)
        await wait_for_log(standby, "standby for shards all", server)
        alice, bob = server.as_user("alice"), server.as_user("bob")
        res = await answered(await alice.slash("constructo challenge", opponent="bob"))
        await answered(await bob.click(res.message, "Accept"), followups=1)

        identified = server.identify_count
        pid = await lease_backend(pg_url)
        conn = await asyncpg.connect(pg_url)
        try:
            cut = time.monotonic()
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await conn.close()
        assert holder.proc is not None
        await asyncio.wait_for(holder.proc.wait(), EXIT_LIMIT_S)
        exit_s = time.monotonic() - cut
        print(f"exit after the lease connection was cut: {exit_s:.2f} s")
        assert holder.proc.returncode == ExitCode.LEASE_LOST, holder.log(3000)
        assert "Stopped serving shards all" in holder.log()
        await standby.wait_ready(identified, timeout=TAKEOVER_LIMIT_S)
        res = await answered(await alice.slash("constructo place", tile=5, size="large"))
        assert not res.ephemeral, res.text

        # a third process waits as standby and stops at once on SIGTERM, having contacted nobody (counted once the
        # serving process has recorded the move's board: its own late requests are not the standby's)
        (game_id,) = (await games(pg_url)).keys()
        await stored_until(pg_url, game_id, lambda g: g["board_version"] == 2, "the move's board recorded")
        requests, identified = len(server.requests), server.identify_count
        await late.start(wait=False)
        await wait_for_log(late, "standby for shards all", server)
        assert (late.data_dir / "heartbeat").exists(), "a working standby is healthy (python -m bot healthcheck)"
        await late.stop()
        assert late.proc is not None and late.proc.returncode == ExitCode.OK, late.log(3000)
        assert server.identify_count == identified and "connected as" not in late.log()
        assert len(server.requests) == requests
    finally:
        for proc in (holder, standby, late):
            await proc.stop()
    stored = await games(pg_url)
    (g,) = stored.values()
    check_log_sequence(g["log"], g["version"])
    assert g["version"] == 2 and g["board_version"] == 2
    assert server.violations[mark:] == []
