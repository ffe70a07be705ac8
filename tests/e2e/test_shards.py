"""E2E (issue 15.4): two real bot processes, one shard each (``SHARD_COUNT=2``, ``SHARD_IDS=0`` / ``1``), on one
PostgreSQL database. Games run in a guild of each shard; the shard-1 process is killed (SIGKILL) in the middle of
its games and started again while the shard-0 process keeps serving. Nothing is lost or applied twice: every
game's action log is gapless and replays to the stored state, the AI's answer saved before the kill is posted once,
and each process does background work (board recovery, AI resume) only for its own guilds."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import asyncpg

from devserver import DevServer
from devserver.process import BotProcess
from tests.storage.conftest import pg_unavailable, pg_url

from .conftest import E2E_TOKEN
from .helpers import answered, check_log_sequence, replay_constructo

__all__ = ["pg_unavailable", "pg_url"]  # the storage tests' fixtures: a fresh schema of its own per test


async def games(url: str) -> dict[int, dict[str, object]]:
    conn = await asyncpg.connect(url)
    try:
        out: dict[int, dict[str, object]] = {}
        for g in await conn.fetch("SELECT id, guild_id, status, version, state_json FROM games ORDER BY id"):
            players = [
                r[0]
                for r in await conn.fetch("SELECT user_id FROM game_players WHERE game_id = $1 ORDER BY seat", g["id"])
            ]
            log = [
                (r[0], r[1], r[2])
                for r in await conn.fetch(
                    "SELECT seq, player, action FROM actions WHERE game_id = $1 ORDER BY seq", g["id"]
                )
            ]
            board = await conn.fetchval(
                "SELECT message_id FROM game_messages WHERE game_id = $1 AND key = $2", g["id"], "board.version"
            )
            out[g["id"]] = {
                "guild": g["guild_id"],
                "status": g["status"],
                "version": g["version"],
                "state": json.loads(g["state_json"]),
                "players": players,
                "log": log,
                "board_version": board,
            }
        return out
    finally:
        await conn.close()


def commits_of(proc: BotProcess, game_id: int) -> list[str]:
    """The commits a process logged for ``game_id`` (``game 3 (constructo) v4: ...``)."""
    return re.findall(rf"game {game_id} \(\w+\) v(\d+):", proc.log())


async def test_two_shard_processes_share_postgresql_and_survive_a_kill(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    server = devserver
    guilds = [server.add_guild(f"shard-{i}", shard=(i, 2)) for i in range(2)]
    env = {"DATABASE_URL": pg_url, "DEV_GUILD_ID": ""}  # global commands: playable in every guild
    procs = [
        BotProcess(
            server,
            tmp_path / f"data{i}",
            tmp_path / f"bot{i}.log",
            token=E2E_TOKEN,
            extra_env={**env, "CPU_WORKERS": "1"},
            shards=([i], 2),
        )
        for i in range(2)
    ]
    mark = len(server.violations)
    try:
        await asyncio.gather(*(proc.start() for proc in procs))  # independent shards: started side by side
        assert "shards 0 of 2" in procs[0].log() and "shards 1 of 2" in procs[1].log()
        chans = [server.channel("games", guild=g) for g in guilds]
        alice = [server.as_user("alice", c) for c in chans]
        bob = [server.as_user("bob", c) for c in chans]
        # a human game in each shard's guild, and a game against the AI in shard 1's
        for i in range(2):
            res = await answered(await alice[i].slash("constructo challenge", opponent="bob"))
            await answered(await bob[i].click(res.message, "Accept"), followups=1)
            await answered(await alice[i].slash("constructo place", tile=5, size="large"))
        carol = server.as_user("carol", server.channel("general", guild=guilds[1]))
        await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
        stored = await games(pg_url)
        human = {stored_id: g for stored_id, g in stored.items() if len(g["log"]) == 2}  # accept + L5
        assert {g["guild"] for g in human.values()} == {guilds[0].id, guilds[1].id}
        ai_game = next(i for i, g in stored.items() if g["guild"] == guilds[1].id and i not in human)

        # carol moves; the AI's answer is saved; shard 1's process dies before (or after) posting it
        await answered(await carol.slash("constructo place", tile=5, size="small"))
        await server.wait_until(lambda: bool(commits_of(procs[1], ai_game)[-1:] == ["2"]), 20, "the AI's move")
        await procs[1].kill()
        # shard 0 keeps serving meanwhile
        res = await answered(await bob[0].slash("constructo place", tile=4, size="medium"))
        assert not res.ephemeral, res.text
        await procs[1].start()
        # shard 1 plays on after its restart: its human game, and carol against the AI
        res = await answered(await bob[1].slash("constructo place", tile=4, size="medium"))
        assert not res.ephemeral, res.text
        res = await answered(await carol.slash("constructo place", tile=9, size="small"))
        assert not res.ephemeral, res.text
        stored = await games(pg_url)
        await server.wait_until(lambda: commits_of(procs[1], ai_game).count("4") == 1, 20, "the AI's second move")
    finally:
        for proc in procs:
            await proc.stop()

    stored = await games(pg_url)
    for game_id, g in stored.items():
        check_log_sequence(g["log"], g["version"])  # gapless: nothing lost, nothing applied twice
        replayed = replay_constructo(g["state"], g["players"], g["log"])
        assert replayed.to_dict() == g["state"]["engine"]
        assert g["board_version"] == g["version"], f"game {game_id}: the latest board is posted"
        owner, other = (procs[0], procs[1]) if g["guild"] == guilds[0].id else (procs[1], procs[0])
        assert commits_of(other, game_id) == [], f"game {game_id} was touched by the other shard's process"
        versions = commits_of(owner, game_id)
        assert len(versions) == len(set(versions)) == g["version"], f"game {game_id}: one commit per version"
    assert stored[ai_game]["version"] == 4  # carol, AI, carol, AI
    assert server.violations[mark:] == []
