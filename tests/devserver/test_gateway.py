"""Gateway details: invalid sessions, member chunking, heartbeats, message events."""

from __future__ import annotations

import asyncio

import discord

from devserver import DevServer

from .conftest import StartBot, TinyBot


async def test_resume_of_an_unknown_session_gets_invalid_session_then_identify(server: DevServer, bot: TinyBot) -> None:
    server.gateway.sessions.clear()  # the server forgot the session (e.g. it expired)
    await server.gateway.reconnect()
    await server.wait_until(lambda: server.identify_count == 2 and server.bot_connected, 15, "a new IDENTIFY")
    assert server.resume_count == 0
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert res.content == "board"


async def test_without_members_intent_only_the_bot_member_is_cached(server: DevServer, bot: TinyBot) -> None:
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready")
    guild = bot.get_guild(server.guild_id)
    assert guild is not None and guild.member_count == 6
    assert [m.name for m in guild.members] == ["tablebot"]  # as on Discord: get_member(alice) is None
    assert guild.get_member(server.user("alice").id) is None


async def test_members_intent_chunks_every_member(server: DevServer, start_bot: StartBot) -> None:
    bot = await start_bot(members=True)
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready after chunking")
    guild = bot.get_guild(server.guild_id)
    assert guild is not None and guild.chunked
    assert {m.name for m in guild.members} == {"alice", "bob", "carol", "dave", "mod", "tablebot"}
    assert guild.get_member(server.user("mod").id).guild_permissions.manage_guild  # type: ignore[union-attr]


async def test_heartbeat_is_acknowledged(server: DevServer, start_bot: StartBot) -> None:
    server.heartbeat_interval_ms = 100
    bot = await start_bot()
    await server.wait_until(lambda: bot.latency < 1.0, 5, "a heartbeat ACK")  # latency is inf until an ACK
    assert bot.is_closed() is False


async def test_message_create_is_dispatched_to_a_bot_with_guild_messages(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    waiter = asyncio.ensure_future(bot.wait_for("message", timeout=5))
    await channel.send("ping")
    assert (await waiter).content == "ping"


async def test_frames_are_a_zlib_stream_when_asked(server: DevServer, bot: TinyBot) -> None:
    from discord.utils import _ActiveDecompressionContext

    expected = 1 if _ActiveDecompressionContext.COMPRESSION_TYPE == "zlib-stream" else 0
    assert server.gateway.compressed_connections == expected
    res = await (await server.as_user("alice").slash("png")).wait(5)  # decoded fine by discord.py
    assert res.content == "board"


async def test_a_blocked_event_loop_shows_as_a_late_heartbeat(server: DevServer, start_bot: StartBot) -> None:
    server.heartbeat_interval_ms = 200
    bot = await start_bot()
    await server.wait_until(lambda: bot.latency < 1.0, 5, "a first heartbeat ACK")
    assert server.violations == []
    res = await (await server.as_user("alice").slash("block")).wait(5)
    assert res.content == "unblocked"
    await server.wait_until(lambda: any(v.kind == "heartbeat_late" for v in server.violations), 3, "heartbeat_late")
