"""E2E: a failure nothing else names ends the bot with its own exit code (11), never 1 (``healthcheck``'s).

Case (a newcomer's): ``DISCORD_API_BASE`` points at the local server but ``DISCORD_GATEWAY_URL`` is not set, so the
bot logs in, then discord.py fails inside its gateway connection with an AttributeError.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from devserver import DevServer
from devserver.process import REPO

from .conftest import E2E_TOKEN


async def test_an_unexpected_crash_exits_11_with_one_line_not_1(devserver: DevServer, tmp_path: Path) -> None:
    env = dict(
        os.environ,
        DISCORD_TOKEN=E2E_TOKEN,
        DATA_DIR=str(tmp_path),
        DISCORD_API_BASE=f"http://127.0.0.1:{devserver.port}/api/v10",
    )
    env.pop("DISCORD_GATEWAY_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=env,
        cwd=str(REPO),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
    text = err.decode()
    assert proc.returncode == 11, text[-2000:]
    last = text.strip().splitlines()[-1]
    assert last.startswith("The bot stopped on an unexpected error") and "DISCORD_GATEWAY_URL" in last
    assert E2E_TOKEN not in text
