"""Liveness, readiness and metrics of the running bot, told truthfully and cheaply.

:class:`Health` follows the gateway through discord.py's events (``connect`` on READY, ``resumed``, ``disconnect``;
``shard_*`` with their shard id when sharded), never ``is_ready()``, which discord.py does not clear on a
disconnect. The bot is **ready** when every shard of this process has a live session, storage answers ``SELECT 1``
within :data:`STORAGE_TIMEOUT_S`, and no stop has begun.

- ``HEALTH_PORT`` set: an aiohttp server on ``HEALTH_HOST`` (default ``0.0.0.0``) answers ``GET /livez`` (200
  while the event loop runs its timers, 503 if they are late by over :data:`LIVE_MAX_LAG_S`), ``GET /readyz``
  (200 ready / 503 not, JSON body naming what is missing) and ``GET /metrics`` (Prometheus, :mod:`bot.metrics`).
- Always: the heartbeat file ``DATA_DIR/heartbeat`` (JSON ``pid``, ``proc_start``, ``written``) is rewritten every
  :data:`HEARTBEAT_EVERY_S` seconds while ready and deleted as soon as the bot is not (a gateway loss, storage
  failing, a stop). ``python -m bot healthcheck`` (:mod:`bot.healthcheck`, stdlib only) reads it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from bot import metrics
from bot.healthcheck import HEARTBEAT_FILE, proc_start_ticks

log = logging.getLogger(__name__)

HEARTBEAT_EVERY_S = 10.0
STORAGE_TIMEOUT_S = 2.0
LOOP_TICK_S = 0.5
LIVE_MAX_LAG_S = 10.0


class Health:
    """The bot's health state (see the module docstring). ``bot``: the ``TableBot``; ``storage``: open storage."""

    def __init__(
        self,
        bot: Any,
        storage: Any,
        data_dir: Path,
        shard_ids: tuple[int, ...] | None = None,
        *,
        heartbeat_every_s: float = HEARTBEAT_EVERY_S,
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.data_dir = data_dir
        self.sharded = shard_ids is not None
        self.shards: dict[int, bool] = {i: False for i in (shard_ids or (0,))}
        self.heartbeat_every_s = heartbeat_every_s
        self.storage_ok = False
        self.draining = False
        self.started = time.time()
        self.last_tick = time.monotonic()
        self._check: asyncio.Task[bool] | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()
        for shard in self.shards:
            metrics.GATEWAY_CONNECTED.labels(str(shard)).set(0)
        metrics.on_scrape(self.refresh_metrics)

    # -- the gateway ------------------------------------------------------------------------------------------
    def on_event(self, name: str, args: tuple[Any, ...]) -> None:
        """Feed every ``bot.dispatch(name, *args)`` here (cheap: a dict lookup for the events that matter)."""
        if self.sharded:
            if name in ("shard_connect", "shard_resumed", "shard_disconnect") and args:
                self._set(int(args[0]), name != "shard_disconnect")
        elif name in ("connect", "resumed", "disconnect"):
            self._set(0, name != "disconnect")

    def _set(self, shard: int, up: bool) -> None:
        was = self.shards.get(shard)
        self.shards[shard] = up
        metrics.GATEWAY_CONNECTED.labels(str(shard)).set(1 if up else 0)
        if was and not up:
            metrics.GATEWAY_DISCONNECTS.labels(str(shard)).inc()
            log.warning("gateway: shard %s disconnected; not ready until it resumes", shard)
        elif up and not was:
            log.info("gateway: shard %s connected", shard)
        self._changed.set()

    @property
    def connected(self) -> bool:
        """Every shard of this process has a live gateway session."""
        return all(self.shards.values())

    # -- storage ----------------------------------------------------------------------------------------------
    async def check_storage(self, timeout_s: float = STORAGE_TIMEOUT_S) -> bool:
        """``SELECT 1`` through the storage's read path within ``timeout_s`` (one check at a time: concurrent
        callers share it). Sets ``storage_ok``."""
        if self._check is None or self._check.done():
            self._check = asyncio.get_running_loop().create_task(self._ping(timeout_s), name="daemon:storage-ping")
        return await asyncio.shield(self._check)

    async def _ping(self, timeout_s: float) -> bool:
        query = getattr(self.storage, "_all", None) or self.storage.backend.fetch
        try:
            await asyncio.wait_for(query("SELECT 1"), timeout_s)
            ok = True
        except Exception as err:
            if self.storage_ok:
                log.warning("storage did not answer SELECT 1 within %.1f s: %s", timeout_s, type(err).__name__)
            ok = False
        self.storage_ok = ok
        metrics.STORAGE_OK.set(1 if ok else 0)
        return ok

    # -- readiness --------------------------------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """Ready as last known (no new storage check): connected, storage answered, not stopping."""
        return self.connected and self.storage_ok and not self.draining

    def report(self) -> dict[str, Any]:
        return {
            "ready": self.ready,
            "draining": self.draining,
            "storage": self.storage_ok,
            "gateway": {str(k): v for k, v in self.shards.items()},
            "uptime_s": round(time.time() - self.started, 1),
        }

    def stop(self) -> None:
        """A stop began: not ready from now on; the heartbeat file goes."""
        self.draining = True
        metrics.DRAINING.set(1)
        self._changed.set()
        self._remove_heartbeat()

    # -- the heartbeat file -----------------------------------------------------------------------------------
    @property
    def heartbeat_path(self) -> Path:
        return self.data_dir / HEARTBEAT_FILE

    def write_heartbeat(self) -> None:
        """Write the heartbeat file now (the loop does it while ready; a standby calls it while it waits)."""
        self._write_heartbeat()

    def _write_heartbeat(self) -> None:
        body = json.dumps({"pid": os.getpid(), "proc_start": proc_start_ticks(os.getpid()), "written": time.time()})
        tmp = self.heartbeat_path.with_name(HEARTBEAT_FILE + ".tmp")
        tmp.write_text(body)
        os.replace(tmp, self.heartbeat_path)

    def _remove_heartbeat(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.heartbeat_path.unlink()

    async def _heartbeat(self) -> None:
        """Rewrite the file while ready, delete it at once when not (woken by gateway events)."""
        while True:
            if not self.draining:
                await self.check_storage()
            try:
                if self.ready:
                    await asyncio.to_thread(self._write_heartbeat)
                else:
                    await asyncio.to_thread(self._remove_heartbeat)
            except OSError as err:
                log.warning("could not update the heartbeat file %s: %s", self.heartbeat_path, err)
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.heartbeat_every_s)

    async def _loop_lag(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(LOOP_TICK_S)
            self.last_tick = time.monotonic()
            metrics.LOOP_LAG.set(max(0.0, self.last_tick - before - LOOP_TICK_S))

    # -- metrics refreshed at each scrape ---------------------------------------------------------------------
    async def refresh_metrics(self) -> None:
        """Gauges read from the bot and the database before a scrape: guilds, latencies, open games."""
        bot = self.bot
        metrics.GUILDS.set(len(getattr(bot, "guilds", ()) or ()))
        latencies = getattr(bot, "latencies", None)
        pairs = latencies if self.sharded and latencies is not None else [(0, getattr(bot, "latency", math.nan))]
        for shard, latency in pairs:
            metrics.GATEWAY_LATENCY.labels(str(shard)).set(latency if latency == latency else math.nan)
        query = getattr(self.storage, "_all", None) or self.storage.backend.fetch
        rows = await query(
            "SELECT kind, status, COUNT(*) FROM games WHERE status IN ('lobby', 'active') GROUP BY kind, status"
        )
        seen = set()
        for kind, status, count in rows:
            metrics.GAMES_ACTIVE.labels(kind, status).set(count)
            seen.add((kind, status))
        for kind in getattr(getattr(bot, "games", None), "kinds", {}) or {}:
            for status in ("lobby", "active"):
                if (kind, status) not in seen:
                    metrics.GAMES_ACTIVE.labels(kind, status).set(0)

    # -- start and stop ---------------------------------------------------------------------------------------
    async def start(self, port: int | None = None, host: str = "0.0.0.0") -> None:
        """Start the heartbeat and loop-lag tasks and, with ``port``, the HTTP server. Raises ``OSError`` if the
        port cannot be bound."""
        loop = asyncio.get_running_loop()
        self._remove_heartbeat()  # never let a previous run's file speak for this one
        self._tasks = [
            loop.create_task(self._heartbeat(), name="daemon:heartbeat"),
            loop.create_task(self._loop_lag(), name="daemon:loop-lag"),
        ]
        if port is None:
            return
        app = web.Application()
        app.router.add_get("/livez", self.livez)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("health: http://%s:%d/livez, /readyz, /metrics", host, port)

    async def close(self) -> None:
        """Stop the server and the tasks; delete the heartbeat file."""
        metrics.remove_scrape_hook(self.refresh_metrics)
        for task in self._tasks:
            task.cancel()
        if self._check is not None:
            self._check.cancel()
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._runner.cleanup(), 1.0)
            self._runner = None
        self._remove_heartbeat()

    # -- HTTP handlers ----------------------------------------------------------------------------------------
    async def livez(self, _request: web.Request) -> web.Response:
        lag = time.monotonic() - self.last_tick
        ok = lag <= LIVE_MAX_LAG_S
        return web.json_response({"live": ok, "since_last_tick_s": round(lag, 3)}, status=200 if ok else 503)

    async def readyz(self, _request: web.Request) -> web.Response:
        if not self.draining:
            await self.check_storage()
        body = self.report()
        return web.json_response(body, status=200 if body["ready"] else 503)

    async def metrics(self, _request: web.Request) -> web.Response:
        body, content_type = await metrics.render()
        return web.Response(body=body, headers={"Content-Type": content_type})
