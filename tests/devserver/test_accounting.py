"""Request accounting (issue 15.2): interaction endpoints vs global-limited REST calls, per route template, as a
snapshot diff around an action; Discord's global rate limit (50/s per token) enforced and recorded."""

from __future__ import annotations

import asyncio

import discord

from devserver import DevServer, RequestCounts
from devserver.accounting import RequestRecord

from .conftest import TinyBot


async def test_a_snapshot_diff_counts_what_one_action_cost(server: DevServer, bot: TinyBot) -> None:
    before = server.request_counts()
    res = await (await server.as_user("alice").slash("post")).wait(5)
    spent = server.request_counts(since=before)
    assert res.text.startswith("thread ")
    # /post: defer + followup through the interaction; channel post, thread, post in thread, edit in the channel
    assert (spent.interaction, spent.global_limited, spent.total, spent.errors) == (2, 4, 6, 0)
    assert spent.by_route == {
        "POST /interactions/{interaction_id}/{token}/callback": 1,
        "POST /webhooks/{app_id}/{token}": 1,
        "POST /channels/{channel_id}/messages": 2,
        "POST /channels/{channel_id}/messages/{message_id}/threads": 1,
        "PATCH /channels/{channel_id}/messages/{message_id}": 1,
    }
    assert spent.limited_routes() == {
        "POST /channels/{channel_id}/messages": 2,
        "POST /channels/{channel_id}/messages/{message_id}/threads": 1,
        "PATCH /channels/{channel_id}/messages/{message_id}": 1,
    }
    assert server.request_counts() - before == spent
    cheap = server.request_counts()
    await (await server.as_user("alice").slash("png")).wait(5)
    assert (server.request_counts() - cheap).global_limited == 0  # answered through the interaction only


def test_counts_from_records() -> None:
    records = [
        RequestRecord("POST", "/channels/1/messages", 200, "POST /channels/{channel_id}/messages", 0.0, False),
        RequestRecord("POST", "/channels/1/messages", 403, "POST /channels/{channel_id}/messages", 0.1, False),
        RequestRecord(
            "PATCH",
            "/webhooks/1/t/messages/@original",
            200,
            "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
            0.2,
            True,
        ),
    ]
    counts = RequestCounts.of(records)
    assert (counts.total, counts.interaction, counts.global_limited, counts.errors) == (3, 1, 2, 1)
    assert counts - RequestCounts.of(records[:1]) == RequestCounts(2, 1, 1, 1, RequestCounts.of(records[1:]).by_route)


async def test_the_global_rate_limit_is_enforced_and_recorded(server: DevServer, bot: TinyBot) -> None:
    server.rate_limiter.enforce_global = True  # what DevServer(rate_limits=True) turns on
    channel_id = server.channel("general").id
    channels = await asyncio.gather(*(bot.fetch_channel(channel_id) for _ in range(60)))
    assert all(isinstance(c, discord.TextChannel) for c in channels)  # discord.py waited and retried
    limited = [e for e in server.errors if e.status == 429]
    assert limited and all(e.body["global"] is True for e in limited)
    assert {v.kind for v in server.violations} == {"global_rate_limit"}
    counts = server.request_counts()
    assert counts.by_route["GET /channels/{channel_id}"] == 60 + len(limited)
    assert counts.errors == len(limited)


async def test_interaction_endpoints_are_exempt_from_the_global_limit(server: DevServer, bot: TinyBot) -> None:
    server.rate_limiter.enforce_global = True
    before = server.request_counts()
    results = await asyncio.gather(*(server.as_user("alice").slash("png") for _ in range(55)))
    await asyncio.gather(*(r.wait(10) for r in results))
    assert all(r.content == "board" for r in results)
    spent = server.request_counts(since=before)
    assert server.violations == [] and (spent.interaction, spent.global_limited) == (55, 0)
