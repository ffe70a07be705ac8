"""E2E (issue 15.3): the real bot process on PostgreSQL (``DATABASE_URL``): a Constructo match is played,
the bot is stopped with SIGTERM and started again mid-match, the match finishes rated; everything lives in
PostgreSQL (no SQLite file is created) and the stored log replays. Uses ``TEST_DATABASE_URL`` like the
storage tests (skipped with the reason without a server, failing when ``CI=true``)."""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg

from devserver import DevServer
from devserver.process import BotProcess
from tests.storage.conftest import pg_unavailable, pg_url

from .conftest import E2E_TOKEN
from .helpers import answered, check_log_sequence, replay_constructo, resign

__all__ = ["pg_unavailable", "pg_url"]  # the storage tests' fixtures: a fresh schema of its own per test


async def test_the_real_bot_plays_on_postgresql_across_a_sigterm_restart(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    data = tmp_path / "data"
    proc = BotProcess(devserver, data, tmp_path / "bot.log", token=E2E_TOKEN, extra_env={"DATABASE_URL": pg_url})
    mark = len(devserver.violations)
    try:
        await proc.start()
        assert "postgresql" in proc.log()
        alice, bob = devserver.as_user("alice"), devserver.as_user("bob")
        res = await answered(await alice.slash("constructo challenge", opponent="bob"))
        await answered(await bob.click(res.message, "Accept"), followups=1)
        await answered(await alice.slash("constructo place", tile=5, size="large"))
        assert proc.proc is not None
        await proc.stop()  # SIGTERM
        assert proc.proc.returncode == 0, proc.log(3000)
        await proc.start()
        await answered(await bob.slash("constructo place", tile=4, size="medium"))
        await resign(bob)
    finally:
        await proc.stop()
    assert not (data / "tablebot.sqlite3").exists(), "the bot must not create a SQLite database on PostgreSQL"
    conn = await asyncpg.connect(pg_url)
    try:
        game = await conn.fetchrow(
            "SELECT id, status, version, state_json, initial_state_json, result_json"
            " FROM games ORDER BY id DESC LIMIT 1"
        )
        players = [
            r[0]
            for r in await conn.fetch("SELECT user_id FROM game_players WHERE game_id = $1 ORDER BY seat", game["id"])
        ]
        log = [
            (r[0], r[1], r[2])
            for r in await conn.fetch(
                "SELECT seq, player, action FROM actions WHERE game_id = $1 ORDER BY seq", game["id"]
            )
        ]
        ratings = {
            r[0]: (r[1], r[2], r[3])
            for r in await conn.fetch(
                "SELECT user_id, games, wins, losses FROM ratings WHERE guild_id = $1 AND kind = 'constructo'",
                devserver.guild_id,
            )
        }
    finally:
        await conn.close()
    assert game["status"] == "finished"
    check_log_sequence(log, game["version"])
    assert [a for _s, _p, a in log][:3] == ["accept", "L5", "M4"] and log[3][1] == bob.id  # then bob resigns
    replayed = replay_constructo(json.loads(game["state_json"]), players, log)
    assert replayed.outcome is not None
    result = json.loads(game["result_json"])
    assert result["ranking"] == [[alice.id], [bob.id]] and result["rated"] is True
    assert result["results"] == {str(alice.id): "win", str(bob.id): "loss"} and result["reason"]
    assert ratings == {alice.id: (1, 1, 0), bob.id: (1, 0, 1)}
    assert devserver.violations[mark:] == []
