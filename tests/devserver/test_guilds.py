"""Several guilds, the bot removed from one (issue 12.5), a moderator deleting a message (issue 12.4), and the
application's commands read back or deleted elsewhere (issue 13.4)."""

from __future__ import annotations

import discord
import pytest

from devserver import CommandUsageError, DevServer

from .conftest import StartBot, TinyBot


async def test_a_second_guild_has_its_own_channels_roles_and_the_same_members(
    server: DevServer, start_bot: StartBot
) -> None:
    second = server.add_guild("Second Guild")
    assert second.id != server.guild_id and server.guild("Second Guild") is second
    bot = await start_bot()
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready")
    assert {g.name for g in bot.guilds} == {"Dev Guild", "Second Guild"}
    g2 = bot.get_guild(second.id)
    assert g2 is not None and {c.name for c in g2.text_channels} == {"general", "games", "games-2"}
    assert g2.get_role(second.mod_role_id) is not None and g2.default_role.id == second.id
    games2 = server.channel("games", guild=second)
    assert games2.guild_id == second.id and server.channel("games").guild_id == server.guild_id
    member = await g2.fetch_member(server.user("mod").id)
    assert member.guild_permissions.manage_messages and [r.id for r in member.roles[1:]] == [second.mod_role_id]
    with pytest.raises(RuntimeError, match="bot_member=False"):
        server.add_guild("Too late")  # the connected bot would never hear of it
    third = server.add_guild("Third", bot_member=False)
    await server.add_bot(third)
    await server.wait_until(lambda: f"guild_join:{third.id}" in bot.events, 5, "GUILD_CREATE of the new guild")
    assert bot.get_guild(third.id) is not None


async def test_removing_the_bot_sends_guild_delete_and_closes_the_guild(server: DevServer, start_bot: StartBot) -> None:
    second = server.add_guild("Second Guild")
    bot = await start_bot()
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready")
    channel = bot.get_channel(server.channel("games").id)
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send("a board")
    guild = await server.remove_bot()
    await server.wait_until(lambda: f"guild_remove:{guild.id}" in bot.events, 5, "on_guild_remove")
    assert bot.get_guild(guild.id) is None and bot.get_guild(second.id) is not None
    calls = (
        lambda: channel.send("still here?"),
        lambda: msg.edit(content="edit"),
        lambda: bot.fetch_channel(channel.id),
        lambda: bot.fetch_guild(guild.id),
    )
    for call in calls:
        with pytest.raises(discord.Forbidden) as info:
            await call()
        assert info.value.code == 50001
    with pytest.raises(CommandUsageError, match="not in 'Dev Guild' any more"):
        await server.as_user("alice").slash("png")
    with pytest.raises(CommandUsageError, match="not in 'Dev Guild'"):
        await server.as_user("alice").click(server.message(msg.id), "Accept")
    await server.add_bot(guild)
    await server.wait_until(lambda: f"guild_join:{guild.id}" in bot.events, 5, "on_guild_join")
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert res.content == "board" and server.violations == []


async def test_a_moderator_deletes_a_message(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    msg = res.message
    assert msg is not None
    with pytest.raises(CommandUsageError, match="no Manage Messages"):
        await server.delete_message(msg, by="alice")
    await server.delete_message(msg.id, by="mod")
    assert msg.deleted and server.messages("games") == []
    await server.wait_until(lambda: f"message_delete:{msg.id}" in bot.events, 5, "MESSAGE_DELETE")
    with pytest.raises(CommandUsageError, match="was deleted \\(by mod\\)"):
        await server.as_user("bob").click(msg, "Accept")
    channel = bot.get_channel(msg.channel_id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.NotFound) as info:
        await channel.fetch_message(msg.id)
    assert info.value.code == 10008
    webhook = discord.Webhook.partial(server.application_id, res.interaction.token, client=bot)
    with pytest.raises(discord.NotFound) as info:
        await webhook.edit_message(msg.id, content="too late")
    assert info.value.code == 10008
    assert server.violations == []  # the bot could not know: not its fault
    with pytest.raises(CommandUsageError, match="already deleted"):
        await server.delete_message(msg, by="mod")


async def test_ephemeral_messages_cannot_be_deleted_by_a_moderator(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("perms")).wait(5)
    with pytest.raises(CommandUsageError, match="ephemeral"):
        await server.delete_message(res.message, by="mod")  # type: ignore[arg-type]


async def test_commands_read_back_and_deleted_elsewhere(server: DevServer, bot: TinyBot) -> None:
    synced = await bot.tree.fetch_commands(guild=bot.guild)
    assert sorted(c.name for c in synced) == sorted(server.all_commands())
    assert server.clear_commands() == len(synced)
    assert await bot.tree.fetch_commands(guild=bot.guild) == []
    assert await bot.tree.fetch_commands() == []
    with pytest.raises(CommandUsageError, match="unknown command /png; synced: none"):
        await server.as_user("alice").slash("png")
    await bot.tree.sync(guild=bot.guild)  # what a bot comparing with Discord's list does
    assert (await (await server.as_user("alice").slash("png")).wait(5)).content == "board"
