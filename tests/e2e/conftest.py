"""Fixtures for end-to-end tests: the DevServer on a free loopback port and the **real bot process**.

``bot_process`` runs ``python -m bot`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``,
``DATA_DIR`` (a tmp dir) and ``DEV_GUILD_ID`` pointed at ``devserver``, waits until it has identified on the
gateway and its commands are synced, and can ``kill()`` it (SIGKILL) and ``restart()`` it on the same DATA_DIR
(``devserver.process.BotProcess``). Every test in ``tests/e2e`` is marked ``e2e``;
``@pytest.mark.devserver(**options)`` passes DevServer options. Users act through ``devserver.as_user("alice")``
(see ``devserver.client``); ``devserver.violations`` lists every Discord rule the bot broke,
``devserver.errors`` every error reply.

Conformance: the devserver checks every REST request the bot sends against Discord's OpenAPI spec
(``devserver/conformance.py``) and answers one that breaks it as Discord would (400/50035). The ``devserver``
fixture then **fails the test** (an error at teardown naming each request and problem) when the bot caused any
``spec`` violation; a test needs nothing to get this. The session's totals (requests checked, refused,
validation time) are printed in the terminal summary of a single-process run.

Example::

    async def test_help(devserver, bot_process):
        res = await (await devserver.as_user("alice").slash("help")).wait()
        assert res.text and devserver.violations == []
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from devserver import DevServer
from devserver.conformance import SpecStats, default_conformance
from devserver.process import REPO, BotExited, BotProcess

E2E_TOKEN = "e2e-bot-token"

__all__ = ["E2E_TOKEN", "BotProcess", "bot_entry_missing"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "devserver(**options): DevServer options for the e2e `devserver` fixture, "
        "e.g. rate_limits=True, heartbeat_interval_ms=2000",
    )


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


SPEC_TOTALS = SpecStats()  # every e2e server's spec checks in this process


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    t = SPEC_TOTALS
    if t.checked:
        terminalreporter.write_line(
            f"Discord spec conformance: {t.checked} requests checked ({len(t.by_operation)} operations), "
            f"{t.failed} refused, {1000 * t.seconds / t.checked:.2f} ms validation per request "
            f"(slowest {1000 * t.slowest[0]:.0f} ms, {t.slowest[1]}); validators disagreed on "
            f"{default_conformance().disagreements}"
        )


def spec_violations_report(server: DevServer) -> str | None:
    """Why the test fails for conformance: every ``spec`` violation (route and problems), or None."""
    found = [v for v in server.violations if v.kind == "spec"]
    if not found:
        return None
    lines = [f"the bot sent {len(found)} request(s) that break Discord's OpenAPI spec (devserver/spec/README.md):"]
    lines += [f"  {v.route} -> {v.status}: {v.message}" for v in found[:10]]
    return "\n".join(lines)


def none_texts_report(proc: BotProcess) -> str | None:
    """Why the test fails for a player text showing ``None``: the bot's log lines of ``bot.i18n`` refusing one
    (``filled with None``; under ``TABLEBOT_STRICT_TEXT`` the interaction failed too, but a text the test never
    reads would pass unseen), or None."""
    found = [line for line in proc.log().splitlines() if "filled with None" in line]
    if not found:
        return None
    return "\n".join([f"the bot made {len(found)} player text(s) showing None:", *found[:10]])


@pytest.fixture
async def devserver(request: pytest.FixtureRequest) -> AsyncIterator[DevServer]:
    """A fresh DevServer on a free 127.0.0.1 port (accepts only the e2e token). Options come from a
    ``@pytest.mark.devserver(rate_limits=True, heartbeat_interval_ms=2000)`` marker: Discord-like 429 buckets, and
    late heartbeats (a blocked event loop) recorded as violations. At teardown the test fails if the bot sent any
    request breaking Discord's OpenAPI spec (``spec`` violations)."""
    marker = request.node.get_closest_marker("devserver")
    options = dict(marker.kwargs) if marker else {}
    server = await DevServer(token=E2E_TOKEN, **options).start()
    yield server
    await server.stop()
    SPEC_TOTALS.merge(server.spec_stats)
    report = spec_violations_report(server)
    if report:
        pytest.fail(report, pytrace=False)


@pytest.fixture
async def bot_process(devserver: DevServer, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The real bot, started, on the gateway and synced; stopped afterwards. Skips only when there is no bot."""
    reason = bot_entry_missing()
    if reason:
        pytest.skip(reason)
    proc = BotProcess(devserver, tmp_path / "data", tmp_path / "bot.log", token=E2E_TOKEN)
    try:
        try:
            await proc.start()
        except BotExited as exc:
            pytest.fail(str(exc))
        yield proc
    finally:
        await proc.stop()
    report = none_texts_report(proc)
    if report:
        pytest.fail(report, pytrace=False)
