"""The CPU seam's engine: process pools so the event loop only does I/O and every core works.

Two lanes, each its own ``concurrent.futures.ProcessPoolExecutor`` (``forkserver`` context: workers fork from a
small server process that already imported ``engine`` and ``render``, never from the bot with its sockets):

- **interactive** (``CPU_WORKERS``, default: the machine's cores): boards, hands, hints, placement searches,
  everything a person waits for;
- **background** (``AI_WORKERS``, default: half the cores, at least one): AI searches, analyses, replay GIFs.
  Its workers run at a lower OS priority (``nice`` +10), so no number of AI games can take the cores from a
  first response, and they cannot queue in front of an interactive job either (another executor).

The interactive workers run at ``nice`` +:data:`INTERACTIVE_NICE` too: when boards ask for more CPU than the machine
has, the bot's own process (the event loop: every first response, the gateway) keeps the cores and the boards lag.

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
INTERACTIVE_NICE = 5
"""The interactive workers' OS priority below the bot process (``nice`` +5: about a third of the CPU weight)."""


def _import_all(package: str) -> int:
    """Import ``package`` and every module below it (the worker's warm-up); returns how many."""
    pkg = importlib.import_module(package)
    count = 1
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=f"{package}."):
        try:
            importlib.import_module(info.name)
            count += 1
        except Exception:  # a module that cannot load here is not one a job will use
            pass
    return count


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
    """The interactive and background lanes (see the module docstring)."""

    def __init__(self, workers: int, background: int | None = None) -> None:
        self.workers = max(0, workers)
        self.background_workers = max(1, self.workers // 2) if background is None else max(0, background)
        self._pools: dict[str, Executor | None] = {"interactive": None, "background": None}
        self.jobs = {"interactive": 0, "background": 0}
        self.restarts = 0

    @property
    def processes(self) -> bool:
        return self.workers > 0

    def _size(self, lane: str) -> int:
        return self.workers if lane == "interactive" else (self.background_workers or self.workers)

    def _pool(self, lane: str) -> Executor | None:
        if not self.processes:
            return None
        pool = self._pools[lane]
        if pool is None:
            ctx = multiprocessing.get_context("forkserver")
            try:
                ctx.set_forkserver_preload(list(PRELOAD))
            except Exception:  # the forkserver already runs (another pool started it)
                pass
            nice = BACKGROUND_NICE if lane == "background" else INTERACTIVE_NICE
            pool = ProcessPoolExecutor(
                self._size(lane), mp_context=ctx, initializer=_init_worker, initargs=(nice, os.getpid())
            )
            self._pools[lane] = pool
        return pool

    async def run(self, lane: str, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in ``lane``'s pool (threads when ``workers`` is 0)."""
        self.jobs[lane] += 1
        pool = self._pool(lane)
        if pool is None:
            return await asyncio.to_thread(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        call = partial(fn, *args, **kwargs) if kwargs else None
        try:
            return await (loop.run_in_executor(pool, call) if call else loop.run_in_executor(pool, fn, *args))
        except BrokenProcessPool:
            log.error("a %s CPU worker died; starting a new pool and retrying the job once", lane)
            self.restarts += 1
            if self._pools[lane] is pool:
                self._pools[lane] = None
                pool.shutdown(wait=False, cancel_futures=True)
            pool = self._pool(lane)
            assert pool is not None
            return await (loop.run_in_executor(pool, call) if call else loop.run_in_executor(pool, fn, *args))

    async def warm(self) -> None:
        """Start every worker of both lanes and warm it (imports, fonts, one PNG encode)."""
        if not self.processes:
            return
        started = time.perf_counter()
        lanes = ("interactive", "background")
        jobs = [self.run(lane, warm_job, 0.3) for lane in lanes for _ in range(self._size(lane))]
        pids = await asyncio.gather(*jobs, return_exceptions=True)
        for lane in self.jobs:
            self.jobs[lane] = 0
        failed = [p for p in pids if isinstance(p, BaseException)]
        if failed:
            log.warning("warming the CPU workers failed: %r", failed[0])
        log.info(
            "CPU pools ready: %d interactive + %d background workers (%d processes) in %.1f s",
            self.workers,
            self.background_workers,
            len({p for p in pids if isinstance(p, int)}),
            time.perf_counter() - started,
        )

    def close(self) -> None:
        for lane, pool in self._pools.items():
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
            self._pools[lane] = None
