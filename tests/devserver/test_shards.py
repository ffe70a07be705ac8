"""The sharded gateway (issue 15.4): ``GET /gateway/bot``, IDENTIFY with ``shard``, guilds and interactions routed
by ``(guild_id >> 22) % shard_count``, several processes (here: clients) each owning some shards."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import aiohttp
import discord
import pytest
from discord import app_commands

from devserver import DevServer

from .conftest import TOKEN


class ShardBot(discord.AutoShardedClient):
    """A sharded client with one global command telling which shard answered."""

    def __init__(self, shard_ids: list[int] | None, shard_count: int | None) -> None:
        super().__init__(
            intents=discord.Intents.default(), shard_ids=shard_ids, shard_count=shard_count, guild_ready_timeout=0.05
        )
        self.tree = app_commands.CommandTree(self)
        self.removed: list[int] = []

        @self.tree.command(name="where", description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id} of {self.shard_count}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-s pause between shards (discord.py's default): keeps the tests fast."""

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.removed.append(guild.id)


StartShards = Callable[..., Awaitable[ShardBot]]


@pytest.fixture
async def start_shards(server: DevServer) -> AsyncIterator[StartShards]:
    running: list[tuple[ShardBot, asyncio.Task[None]]] = []

    async def start(shard_ids: list[int] | None, shard_count: int | None) -> ShardBot:
        bot = ShardBot(shard_ids, shard_count)
        task = asyncio.create_task(bot.start(TOKEN))
        running.append((bot, task))
        await server.wait_until(bot.is_ready, 10, f"shards {shard_ids} ready")
        return bot

    yield start
    for bot, task in running:
        await bot.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_gateway_bot_recommends_the_shard_count(server: DevServer, start_shards: StartShards) -> None:
    server.recommended_shards = 2
    other = server.add_guild("Odd", shard=(1, 2))
    bot = await start_shards(None, None)  # discord.py asks GET /gateway/bot and launches both shards
    assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
    assert {g.id: g.shard_id for g in bot.guilds} == {server.guild_id: 0, other.id: 1}
    assert sorted(server.gateway.live_shards()) == [(0, 2), (1, 2)]


async def test_two_processes_each_get_their_shards_guilds_and_interactions(
    server: DevServer, start_shards: StartShards
) -> None:
    odd = server.add_guild("Odd", shard=(1, 2))
    even = server.add_guild("Even", shard=(0, 2))
    assert [server.shard_of(g, 2) for g in (None, odd, even)] == [0, 1, 0]
    first = await start_shards([0], 2)
    second = await start_shards([1], 2)
    assert {g.name for g in first.guilds} == {"Dev Guild", "Even"} and [g.name for g in second.guilds] == ["Odd"]
    for guild, answer in ((None, "shard 0 of 2"), (odd, "shard 1 of 2"), (even, "shard 0 of 2")):
        channel = server.channel("games", guild=guild)
        res = await (await server.as_user("alice", channel).slash("where")).wait(5)
        assert res.content == answer
    await server.remove_bot(odd)  # GUILD_DELETE goes to the owning shard only
    await server.wait_until(lambda: second.removed == [odd.id], 5, "on_guild_remove on shard 1")
    assert first.removed == []
    assert server.violations == []


async def test_an_interaction_for_a_shard_nobody_holds_fails(server: DevServer, start_shards: StartShards) -> None:
    odd = server.add_guild("Odd", shard=(1, 2))
    await start_shards([0], 2)
    res = await server.as_user("alice", server.channel("games", guild=odd)).slash("where")
    assert not res.interaction.delivered and not res.failed
    server.clock.advance(3.1)
    assert res.failed  # "This interaction failed": nobody answered within 3 s
    res = await (await server.as_user("alice").slash("where")).wait(5)  # shard 0 still serves
    assert res.content == "shard 0 of 2"


async def test_a_bot_started_twice_gets_every_event_twice(server: DevServer, start_shards: StartShards) -> None:
    await start_shards([0], 1)
    await start_shards([0], 1)  # as on Discord: both sessions of shard 0 get the interaction
    res = await (await server.as_user("alice").slash("where")).wait(5)
    await server.wait_until(lambda: bool(server.violations), 5, "the second answer")
    assert res.content == "shard 0 of 1"
    assert [v.kind for v in server.violations] == ["double_response"]  # 40060: "already acknowledged"


async def test_an_invalid_shard_is_closed_with_4010(server: DevServer) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(server.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 0, "properties": {}, "shard": [2, 2]}})
        msg = await ws.receive()
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4010
