"""bot/health.py without Discord (issue 23.2): readiness from gateway events per shard (never ``is_ready()``),
storage answering in time, a stop; the heartbeat file follows readiness at once. End to end:
tests/e2e/test_ops_health.py (unsharded, against the devserver)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

from bot.health import Health
from bot.healthcheck import probe


class FakeStorage:
    def __init__(self) -> None:
        self.stall = False

    async def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.stall:
            await asyncio.sleep(30)
        if sql.startswith("SELECT kind"):
            return [("constructo", "active", 2)]
        return [(1,)]


class FakeBot:
    guilds = [object(), object()]
    latencies = [(0, 0.05), (1, float("nan"))]
    latency = 0.05


async def wait_for(predicate: Any, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until ``predicate()`` (a file written by the heartbeat task's thread: no event to await), at most
    ``timeout`` s."""
    async with asyncio.timeout(timeout):
        while not predicate():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


async def test_sharded_readiness_needs_every_shard_and_storage(tmp_path: Path) -> None:
    storage = FakeStorage()
    health = Health(FakeBot(), storage, tmp_path, shard_ids=(0, 1), heartbeat_every_s=0.05)
    beat = tmp_path / "heartbeat"
    beat.write_text(json.dumps({"pid": os.getpid(), "proc_start": None, "written": 0}))  # an earlier run's file
    await health.start()
    try:
        assert not beat.exists(), "a previous run's heartbeat is deleted at start"
        health.on_event("connect", ())  # the unsharded event is ignored by a sharded process
        health.on_event("shard_connect", (0,))
        assert await health.check_storage() and not health.ready  # shard 1 is not connected yet
        health.on_event("shard_connect", (1,))
        assert health.ready
        await wait_for(beat.exists)
        assert probe(tmp_path)[0] == 0
        health.on_event("shard_disconnect", (1,))
        assert not health.ready
        await wait_for(lambda: not beat.exists())
        health.on_event("shard_resumed", (1,))
        await wait_for(beat.exists)
        storage.stall = True
        assert await health.check_storage(timeout_s=0.05) is False
        assert not health.ready
        await wait_for(lambda: not beat.exists())
        storage.stall = False
        assert await health.check_storage()
        await wait_for(beat.exists)
        health.stop()
        assert not health.ready and not beat.exists()
        assert health.report()["draining"] is True
    finally:
        await health.close()


async def test_unsharded_events_and_scrape_refresh(tmp_path: Path) -> None:
    from bot import metrics

    health = Health(FakeBot(), FakeStorage(), tmp_path)
    health.on_event("shard_connect", (0,))  # an unsharded process follows connect/resumed/disconnect
    assert not health.connected
    health.on_event("connect", ())
    assert health.connected
    health.on_event("disconnect", ())
    assert not health.connected
    health.on_event("resumed", ())
    assert health.connected
    body, _ = await metrics.render()
    assert b'tablebot_games_active{kind="constructo",status="active"} 2.0' in body
    assert b'tablebot_gateway_connected{shard="0"} 1.0' in body
    assert b"tablebot_guilds 2.0" in body
    await health.close()
