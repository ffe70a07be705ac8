"""E2E (issue 23.2): health that tells the truth. The real bot with ``HEALTH_PORT`` serves ``/livez``, ``/readyz``
and ``/metrics``; ``/readyz`` and the exec probe (``python -m bot healthcheck``) turn unhealthy within seconds of a
gateway loss (the devserver drops the socket and holds the RESUME) and of stalled storage, and healthy again after
the RESUME; the probe imports no discord and a heartbeat left by an earlier process never passes."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from devserver.process import REPO

from .helpers import BotEnv, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

NOT_READY_WITHIN_S = 3.0
"""A gateway loss shows in ``/readyz`` within this many seconds (it is event-driven: well under one)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = tmp_path_factory.mktemp("health")
    port = free_port()
    extra = {"HEALTH_PORT": str(port), "HEALTH_HOST": "127.0.0.1", "TABLEBOT_STORAGE_STALL_FILE": str(tmp / "stall")}
    async with bot_env(tmp, extra_env=extra) as e:
        e.health_url = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
        yield e


async def get(env: BotEnv, path: str) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            env.health_url + path,  # type: ignore[attr-defined]
            timeout=aiohttp.ClientTimeout(total=5),
        ) as resp,
    ):
        body = await resp.text()
        return resp.status, json.loads(body) if resp.content_type == "application/json" else body


async def wait_status(env: BotEnv, path: str, status: int, timeout: float) -> float:  # noqa: ASYNC109
    """Poll ``path`` until it answers ``status``; the seconds it took (``TimeoutError`` after ``timeout``)."""
    started = time.monotonic()
    while True:
        code, body = await get(env, path)
        if code == status:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise TimeoutError(f"{path} still answers {code} {body} after {timeout} s")
        await asyncio.sleep(0.1)


async def probe(env: BotEnv, *extra: str) -> tuple[int, str, float]:
    """``python [extra] -m bot healthcheck`` as Docker runs it: exit code, output, wall time."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    environ["DATA_DIR"] = str(env.data_dir)  # no token needed
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *extra,
        "-m",
        "bot",
        "healthcheck",
        cwd=str(REPO),
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await proc.communicate()
    return int(proc.returncode or 0), out.decode(), time.monotonic() - started


async def test_live_and_ready_once_connected(env: BotEnv) -> None:
    assert (await get(env, "/livez"))[0] == 200
    await wait_status(env, "/readyz", 200, 20)
    _code, body = await get(env, "/readyz")
    assert body["gateway"] == {"0": True} and body["storage"] is True and body["ready"] is True


async def test_the_exec_probe_is_cheap_and_imports_no_discord(env: BotEnv) -> None:
    await env.server.wait_until(lambda: (env.data_dir / "heartbeat").exists(), 20, "the heartbeat file")
    times = []
    for _ in range(3):
        code, out, took = await probe(env)
        assert code == 0, out
        times.append(took)
    print(f"healthcheck wall time: {', '.join(f'{t:.3f}' for t in times)} s; load {os.getloadavg()[0]:.2f}")
    code, out, _ = await probe(env, "-X", "importtime")
    assert code == 0, out
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in out.splitlines() if "|" in line}
    assert "bot" in imported  # the -X importtime listing is real
    assert not imported & {"discord", "aiohttp", "aiosqlite", "asyncpg", "PIL", "prometheus_client"}, imported


async def test_not_ready_within_seconds_of_a_gateway_loss_and_ready_after_resume(env: BotEnv) -> None:
    server = env.server
    gateway = server.gateway
    release = asyncio.Event()
    original = gateway._resume
    held: list[bool] = []

    async def held_resume(ws: Any, d: Any) -> Any:  # the gateway stays away until the test lets it RESUME
        held.append(True)
        await release.wait()
        return await original(ws, d)

    gateway._resume = held_resume  # type: ignore[method-assign]
    try:
        await wait_status(env, "/readyz", 200, 20)
        resumes = server.resume_count
        await gateway.drop(4000)
        took = await wait_status(env, "/readyz", 503, NOT_READY_WITHIN_S)
        print(f"/readyz not ready {took:.2f} s after the gateway loss")
        code, body = await get(env, "/readyz")
        assert body["gateway"] == {"0": False} and body["storage"] is True
        code, out, _ = await probe(env)
        assert code == 1 and "no heartbeat file" in out, out
        assert (await get(env, "/livez"))[0] == 200  # alive all along: only readiness changes
        await server.wait_until(lambda: bool(held), 20, "the bot to try to RESUME")
        release.set()
        await server.wait_until(lambda: server.resume_count > resumes, 20, "the RESUME")
        await wait_status(env, "/readyz", 200, NOT_READY_WITHIN_S)
        await server.wait_until(lambda: (env.data_dir / "heartbeat").exists(), 5, "the heartbeat file again")
        assert (await probe(env))[0] == 0
        assert server.identify_count == 1, "the session resumed; no new IDENTIFY"
    finally:
        gateway._resume = original  # type: ignore[method-assign]
        release.set()


async def test_not_ready_while_storage_stalls(env: BotEnv) -> None:
    stall = env.data_dir.parent / "stall"
    await wait_status(env, "/readyz", 200, 20)
    stall.write_text(str(time.time() + 60))
    try:
        await wait_status(env, "/readyz", 503, 10)
        _code, body = await get(env, "/readyz")
        assert body["storage"] is False and body["gateway"] == {"0": True}
    finally:
        stall.write_text("0")
    await wait_status(env, "/readyz", 200, 10)


async def test_a_heartbeat_left_by_a_killed_bot_never_passes(env: BotEnv) -> None:
    """Runs last: kills the module's bot. SIGKILL leaves the file; the probe sees its writer is gone, and the next
    process deletes it before anything else (unit test: a reused pid with another start time fails too)."""
    path = env.data_dir / "heartbeat"
    await env.server.wait_until(path.exists, 20, "the heartbeat file")
    old_pid = json.loads(path.read_text())["pid"]
    await env.proc.kill()
    assert path.exists(), "SIGKILL cannot remove the file"
    code, out, _ = await probe(env)
    assert code == 1 and f"process {old_pid}" in out, out
    await env.proc.start(wait=False)
    await env.server.wait_until(
        lambda: not path.exists() or json.loads(path.read_text() or "{}").get("pid") != old_pid,
        30,
        "the new process to remove the old heartbeat",
    )
    await env.proc.wait_ready()
    await env.server.wait_until(path.exists, 20, "the new process's heartbeat")
    assert json.loads(path.read_text())["pid"] == env.proc.proc.pid  # type: ignore[union-attr]
    assert (await probe(env))[0] == 0
