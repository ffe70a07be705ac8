"""Rate limits: buckets with headers discord.py follows, 429 past them, the global 50/s check, daily creates."""

from __future__ import annotations

import aiohttp
import discord

from devserver import DevServer
from devserver.ratelimit import Bucket, RateLimiter

from .conftest import TOKEN, TinyBot


def test_bucket_fixed_window() -> None:
    b = Bucket("* POST /channels/*/messages", 2, 1.0)
    assert b.take("c1", 0.0)[:2] == (True, 1)
    assert b.take("c1", 0.1)[:2] == (True, 0)
    allowed, remaining, reset_after = b.take("c1", 0.4)
    assert not allowed and remaining == 0 and abs(reset_after - 0.6) < 1e-9
    assert b.take("c2", 0.4)[0]  # another channel has its own window
    assert b.take("c1", 1.01)[0]  # a new window


def test_global_limit_counts_bot_routes_only() -> None:
    limiter = RateLimiter()
    assert not any(limiter.global_exceeded("/interactions/1/t/callback") for _ in range(100))
    results = [limiter.global_exceeded("/channels/1/messages") for _ in range(51)]
    assert results[:50] == [False] * 50 and results[50]


async def test_discord_py_follows_the_headers_and_is_never_429ed(server: DevServer, bot: TinyBot) -> None:
    server.rate_limit("POST /channels/*/messages", 3, 0.4)
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    for i in range(7):
        await channel.send(f"m{i}")
    assert [m.content for m in server.messages("general")] == [f"m{i}" for i in range(7)]
    assert server.violations == []


async def test_a_client_ignoring_the_limit_gets_429(server: DevServer) -> None:
    server.rate_limit("POST /channels/*/messages", 2, 10.0)
    url = f"{server.api_base}/channels/{server.channel('general').id}/messages"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        statuses = []
        for i in range(3):
            async with http.post(url, json={"content": f"x{i}"}) as resp:
                statuses.append(resp.status)
                body = await resp.json()
        assert statuses == [200, 200, 429]
        assert body["retry_after"] > 0 and body["global"] is False
        assert resp.headers["Via"] and resp.headers["X-RateLimit-Remaining"] == "0"
    assert [v.kind for v in server.violations] == ["rate_limited"]
    assert len(server.messages("general")) == 2


async def test_daily_command_creates_limit(server: DevServer) -> None:
    url = f"{server.api_base}/applications/{server.application_id}/guilds/{server.guild_id}/commands"
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        statuses = []
        for round_no in range(3):  # 3 x 100 new names: the third sync goes past 200 creates
            cmds = [{"name": f"c{round_no}-{i}", "description": "d", "type": 1} for i in range(100)]
            async with http.put(url, json=cmds) as resp:
                statuses.append(resp.status)
                body = await resp.json()
    assert statuses == [200, 200, 429] and body["code"] == 30034
    assert [v.kind for v in server.violations] == ["daily_command_creates"]
