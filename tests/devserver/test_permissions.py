"""Bot permissions per channel (issue 13.1): overwrites reach discord.py, interactions carry ``app_permissions``,
REST calls answer 403 as Discord does, and interaction responses stay exempt."""

from __future__ import annotations

import io

import discord
import pytest

from devserver import DevServer
from devserver.permissions import ATTACH_FILES, BOT_PERMISSIONS, EVERYONE_PERMISSIONS, SEND_MESSAGES, bits

from .conftest import TinyBot, png_bytes


def text_channel(bot: TinyBot, server: DevServer, name: str) -> discord.TextChannel:
    channel = bot.get_channel(server.channel(name).id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_app_permissions_and_discord_py_cache_follow_the_overwrite(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("perms")).wait(5)
    assert res.content == (
        f"app={BOT_PERMISSIONS | EVERYONE_PERMISSIONS} attach=True cached_attach=True cached_send=True"
    )
    left = await server.set_bot_permissions("games", deny={"attach_files", "send_messages"})
    assert left == server.bot_permissions("games") and not left & (ATTACH_FILES | SEND_MESSAGES)
    assert server.channel("games").to_payload()["permission_overwrites"] == [
        {"id": str(server.bot_user.id), "type": 1, "allow": "0", "deny": str(bits(["attach_files", "send_messages"]))}
    ]
    res = await (await server.as_user("alice").slash("perms")).wait(5)
    assert res.interaction.response_type == 4  # the interaction response itself is never blocked
    assert res.content == f"app={left} attach=False cached_attach=False cached_send=False"
    other = await (await server.as_user("alice", "general").slash("perms")).wait(5)
    assert "attach=True" in other.content  # only #games changed
    assert await server.set_bot_permissions("games", allow={"send_messages"}) & SEND_MESSAGES
    res = await (await server.as_user("alice").slash("perms")).wait(5)
    assert res.content.endswith("attach=False cached_attach=False cached_send=True")
    assert await server.set_bot_permissions("games", reset=True) == BOT_PERMISSIONS | EVERYONE_PERMISSIONS
    assert server.channel("games").to_payload()["permission_overwrites"] == []
    assert server.violations == []


async def test_channel_posts_answer_403_50013_for_each_missing_permission(server: DevServer, bot: TinyBot) -> None:
    channel = text_channel(bot, server, "games")
    await server.set_bot_permissions("games", deny={"attach_files"})
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("board", file=discord.File(io.BytesIO(png_bytes()), "b.png"))
    assert info.value.code == 50013 and info.value.status == 403
    assert server.errors[-1].note == "missing attach_files"
    await channel.send("text still goes")
    await server.set_bot_permissions("games", deny={"embed_links"})
    with pytest.raises(discord.Forbidden):
        await channel.send(embed=discord.Embed(title="only an embed"))
    kept = await channel.send("text and embed", embed=discord.Embed(title="dropped"))
    assert server.message(kept.id).embeds == []  # Discord drops the embeds silently when there is text
    await server.set_bot_permissions("games", deny={"send_messages"})
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("nope")
    assert info.value.code == 50013
    await kept.edit(content="editing my own message needs no Send Messages")
    assert [m.content for m in server.messages("games")] == [
        "text still goes",
        "editing my own message needs no Send Messages",
    ]
    assert ("POST", f"/channels/{channel.id}/messages", 403) in server.requests
    assert server.violations == []


async def test_threads_need_their_own_permissions(server: DevServer, bot: TinyBot) -> None:
    channel = text_channel(bot, server, "games")
    await server.set_bot_permissions("games", deny={"create_public_threads"})
    msg = await channel.send("table")
    with pytest.raises(discord.Forbidden) as info:
        await msg.create_thread(name="game 1")
    assert info.value.code == 50013
    await server.set_bot_permissions("games", allow={"create_public_threads"}, deny={"send_messages_in_threads"})
    thread = await msg.create_thread(name="game 1")
    with pytest.raises(discord.Forbidden) as info:
        await thread.send("hands")
    assert info.value.code == 50013
    await channel.send("the channel itself is fine")
    with pytest.raises(ValueError, match="threads have no permission overwrites"):
        await server.set_bot_permissions(thread.id, deny={"send_messages"})
    await server.set_bot_permissions("games", allow={"send_messages_in_threads"}, deny={"send_messages"})
    await thread.send("a thread open to posting keeps working")  # Send Messages in Threads is what counts
    assert [m.content for m in server.messages(thread.id)] == ["a thread open to posting keeps working"]


async def test_a_channel_the_bot_cannot_view_answers_50001(server: DevServer, bot: TinyBot) -> None:
    channel = text_channel(bot, server, "games-2")
    msg = await channel.send("before")
    await server.set_bot_permissions("games-2", deny={"view_channel"})
    assert server.bot_permissions("games-2") & bits(["view_channel", "send_messages", "attach_files"]) == 0
    calls = (
        lambda: channel.send("x"),
        lambda: channel.fetch_message(msg.id),
        lambda: msg.edit(content="y"),
        lambda: bot.fetch_channel(channel.id),
    )
    for call in calls:
        with pytest.raises(discord.Forbidden) as info:
            await call()
        assert info.value.code == 50001
    await server.set_bot_permissions("games-2", allow={"view_channel"}, deny={"read_message_history"})
    assert [m async for m in channel.history(limit=5)] == []  # Discord: no history without the permission
    with pytest.raises(discord.Forbidden) as info:
        await channel.fetch_message(msg.id)
    assert info.value.code == 50013


async def test_interaction_responses_and_followups_are_not_subject_to_channel_permissions(
    server: DevServer, bot: TinyBot
) -> None:
    await server.set_bot_permissions("games", deny={"send_messages", "attach_files", "embed_links"})
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert res.response_type == 4 and res.attachments == [png_bytes()]
    res = await (await server.as_user("alice").slash("slow")).wait(5, followups=1)
    assert res.images and res.followups[0].content == "and a followup"
    assert server.violations == [] and [e for e in server.errors if e.status == 403] == []


async def test_guild_wide_role_permissions(server: DevServer, bot: TinyBot) -> None:
    guild = server.guild()
    left = await server.set_bot_permissions(guild, deny={"attach_files"})
    assert not left & ATTACH_FILES
    await server.wait_until(lambda: f"role_update:{guild.bot_role_id}" in bot.events, 5, "GUILD_ROLE_UPDATE")
    me = bot.get_guild(guild.id).me  # type: ignore[union-attr]
    assert not me.guild_permissions.attach_files and me.guild_permissions.send_messages
    with pytest.raises(discord.Forbidden):
        await text_channel(bot, server, "general").send(file=discord.File(io.BytesIO(png_bytes()), "b.png"))
    with pytest.raises(ValueError, match="unknown permission 'attach_file'"):
        await server.set_bot_permissions(guild, deny={"attach_file"})
