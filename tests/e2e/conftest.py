"""Fixtures for end-to-end tests: the DevServer on a free loopback port and the **real bot process**.

``bot_process`` runs ``python -m bot`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
``DATA_DIR`` (a tmp dir) and ``DEV_GUILD_ID`` pointed at ``devserver``, waits until it has identified on the
gateway and its commands are synced, and can ``kill()`` it (SIGKILL) and ``restart()`` it on the same DATA_DIR.
Every test in ``tests/e2e`` is marked ``e2e``. Users act through ``devserver.as_user("alice")`` (see
``bot.devserver.client``); ``devserver.violations`` lists every Discord rule the bot broke.

Example::

    async def test_help(devserver, bot_process):
        res = await (await devserver.as_user("alice").slash("help")).wait()
        assert res.text and devserver.violations == []
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.devserver import DevServer

REPO = Path(__file__).resolve().parents[2]
E2E_TOKEN = "e2e-bot-token"
READY_TIMEOUT_S = 45.0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def bot_entry_missing() -> str | None:
    """Why ``python -m bot`` cannot run a bot yet (None when ``bot/app.py`` exists)."""
    if not (REPO / "bot" / "app.py").exists():
        return "bot/ has no working `python -m bot` yet (bot/app.py missing: the bot is being written)"
    return None


class BotProcess:
    """The real bot (``python -m bot``) as a subprocess pointed at ``server``; output goes to ``log_path``."""

    def __init__(self, server: DevServer, data_dir: Path, log_path: Path, extra_env: dict[str, str] | None = None):
        self.server = server
        self.data_dir = data_dir
        self.log_path = log_path
        self.extra_env = extra_env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(self.server.env(E2E_TOKEN))
        env.update({"DATA_DIR": str(self.data_dir), "LOG_LEVEL": "INFO", "PYTHONUNBUFFERED": "1"})
        env.update(self.extra_env)
        return env

    def log(self) -> str:
        """Everything the bot printed so far (all runs)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def start(self, *, wait: bool = True) -> None:
        """Start ``python -m bot``; with ``wait``, until it is on the gateway with commands synced."""
        self.starts += 1
        identified = self.server.identify_count
        with self.log_path.open("a") as log:
            log.write(f"\n===== bot start #{self.starts} =====\n")
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(REPO), env=self.env, stdout=log, stderr=asyncio.subprocess.STDOUT)
        if wait:
            await self.wait_ready(identified)

    async def wait_ready(self, identified_before: int = 0, timeout: float = READY_TIMEOUT_S) -> None:  # noqa: ASYNC109
        """Wait for a new IDENTIFY and synced commands; fails with the bot's log if the process exits."""
        s = self.server

        def ready() -> bool:
            if self.proc is not None and self.proc.returncode is not None:
                return True
            return s.identify_count > identified_before and s.bot_connected and bool(s.all_commands())

        await s.wait_until(ready, timeout, "the bot process to connect and sync")
        if self.proc is not None and self.proc.returncode is not None:
            pytest.fail(f"`python -m bot` exited with {self.proc.returncode}:\n{self.log()[-4000:]}")

    async def kill(self) -> None:
        """SIGKILL the bot (no cleanup, like a crash) and wait until the server sees its socket close."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        await self.server.wait_until(lambda: not self.server.bot_connected, 10, "the killed bot's socket to close")

    async def restart(self) -> None:
        """Kill and start again on the same DATA_DIR."""
        await self.kill()
        await self.start()

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


@pytest.fixture
async def devserver() -> AsyncIterator[DevServer]:
    """A fresh DevServer on a free 127.0.0.1 port (accepts only the e2e token)."""
    server = await DevServer(token=E2E_TOKEN).start()
    yield server
    await server.stop()


@pytest.fixture
async def bot_process(devserver: DevServer, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The real bot, started, on the gateway and synced; stopped afterwards. Skips only when there is no bot."""
    reason = bot_entry_missing()
    if reason:
        pytest.skip(reason)
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log")
    try:
        await proc.start()
        yield proc
    finally:
        await proc.stop()
