"""The CPU seam's process pools (``bot/core/cpu.py``): jobs run in other processes, the background lane at a lower
OS priority, a worker that dies is replaced and its job retried once, and ``CPU_WORKERS=0`` keeps threads."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from bot.core.cpu import BACKGROUND_NICE, INTERACTIVE_NICE, CpuPools, preload_modules


def where(_: int = 0) -> tuple[int, int]:
    return os.getpid(), os.nice(0)


def loaded(_: int = 0) -> set[str]:
    return {m for m in sys.modules if m.startswith(("engine", "render"))}


def crash_once(flag: str) -> str:
    if not Path(flag).exists():
        Path(flag).write_text("crashed")
        os._exit(3)  # a worker dying mid-job (segfault, OOM kill)
    return "retried"


@pytest.fixture
async def pools() -> CpuPools:
    p = CpuPools(1, 1)
    yield p  # type: ignore[misc]
    p.close()


async def test_jobs_run_in_worker_processes_boards_at_the_bots_priority_ai_lowest(pools: CpuPools) -> None:
    """Boards' workers at the bot's own priority (a board is waited for like an answer), AI at +10."""
    own = os.nice(0)
    pid, nice = await pools.run("interactive", where, 1)
    assert pid != os.getpid() and nice == min(19, own + INTERACTIVE_NICE)
    bg_pid, bg_nice = await pools.run("background", where)
    assert bg_pid not in (os.getpid(), pid) and bg_nice >= min(19, own + BACKGROUND_NICE)
    assert bg_nice > nice or bg_nice == 19, "AI below the boards (unless the run is at nice 19 already)"
    await pools.warm()  # starts and warms every worker; the counts start from zero again
    assert pools.jobs == {"interactive": 0, "light": 0, "background": 0}


async def test_a_dead_worker_is_replaced_and_its_job_retried(pools: CpuPools, tmp_path: Path) -> None:
    assert await pools.run("interactive", crash_once, str(tmp_path / "flag")) == "retried"
    assert pools.restarts == 1
    assert (await pools.run("interactive", where))[0] != os.getpid()  # the new pool serves on


async def test_zero_workers_means_threads() -> None:
    threads = CpuPools(0)
    assert (await threads.run("background", where))[0] == os.getpid()


async def test_workers_fork_with_every_engine_and_render_module_already_imported(pools: CpuPools) -> None:
    """The forkserver imports every engine and render module once; a worker inherits them (no per-worker import
    at warm-up). A ``__main__`` module is never preloaded (it would run a command)."""
    names = preload_modules()
    assert "engine.conex.finder" in names and "render.constructo_draw" in names
    assert not [n for n in names if n.endswith("__main__")]
    present = await pools.run("interactive", loaded)  # the first job: nothing has imported anything in the worker
    assert {"engine.conex.finder", "engine.constructo.search", "render.constructo_draw", "render.conex"} <= present
