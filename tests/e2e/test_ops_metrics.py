"""E2E (issue 23.3, 23.8, 23.9): the real bot with ``HEALTH_PORT``, ``LOG_LEVEL=DEBUG`` and ``LOG_FORMAT=json``.

- ``/metrics`` scraped during a game shows its committed actions (equal to the stored action log), first-response
  and board-post latency observations, the open game, the gateway, storage timings, and a 429 by route class;
- the DEBUG log is JSON lines and holds no interaction token and no bot token (discord.py logs the callback and
  webhook URLs and the gateway payloads, which carry them);
- ``/about`` answers privately with the version, servers, shards and the invite link (scopes and permissions), in
  English and Spanish.
"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

from .conftest import E2E_TOKEN
from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

REDACTED = "[REDACTED-TOKEN]"
PERMISSIONS = 309237681152  # View Channel, Send Messages (+ in Threads), Create Public Threads, Attach Files


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    port = free_port()
    extra = {"HEALTH_PORT": str(port), "HEALTH_HOST": "127.0.0.1", "LOG_LEVEL": "DEBUG", "LOG_FORMAT": "json"}
    async with bot_env(tmp_path_factory.mktemp("metrics"), extra_env=extra) as e:
        e.metrics_url = f"http://127.0.0.1:{port}/metrics"  # type: ignore[attr-defined]
        yield e


async def scrape(env: BotEnv) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``(sample name, sorted labels) -> value`` of one ``/metrics`` answer."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(
            env.metrics_url,  # type: ignore[attr-defined]
            timeout=aiohttp.ClientTimeout(total=10),
        ) as resp,
    ):
        assert resp.status == 200 and resp.content_type == "text/plain"
        text = await resp.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def stored_actions(env: BotEnv, kind: str) -> int:
    with env.db() as conn:
        return int(
            conn.execute(
                "SELECT COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id WHERE g.kind = ?", (kind,)
            ).fetchone()[0]
        )


async def test_metrics_scraped_during_a_game(env: BotEnv) -> None:
    server = env.server
    before = await scrape(env)
    carol = server.as_user("carol", "games-2")
    await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    await answered(await carol.slash("constructo place", tile=5, size="large"), timeout=30)
    game = env.latest_game("constructo", server.channel("games-2").id)
    await server.wait_until(lambda: env.game(game.id).version >= game.version + 1, 30, "the AI's move")
    after = await scrape(env)

    assert env.game(game.id).status == "active"
    committed = value(after, "tablebot_actions_committed_total", kind="constructo")
    assert committed == stored_actions(env, "constructo") > 0, "every stored action counted once"
    assert committed - value(before, "tablebot_actions_committed_total", kind="constructo") >= 2  # carol's, the AI's
    assert value(after, "tablebot_games_active", kind="constructo", status="active") == 1
    firsts = value(after, "tablebot_first_response_seconds_count", type="application_command", by="handler") + value(
        after, "tablebot_first_response_seconds_count", type="application_command", by="guard"
    )
    assert firsts >= 2
    boards = sum(
        v
        for (name, labels), v in after.items()
        if name == "tablebot_board_post_seconds_count" and ("kind", "constructo") in labels
    )
    assert boards >= 2, "carol's board and the AI's"
    assert value(after, "tablebot_board_post_seconds_sum", kind="constructo", path="interaction") > 0
    assert value(after, "tablebot_storage_seconds_count", op="write") >= committed
    assert value(after, "tablebot_gateway_connected", shard="0") == 1
    assert ("tablebot_cpu_jobs_in_flight", (("lane", "interactive"),)) in after
    assert value(after, "tablebot_guilds") >= 1


async def test_a_429_is_counted_by_route_class(env: BotEnv) -> None:
    server = env.server
    before = value(await scrape(env), "tablebot_discord_rate_limited_total", route_class="webhook", scope="route")
    held = server.inject("PATCH /webhooks/*/*/messages/@original", 429, 1, retry_after=0.3)
    dave = server.as_user("dave", "games")
    await answered(await dave.slash("constructo challenge", opponent="bot", level="easy"))
    await answered(await dave.slash("constructo place", tile=5, size="large"), timeout=30)
    await server.wait_until(lambda: held.hits == 1, 20, "the 429")
    after = value(await scrape(env), "tablebot_discord_rate_limited_total", route_class="webhook", scope="route")
    assert after == before + 1


async def test_about_in_english_and_spanish(env: BotEnv) -> None:
    server = env.server
    res = await answered(await server.as_user("alice").slash("about"))
    assert res.ephemeral, res.text
    invite = (
        f"https://discord.com/oauth2/authorize?client_id={server.application_id}"
        f"&scope=bot+applications.commands&permissions={PERMISSIONS}"
    )
    assert invite in res.text and "1 server;" in res.text and "1 shard" in res.text, res.text
    server.user("bob").locale = "es-ES"
    try:
        es = await answered(await server.as_user("bob").slash("about"))
    finally:
        server.user("bob").locale = "en-US"
    assert "Invítalo" in es.text and invite in es.text and "servidor" in es.text, es.text


async def test_debug_json_log_has_no_token(env: BotEnv) -> None:
    """Runs after the games above: every interaction's token went through discord.py's DEBUG logging."""
    log = env.proc.log()
    tokens = [i.token for i in env.server.interactions.values()]
    assert len(tokens) >= 6
    leaked = [t for t in tokens if t in log]
    assert not leaked, f"{len(leaked)} interaction token(s) in the log"
    assert E2E_TOKEN not in log
    assert log.count(REDACTED) >= len(tokens), "the callback URLs and payloads were logged, redacted"
    records = []
    for line in log.splitlines():
        if not line.strip() or line.startswith("====="):
            continue
        records.append(json.loads(line))  # every line of the bot's output is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert any(r["level"] == "DEBUG" and r["logger"].startswith("discord.http") for r in records)
