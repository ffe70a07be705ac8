"""The REST surface discord.py uses beyond the interaction round trip (every call through discord.py itself)."""

from __future__ import annotations

import io

import discord
import pytest

from devserver import DevServer

from .conftest import TinyBot, png_bytes


async def test_lookups_commands_gateway_and_app_info(server: DevServer, bot: TinyBot) -> None:
    assert (await bot.application_info()).id == server.application_id
    assert (await bot.fetch_user(server.user("carol").id)).name == "carol"
    with pytest.raises(discord.NotFound):
        await bot.fetch_user(12345)
    channel = await bot.fetch_channel(server.channel("games-2").id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "games-2"
    guild = await bot.fetch_guild(server.guild_id)
    assert guild.name == "Dev Guild"
    synced = await bot.tree.fetch_commands(guild=bot.guild)
    assert sorted(c.name for c in synced) == sorted(server.all_commands())
    shards, url, _ = await bot.http.get_bot_gateway()
    assert url == server.gateway_url and shards == 1


async def test_channel_message_get_history_delete_and_bare_thread(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("games-2").id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("one")
    second = await channel.send("two", embed=discord.Embed(title="Board", description="L5"))
    assert (await channel.fetch_message(first.id)).content == "one"
    assert [m.content async for m in channel.history(limit=10)] == ["two", "one"]
    await second.delete()
    assert [m.content for m in server.messages("games-2")] == ["one"]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(second.id)
    thread = await channel.create_thread(name="conex game", type=discord.ChannelType.public_thread)
    await thread.send("hands are private")
    assert server.channel(thread.id).parent_id == channel.id
    assert [m.content for m in server.messages(thread.id)] == ["hands are private"]
    with pytest.raises(discord.HTTPException) as info:
        await channel.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
    assert info.value.code == 50035


async def test_followup_edit_delete_and_original_delete(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("slow")).wait(5, followups=1)
    webhook = discord.Webhook.partial(server.application_id, res.interaction.token, client=bot)
    followup = res.followups[0]
    await webhook.edit_message(followup.id, content="edited followup")
    assert server.message(followup.id).content == "edited followup"
    await webhook.delete_message(followup.id)
    await webhook.delete_message(res.message.id)  # the original response ("@original" by id)
    assert res.messages == []
    with pytest.raises(discord.NotFound):
        await webhook.edit_message(res.interaction.original_message_id, content="gone")
    assert [v.kind for v in server.violations] == ["unknown_message"]


async def test_edit_keeps_listed_attachments_and_cdn_serves_bytes(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send(file=discord.File(io.BytesIO(png_bytes(4)), "a.png"))
    assert await msg.attachments[0].read() == png_bytes(4)  # the attachment URL serves the stored bytes
    msg = await msg.edit(attachments=[*msg.attachments, discord.File(io.BytesIO(png_bytes(6)), "b.png")])
    assert [a.filename for a in msg.attachments] == ["a.png", "b.png"]
    assert server.message(msg.id).images == [png_bytes(4), png_bytes(6)]
    msg = await msg.edit(content="an edit without an attachments list keeps them")
    assert server.message(msg.id).images == [png_bytes(4), png_bytes(6)]
    msg = await msg.edit(content="no files", attachments=[])
    assert server.message(msg.id).images == [] and msg.content == "no files"


async def test_unknown_route_is_404_and_recorded(server: DevServer, bot: TinyBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/emojis", guild_id=server.guild_id))
    assert server.errors[-1].status == 404 and "no route for GET /guilds/" in server.errors[-1].body["message"]
    assert ("GET", f"/guilds/{server.guild_id}/emojis", 404) in server.requests


async def test_an_enforced_nonce_returns_the_message_already_posted(server: DevServer, bot: TinyBot) -> None:
    """Discord: with ``enforce_nonce``, a second message of the same author and nonce within a few minutes is not
    created; the first is returned (the bot's board posts rely on it after a crash)."""
    channel = bot.get_channel(server.channel("games-2").id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("board v5", nonce="b12.5")  # discord.py sends enforce_nonce with a nonce
    again = await channel.send("board v5", nonce="b12.5")
    other = await channel.send("board v6", nonce="b12.6")
    plain = await channel.send("no nonce")
    assert again.id == first.id and other.id != first.id and plain.id not in (first.id, other.id)
    assert [m.content for m in server.messages("games-2")] == ["board v5", "board v6", "no nonce"]
    assert server.nonce_hits == 1


async def test_upload_limit_and_injected_refusal_codes(server: DevServer, bot: TinyBot) -> None:
    """``set_upload_limit``: a file over the guild's limit is refused 413/40005 (no violation while within Discord's
    default 10 MiB); ``inject(..., code=)`` answers a refusal with Discord's JSON error code."""
    channel = bot.get_channel(server.channel("games-2").id)
    assert isinstance(channel, discord.TextChannel)
    png = png_bytes()
    server.set_upload_limit(len(png) - 1)
    try:
        with pytest.raises(discord.HTTPException) as err:
            await channel.send("board", file=discord.File(io.BytesIO(png), "b.png"))
        assert err.value.status == 413 and err.value.code == 40005
        assert server.violations == []
        server.set_upload_limit(len(png))
        await channel.send("board", file=discord.File(io.BytesIO(png), "b.png"))
    finally:
        server.set_upload_limit(10 * 1024 * 1024)
    fault = server.inject("POST /channels/*/messages", 400, code=160005)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send("locked")
    assert err.value.code == 160005 and "locked" in err.value.text and fault.hits == 1
    server.inject("POST /channels/*/messages", 403, code=50013)
    with pytest.raises(discord.Forbidden) as forbidden:
        await channel.send("no permission")
    assert forbidden.value.code == 50013
