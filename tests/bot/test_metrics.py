"""bot/metrics.py, bot/healthcheck.py and the logging setup (issue 23.2, 23.3, 23.8), without Discord: the
registration API, route classes of 429s, the exec probe's verdicts, token redaction by shape and JSON lines.
The same behaviour end to end: tests/e2e/test_ops_*.py."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.config import REDACTED, Config, RedactingFilter, configure_logging
from bot.healthcheck import probe, proc_start_ticks


def sample(name: str, **labels: str) -> float | None:
    body = metrics.generate_latest(metrics.REGISTRY).decode()
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return None


def test_registration_is_idempotent_and_refuses_a_clash() -> None:
    a = metrics.gauge("test_effects_pending", "Effects waiting.")
    assert metrics.gauge("test_effects_pending", "Effects waiting.") is a
    a.set(3)
    assert sample("tablebot_test_effects_pending") == 3
    with pytest.raises(ValueError):
        metrics.counter("test_effects_pending", "now a counter")
    with pytest.raises(ValueError):
        metrics.gauge("test_effects_pending", "other labels", ("x",))


def test_a_gauge_read_at_scrape_and_an_async_scrape_hook() -> None:
    value = {"age": 1.5}
    metrics.gauge("test_oldest_effect_age_seconds", "Age.", fn=lambda: value["age"])
    lease = metrics.gauge("test_lease_held", "Lease.", ("name",))

    async def refresh() -> None:
        lease.labels("outbox").set(1)

    metrics.on_scrape(refresh)
    try:
        value["age"] = 7.0
        body, content_type = asyncio.run(metrics.render())
        assert content_type.startswith("text/plain")
        assert b"tablebot_test_oldest_effect_age_seconds 7.0" in body
        assert b'tablebot_test_lease_held{name="outbox"} 1.0' in body
    finally:
        metrics.remove_scrape_hook(refresh)


def test_build_info_names_the_installed_version() -> None:
    from importlib import metadata

    assert sample("tablebot_build_info", version=metadata.version("tablebot")) == 1


def test_a_late_scrape_hook_does_not_hold_the_scrape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics, "SCRAPE_REFRESH_TIMEOUT_S", 0.2)

    async def stuck() -> None:
        await asyncio.sleep(30)

    metrics.on_scrape(stuck)
    before = sample("tablebot_scrape_hook_timeouts_total") or 0
    try:
        body, _ = asyncio.run(metrics.render())
    finally:
        metrics.remove_scrape_hook(stuck)
    assert b"tablebot_build_info{" in body and b"tablebot_start_time_seconds" in body
    assert sample("tablebot_scrape_hook_timeouts_total") == before + 1


@pytest.mark.parametrize(
    ("url", "klass"),
    [
        ("http://x/api/v10/interactions/123/aW50ZXJhY3Rpb24/callback", "interaction_callback"),
        ("http://x/api/v10/webhooks/1/tok/messages/@original", "webhook"),
        ("http://x/api/v10/channels/5/messages/6/reactions/%F0%9F%91%8D/@me", "reaction"),
        ("http://x/api/v10/channels/5/messages", "channel_message"),
        ("http://x/api/v10/applications/1/guilds/2/commands", "application_command"),
        ("http://x/api/v10/guilds/2/members/3", "guild"),
        ("http://x/api/v10/gateway/bot", "other"),
    ],
)
def test_route_classes(url: str, klass: str) -> None:
    assert metrics.route_class(url) == klass


def test_429s_are_counted_from_discord_py_s_rate_limit_log_lines() -> None:
    metrics.install_rate_limit_counter()
    logger = logging.getLogger("discord.http")
    before = sample("tablebot_discord_rate_limited_total", route_class="webhook", scope="route") or 0
    glob = sample("tablebot_discord_rate_limited_total", route_class="webhook", scope="global") or 0
    logger.warning(
        "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
        "PATCH",
        "http://x/api/v10/webhooks/1/tok/messages/@original",
        0.5,
    )
    logger.warning("Global rate limit has been hit. Retrying in %.2f seconds.", 0.5)
    logger.warning("some other warning %s", "x")
    assert sample("tablebot_discord_rate_limited_total", route_class="webhook", scope="route") == before + 1
    logging.getLogger("discord.webhook.async_").warning(
        "Webhook ID %s is rate limited. Retrying in %.2f seconds.", 1, 0.5
    )
    assert sample("tablebot_discord_rate_limited_total", route_class="webhook", scope="route") == before + 2
    assert sample("tablebot_discord_rate_limited_total", route_class="webhook", scope="global") == glob + 1


def test_storage_and_pool_instrumentation_time_calls_and_count_errors() -> None:
    class Backend:
        async def fetch(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[int]]:
            if sql == "BAD":
                raise RuntimeError("no")
            return [(1,)]

        async def transaction(self, body: object) -> int:
            return 1

    class Storage:
        backend = Backend()

    class Pools:
        workers, background_workers = 2, 1

        async def run(self, lane: str, fn: object, /, *args: object) -> object:
            assert sample("tablebot_cpu_jobs_in_flight", lane=lane) == 1  # counted while it runs
            return lane

    storage, pools = Storage(), Pools()
    metrics.instrument_storage(storage)
    metrics.instrument_storage(storage)  # idempotent: one observation per call
    metrics.instrument_pools(pools)
    reads = sample("tablebot_storage_seconds_count", op="read") or 0
    errors = sample("tablebot_storage_errors_total", op="read", error="RuntimeError") or 0

    async def go() -> None:
        assert await storage.backend.fetch("SELECT 1") == [(1,)]
        with pytest.raises(RuntimeError):
            await storage.backend.fetch("BAD")
        assert await pools.run("background", print) == "background"

    asyncio.run(go())
    assert sample("tablebot_storage_seconds_count", op="read") == reads + 2
    assert sample("tablebot_storage_errors_total", op="read", error="RuntimeError") == errors + 1
    assert sample("tablebot_cpu_jobs_in_flight", lane="background") == 0
    assert sample("tablebot_cpu_workers", lane="interactive") == 2


# -- the exec probe ---------------------------------------------------------------------------------------------
def beat(tmp: Path, **fields: object) -> None:
    body = {"pid": os.getpid(), "proc_start": proc_start_ticks(os.getpid()), "written": 1_000_000.0, **fields}
    (tmp / "heartbeat").write_text(json.dumps(body))


def test_probe_verdicts(tmp_path: Path) -> None:
    assert probe(tmp_path)[0] == 1
    beat(tmp_path)
    assert probe(tmp_path, now=1_000_010.0)[0] == 0
    assert probe(tmp_path, now=1_000_100.0)[0] == 1  # stale
    start = proc_start_ticks(os.getpid())
    assert start is not None
    beat(tmp_path, proc_start=start - 1)  # this pid, but another process (a pid reused after a restart)
    code, message = probe(tmp_path, now=1_000_010.0)
    assert code == 1 and "earlier process" in message
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    beat(tmp_path, pid=dead.pid, proc_start=None)
    code, message = probe(tmp_path, now=1_000_010.0)
    assert code == 1 and "gone" in message
    (tmp_path / "heartbeat").write_text("{not json")
    assert probe(tmp_path)[0] == 1


# -- logs -------------------------------------------------------------------------------------------------------
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.bot-token-secret"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6"


def capture(fmt: str = "text", level: str = "DEBUG") -> tuple[io.StringIO, logging.Handler]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    if fmt == "json":
        from bot.config import json_formatter

        handler.setFormatter(json_formatter())
    configure_logging(Config(token=TOKEN, data_dir=Path("/tmp"), log_level=level, log_format=fmt), handler=handler)
    return stream, handler


def test_interaction_and_webhook_tokens_are_redacted_at_every_level() -> None:
    stream, handler = capture()
    try:
        http, gw = logging.getLogger("discord.http"), logging.getLogger("discord.gateway")
        http.debug(
            "%s %s with %s has returned %s",
            "POST",
            f"http://x/api/v10/interactions/1577/{INTERACTION_TOKEN}/callback",
            None,
            204,
        )
        http.warning(
            "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.",
            "PATCH",
            f"http://x/api/v10/webhooks/1/{INTERACTION_TOKEN}/messages/@original",
            1.0,
        )
        gw.debug(
            "For Shard ID %s: WebSocket Event: %s",
            None,
            {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": INTERACTION_TOKEN}},
        )
        gw.debug("raw %s", json.dumps({"token": INTERACTION_TOKEN}))
        logging.getLogger("bot").error("login with %s", TOKEN)
    finally:
        logging.getLogger().removeHandler(handler)
    text = stream.getvalue()
    assert INTERACTION_TOKEN not in text and TOKEN not in text, text
    assert text.count(REDACTED) == 5, text
    assert "/interactions/1577/" + REDACTED + "/callback" in text


def test_redaction_keeps_ordinary_text() -> None:
    record = logging.LogRecord(
        "x", logging.INFO, __file__, 1, "the token bucket of %s", ("/channels/5/messages",), None
    )
    RedactingFilter(TOKEN).filter(record)
    assert record.getMessage() == "the token bucket of /channels/5/messages"


def test_json_lines_have_time_level_logger_message_and_extras() -> None:
    stream, handler = capture("json", "INFO")
    try:
        logging.getLogger("bot.test").info("game %s moved", 7, extra={"game_id": 7})
        logging.getLogger("bot.test").debug("not at INFO")
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("bot.test").exception("failed with %s", TOKEN)
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 2
    first = lines[0]
    assert first["level"] == "INFO" and first["logger"] == "bot.test" and first["message"] == "game 7 moved"
    assert first["game_id"] == 7 and first["time"].endswith("Z") and first["time"][10] == "T"
    assert "ValueError: boom" in lines[1]["exc_info"] and TOKEN not in json.dumps(lines[1])


# -- /about -------------------------------------------------------------------------------------------------------
def test_the_invite_asks_exactly_for_the_permissions_the_games_check() -> None:
    import discord

    from bot.cogs.about import INVITE_PERMISSIONS, invite_url
    from bot.services import access

    needed = {*access.CHANNEL_NEEDS, *access.THREAD_NEEDS, *access.THREAD_FALLBACK_NEEDS}
    asked = discord.Permissions(INVITE_PERMISSIONS)
    assert asked == discord.Permissions(**dict.fromkeys(needed, True))
    assert invite_url(42) == (
        "https://discord.com/oauth2/authorize?client_id=42&scope=bot+applications.commands"
        f"&permissions={INVITE_PERMISSIONS}"
    )
