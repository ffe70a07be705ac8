"""A member leaving a guild and a member's own channel overwrite (issue 22): what a bot sees of players who leave.
GUILD_MEMBER_REMOVE reaches only a session with the privileged members intent; the member fetch answers 10007
"Unknown Member" either way; a user overwrite denying View Channel arrives as CHANNEL_UPDATE and discord.py's
``permissions_for`` of the fetched member says so."""

from __future__ import annotations

import discord
import pytest

from devserver import CommandUsageError, DevServer

from .conftest import StartBot


@pytest.mark.parametrize("members", [False, True])
async def test_a_member_who_leaves_is_unknown_and_the_event_needs_the_members_intent(
    server: DevServer, start_bot: StartBot, members: bool
) -> None:
    bot = await start_bot(members=members)
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready")
    removed: list[int] = []

    async def on_raw_member_remove(payload: discord.RawMemberRemoveEvent) -> None:
        removed.append(payload.user.id)

    bot.on_raw_member_remove = on_raw_member_remove  # type: ignore[attr-defined]
    guild = bot.get_guild(server.guild_id)
    assert guild is not None
    bob = server.user("bob")
    assert (await guild.fetch_member(bob.id)).id == bob.id
    await server.remove_member("bob")
    with pytest.raises(discord.NotFound) as info:
        await guild.fetch_member(bob.id)
    assert info.value.code == 10007
    with pytest.raises(CommandUsageError, match="left"):
        await server.as_user("bob").slash("png")
    if members:
        await server.wait_until(lambda: removed == [bob.id], 5, "GUILD_MEMBER_REMOVE")
    else:
        res = await (await server.as_user("alice").slash("png")).wait(5)  # later events arrive, that one never
        assert res.content == "board" and removed == []
    assert (await guild.fetch_member(server.user("alice").id)).id == server.user("alice").id


async def test_a_user_overwrite_hides_the_channel_from_that_member(server: DevServer, start_bot: StartBot) -> None:
    bot = await start_bot()
    await server.wait_until(lambda: bot.is_ready(), 10, "on_ready")
    guild = bot.get_guild(server.guild_id)
    assert guild is not None
    carol, alice = server.user("carol"), server.user("alice")
    channel = guild.get_channel(server.channel("games").id)
    assert isinstance(channel, discord.TextChannel)
    await server.set_user_permissions("games", "carol", deny=["view_channel"])
    await server.wait_until(lambda: carol.id in {t.id for t in channel.overwrites}, 5, "CHANNEL_UPDATE")
    assert not channel.permissions_for(await guild.fetch_member(carol.id)).view_channel
    assert channel.permissions_for(await guild.fetch_member(alice.id)).view_channel
    await server.set_user_permissions("games", "carol")
    await server.wait_until(lambda: carol.id not in {t.id for t in channel.overwrites}, 5, "CHANNEL_UPDATE")
    assert channel.permissions_for(await guild.fetch_member(carol.id)).view_channel
