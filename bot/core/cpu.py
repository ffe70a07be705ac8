"""The CPU seam's engine: process pools so the event loop only does I/O and every core works.

Three lanes, each its own ``concurrent.futures.ProcessPoolExecutor`` (``forkserver`` context: workers fork from a
small server process that already imported ``engine`` and ``render``, never from the bot with its sockets):

- **interactive** (``CPU_WORKERS``, default: the machine's cores): boards, hands, hints, placement searches,
  everything a person waits for;
- **light** (one worker, ``nice`` +7, between the interactive 0 and the background +10): cheap background jobs,
  at most about a second of CPU each (an AI seat's quick move or discard). The caller names the lane from the
  job's kind (a game's ``Rules.ai_lane``), so a 1-ms discard never queues behind long searches;
- **background** (``AI_WORKERS``, default: half the cores, at least one; ``nice`` +10): long jobs -- hard AI
  searches, analyses, replay GIFs. They share their workers first come, first served.

Both background lanes run at a lower OS priority, so no number of AI games can take the cores from a first
response, and they cannot queue in front of an interactive job either (another executor). The light lane's
nice is between the two, so the scheduler gives its short jobs most of a core even while every background
worker searches. A light job done more than ``LIGHT_SLOW_S`` after its call is logged (a kind's lane may be wrong).

The interactive workers run at the bot's own priority (:data:`INTERACTIVE_NICE`): a board is what a player waits
for, as much as the first response. They ran at ``nice`` +5 until the shards' boards were measured starving behind
two bot processes, PostgreSQL and the local Discord server; the event loop's first responses do not need the
priority (the first-response guard answers within 0.5 s when the process is busy: 0 late first responses at 450
games with the workers at 0).

``CPU_WORKERS=0`` runs everything in threads of the bot's own process (the old behaviour; unit tests use it:
their injected functions need not pickle). A worker that dies (``BrokenProcessPool``) is replaced and the job
retried once. :meth:`CpuPools.warm` starts every worker and imports/draws once so the first real render is not
slow.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import pkgutil
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

log = logging.getLogger(__name__)

PRELOAD = ("engine", "render", "PIL.Image", "PIL.PngImagePlugin")
BACKGROUND_NICE = 10
INTERACTIVE_NICE = 0
"""The interactive workers' OS priority relative to the bot process: the same (BENCHMARKS "Group commit and the
board workers' priority": at +5, two shard processes at 300 games starved their board workers, p99 1.08-1.28 s,
held at 0 with 0.59-0.65 s and still 0 late first responses at 450 games)."""
LIGHT_NICE = 7
LANES = ("interactive", "light", "background")
NICE = {"interactive": INTERACTIVE_NICE, "light": LIGHT_NICE, "background": BACKGROUND_NICE}
LIGHT_SLOW_S = 5.0
"""A light-lane job done later than this (wall seconds from its call, queueing included) is logged."""


def _module_names(package: str) -> list[str]:
    """``package`` and the names of every module below it (its subpackages are imported to list them)."""
    pkg = importlib.import_module(package)
    return [package] + [info.name for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=f"{package}.")]


def _import_all(package: str) -> int:
    """Import ``package`` and every module below it (the worker's warm-up); returns how many."""
    count = 0
    for name in _module_names(package):
        try:
            importlib.import_module(name)
            count += 1
        except Exception:  # a module that cannot load here is not one a job will use
            pass
    return count


def preload_modules() -> list[str]:
    """What the forkserver imports once, before it forks any worker: :data:`PRELOAD` and every ``engine`` and
    ``render`` module. Workers inherit them, so a worker's warm-up imports nothing (each of the 4 default workers
    used to import the ~0.35 s of modules on its own: BENCHMARKS "Where a bot start's CPU goes")."""
    names = list(PRELOAD)
    for package in ("engine", "render"):
        names += [n for n in _module_names(package) if n not in names and not n.endswith(".__main__")]
    return names


def _orphan_watch(bot_pid: int) -> None:
    while True:
        time.sleep(1.0)
        try:
            os.kill(bot_pid, 0)
        except ProcessLookupError:  # the bot is gone (even a SIGKILLed one): end, and so the forkserver ends too
            os._exit(0)
        except PermissionError:
            pass


def _init_worker(nice: int, bot_pid: int) -> None:
    import threading

    threading.Thread(target=_orphan_watch, args=(bot_pid,), name="orphan-watch", daemon=True).start()
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass


def warm_job(pause_s: float) -> int:
    """Warm one worker: import every engine and render module, encode a small picture (fonts, zlib, PNG)."""
    from PIL import Image

    from render import to_png

    n = _import_all("engine") + _import_all("render")
    to_png(Image.new("RGB", (64, 64), "white"))
    time.sleep(pause_s)  # hold this worker so the next warm job starts another one
    return os.getpid() if n else 0


class CpuPools:
    """The interactive, light and background lanes (see the module docstring).

    ``workers``: interactive processes (0: threads for everything); ``background``: background processes
    (``None``: half of ``workers``, at least one); ``light``: light-lane processes (``None``: one; 0: light jobs
    share the background lane, as before the light lane existed)."""

    def __init__(self, workers: int, background: int | None = None, light: int | None = None) -> None:
        self.workers = max(0, workers)
        self.background_workers = max(1, self.workers // 2) if background is None else max(0, background)
        self.light_workers = 1 if light is None else max(0, light)
        self._pools: dict[str, Executor | None] = dict.fromkeys(LANES)
        self.jobs = dict.fromkeys(LANES, 0)
        self.restarts = 0

    @property
    def processes(self) -> bool:
        return self.workers > 0

    def _size(self, lane: str) -> int:
        if lane == "interactive":
            return self.workers
        if lane == "light":
            return self.light_workers
        return self.background_workers or self.workers

    def _lane(self, lane: str) -> str:
        """The lane whose pool serves ``lane`` (light jobs use the background pool when the light lane has none).
        Raises ValueError for an unknown lane."""
        if lane not in NICE:
            raise ValueError(f"unknown CPU lane {lane!r}: one of {', '.join(LANES)}")
        return "background" if lane == "light" and not self.light_workers else lane

    def _pool(self, lane: str) -> Executor | None:
        if not self.processes:
            return None
        lane = self._lane(lane)
        pool = self._pools[lane]
        if pool is None:
            ctx = multiprocessing.get_context("forkserver")
            try:
                ctx.set_forkserver_preload(preload_modules())
            except Exception:  # the forkserver already runs (another pool started it)
                pass
            pool = ProcessPoolExecutor(
                self._size(lane), mp_context=ctx, initializer=_init_worker, initargs=(NICE[lane], os.getpid())
            )
            self._pools[lane] = pool
        return pool

    async def run(self, lane: str, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in ``lane``'s pool (``"interactive"``, ``"light"`` or ``"background"``; threads
        when ``workers`` is 0). Raises what ``fn`` raises, ValueError for an unknown lane."""
        self._lane(lane)
        self.jobs[lane] += 1
        pool = self._pool(lane)
        if pool is None:
            return await asyncio.to_thread(fn, *args, **kwargs)
        if lane == "light":
            started = time.perf_counter()
            try:
                return await self._submit(lane, pool, fn, args, kwargs)
            finally:
                took = time.perf_counter() - started
                if took > LIGHT_SLOW_S and fn is not warm_job:
                    name = getattr(fn, "__qualname__", repr(fn))
                    log.warning("light CPU job %s done %.1f s after its call (light jobs must be short)", name, took)
        return await self._submit(lane, pool, fn, args, kwargs)

    async def _submit(
        self, lane: str, pool: Executor, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        loop = asyncio.get_running_loop()
        call = partial(fn, *args, **kwargs) if kwargs else None
        try:
            return await (loop.run_in_executor(pool, call) if call else loop.run_in_executor(pool, fn, *args))
        except BrokenProcessPool:
            log.error("a %s CPU worker died; starting a new pool and retrying the job once", lane)
            self.restarts += 1
            served = self._lane(lane)
            if self._pools[served] is pool:
                self._pools[served] = None
                pool.shutdown(wait=False, cancel_futures=True)
            fresh = self._pool(lane)
            assert fresh is not None
            return await (loop.run_in_executor(fresh, call) if call else loop.run_in_executor(fresh, fn, *args))

    async def warm(self) -> None:
        """Start every worker of every lane and warm it (imports, fonts, one PNG encode)."""
        if not self.processes:
            return
        started = time.perf_counter()
        jobs = [self.run(lane, warm_job, 0.3) for lane in LANES for _ in range(self._size(lane))]
        pids = await asyncio.gather(*jobs, return_exceptions=True)
        for lane in self.jobs:
            self.jobs[lane] = 0
        failed = [p for p in pids if isinstance(p, BaseException)]
        if failed:
            log.warning("warming the CPU workers failed: %r", failed[0])
        log.info(
            "CPU pools ready: %d interactive + %d light + %d background workers (%d processes) in %.1f s",
            self.workers,
            self.light_workers,
            self.background_workers,
            len({p for p in pids if isinstance(p, int)}),
            time.perf_counter() - started,
        )

    def close(self) -> None:
        for lane, pool in self._pools.items():
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            self._pools[lane] = None
