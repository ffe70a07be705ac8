"""E2E (issue 23.8): PostgreSQL unreachable at start-up. The real bot retries with back-off for ``DATABASE_WAIT_S``
seconds, then exits 8 (one line on stderr, the password never printed); a SIGTERM during the wait exits 0 at once;
a database that comes up during the wait is used, and the data directory (absent before) is created so the exec
probe's heartbeat can be written on PostgreSQL too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from devserver import DevServer
from devserver.process import REPO, BotProcess
from tests.storage.conftest import pg_unavailable, pg_url

from .conftest import E2E_TOKEN

__all__ = ["pg_unavailable", "pg_url"]

pytestmark = pytest.mark.asyncio(loop_scope="function")

PASSWORD = "s3cret-pw"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_unreachable_postgresql_is_retried_for_database_wait_s_then_exit_8(
    devserver: DevServer, tmp_path: Path
) -> None:
    url = f"postgresql://tablebot:{PASSWORD}@127.0.0.1:{closed_port()}/tablebot"
    proc = BotProcess(
        devserver,
        tmp_path / "data",
        tmp_path / "bot.log",
        token=E2E_TOKEN,
        extra_env={"DATABASE_URL": url, "DATABASE_WAIT_S": "3", "LOG_FORMAT": "json"},
    )
    started = time.monotonic()
    await proc.start(wait=False)
    assert proc.proc is not None
    code = await asyncio.wait_for(proc.proc.wait(), 30)
    took = time.monotonic() - started
    log = proc.log()
    assert code == 8, log
    assert took >= 3.0, f"gave up after {took:.1f} s, before DATABASE_WAIT_S"
    assert log.count("trying again in") >= 2, log
    assert PASSWORD not in log
    assert devserver.identify_count == 0, "never connects to Discord without its database"
    records = [json.loads(line) for line in log.splitlines() if line.strip() and not line.startswith("=====")]
    assert records[-1]["level"] == "CRITICAL" and records[-1]["exit_code"] == 8, records[-1]  # JSON to the end


async def test_sigterm_while_waiting_for_postgresql_exits_0_at_once(devserver: DevServer, tmp_path: Path) -> None:
    url = f"postgresql://tablebot:{PASSWORD}@127.0.0.1:{closed_port()}/tablebot"
    proc = BotProcess(
        devserver,
        tmp_path / "data",
        tmp_path / "bot.log",
        token=E2E_TOKEN,
        extra_env={"DATABASE_URL": url, "DATABASE_WAIT_S": "120"},
    )
    await proc.start(wait=False)
    await devserver.wait_until(lambda: "trying again in" in proc.log(), 30, "the first retry")
    assert proc.proc is not None
    started = time.monotonic()
    proc.proc.send_signal(signal.SIGTERM)
    code = await asyncio.wait_for(proc.proc.wait(), 10)
    assert code == 0, proc.log()
    assert time.monotonic() - started < 3.0


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


async def test_postgresql_coming_up_during_the_wait_is_used_and_the_heartbeat_written(
    devserver: DevServer, tmp_path: Path, pg_url: str
) -> None:
    real = urlsplit(pg_url)
    port = closed_port()
    late = urlunsplit(
        real._replace(netloc=real.netloc.replace(f"{real.hostname}:{real.port or 5432}", f"127.0.0.1:{port}"))
    )
    data = tmp_path / "data"
    proc = BotProcess(
        devserver,
        data,
        tmp_path / "bot.log",
        token=E2E_TOKEN,
        extra_env={"DATABASE_URL": late, "DATABASE_WAIT_S": "60"},
    )

    async def forward(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(real.hostname, real.port or 5432)
        await asyncio.gather(_pipe(client_r, server_w), _pipe(server_r, client_w))

    proxy: asyncio.Server | None = None
    try:
        await proc.start(wait=False)
        await devserver.wait_until(lambda: "trying again in" in proc.log(), 30, "a retry while PostgreSQL is down")
        proxy = await asyncio.start_server(forward, "127.0.0.1", port)  # PostgreSQL is up now
        await proc.wait_ready()
        await devserver.wait_until(lambda: (data / "heartbeat").exists(), 20, "the heartbeat in DATA_DIR")
        environ = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")} | {"DATA_DIR": str(data)}
        probe = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "healthcheck",
            cwd=str(REPO),
            env=environ,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await probe.communicate()
        assert probe.returncode == 0, out.decode()
        assert not (data / "tablebot.sqlite3").exists()
    finally:
        await proc.stop()
        if proxy is not None:
            proxy.close()
    assert proc.proc is not None and proc.proc.returncode == 0, proc.log(3000)
