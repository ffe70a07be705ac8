"""E2E smoke test: the real bot process answers /help through the DevServer, breaking no Discord rule."""

from __future__ import annotations

import pytest

from devserver import DevServer

from .conftest import BotProcess


async def test_help_is_answered(devserver: DevServer, bot_process: BotProcess) -> None:
    assert "help" in devserver.all_commands(), f"synced: {sorted(devserver.all_commands())}"
    res = await (await devserver.as_user("alice").slash("help")).wait(10)
    assert not res.failed, bot_process.log()[-3000:]
    assert res.response_type in (4, 5)
    assert res.text.strip() or res.images
    assert devserver.violations == [], bot_process.log()[-3000:]


@pytest.mark.devserver(rate_limits=True, heartbeat_interval_ms=1000)
async def test_restart_after_sigkill_answers_again(devserver: DevServer, bot_process: BotProcess) -> None:
    await bot_process.restart()
    assert devserver.identify_count == 2
    res = await (await devserver.as_user("bob").slash("help")).wait(10)
    assert not res.failed and (res.text.strip() or res.images)
    assert devserver.violations == [], bot_process.log()[-3000:]
