"""E2E (issue 25, item 4) on PostgreSQL: ``/learn constructo`` played to the end by the real bot process with
``DATABASE_URL``, stopped with SIGTERM and started again mid-tutorial; the tutorial's progress (meta ``learn:<game>``)
and its closing message live in PostgreSQL like the game. Uses ``TEST_DATABASE_URL`` like the storage tests (skipped
with the reason without a server, failing when ``CI=true``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from bot.i18n import t
from devserver import DevServer
from devserver.process import BotProcess
from engine.constructo import Match
from tests.storage.conftest import pg_unavailable, pg_url

from .conftest import E2E_TOKEN
from .helpers import answered

__all__ = ["pg_unavailable", "pg_url"]

MAX_TURNS = 60


async def _row(conn: asyncpg.Connection, sql: str, *args: object) -> asyncpg.Record | None:
    return await conn.fetchrow(sql, *args)


async def until(predicate: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:  # noqa: ASYNC109
    """Wait until ``await predicate()`` holds (polled every 50 ms); ``TimeoutError`` naming ``what`` after
    ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)


async def test_a_tutorial_on_postgresql_survives_a_sigterm_restart(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    extra = {"DATABASE_URL": pg_url, "THREAD_PER_GAME": "1"}
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log", token=E2E_TOKEN, extra_env=extra)
    conn = await asyncpg.connect(pg_url)
    try:
        await proc.start()
        alice = devserver.as_user("alice")
        res = await answered(await alice.slash("learn constructo"))
        assert res.ephemeral
        game = await _row(conn, "SELECT id, channel_id FROM games ORDER BY id DESC LIMIT 1")
        assert game is not None
        me = alice.in_channel(devserver.channel(game["channel_id"]))

        async def learner_turn() -> Match | None:
            """The match once the learner is to act (its board out), ``None`` once it is over."""

            async def ready() -> bool:
                row = await _row(conn, "SELECT status, version, state_json FROM games WHERE id = $1", game["id"])
                shown = await _row(
                    conn,
                    "SELECT message_id FROM game_messages WHERE game_id = $1 AND key = 'board.version'",
                    game["id"],
                )
                assert row is not None
                if shown is None or shown[0] != row["version"]:
                    return False
                match = Match.from_dict(json.loads(row["state_json"])["engine"])
                return row["status"] != "active" or 0 in match.awaiting()

            await until(ready, "the learner's board")
            row = await _row(conn, "SELECT status, state_json FROM games WHERE id = $1", game["id"])
            assert row is not None
            return None if row["status"] != "active" else Match.from_dict(json.loads(row["state_json"])["engine"])

        restarted = False
        for turn in range(MAX_TURNS):
            match = await learner_turn()
            if match is None:
                break
            if turn == 2 and not restarted:
                before = await _row(conn, "SELECT value FROM meta WHERE key = $1", f"learn:{game['id']}")
                await proc.stop()  # SIGTERM mid-tutorial
                await proc.start()
                restarted = True
                after = await _row(conn, "SELECT value FROM meta WHERE key = $1", f"learn:{game['id']}")
                assert before is not None and after is not None and before[0] == after[0]
            move = match.current_round.legal_moves()[0]
            if move.is_place:
                await answered(await me.slash("constructo place", tile=move.tile, size=move.size.word))
            else:
                await answered(await me.slash("constructo move", **{"from": move.src, "to": move.dst}))
        assert restarted
        key = "SELECT message_id FROM game_messages WHERE game_id = $1 AND key = 'learn_end'"

        async def closed() -> bool:
            return await _row(conn, key, game["id"]) is not None

        await until(closed, "the closing message recorded in PostgreSQL")
        end = await _row(conn, key, game["id"])
        assert end is not None
        assert t("learn.offer", "en-US") in devserver.message(end[0]).content
        meta = await _row(conn, "SELECT value FROM meta WHERE key = $1", f"learn:{game['id']}")
        assert meta is not None and {"layout", "place", "round_end", "match"} <= set(json.loads(meta[0])["taught"])
    finally:
        await conn.close()
        await proc.stop()
    assert not (tmp_path / "data" / "tablebot.sqlite3").exists()
