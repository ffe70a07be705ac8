"""An unmodified discord.py client against the DevServer: login, sync, gateway, interaction round trips."""

from __future__ import annotations

from bot.devserver import DevServer

from .conftest import TinyBot, png_bytes


async def test_login_sync_and_gateway_connect(server: DevServer, bot: TinyBot) -> None:
    assert server.identify_count == 1
    assert server.bot_connected
    assert set(server.all_commands()) == {"png", "game", "slow", "late", "double", "post"}
    await server.wait_until(lambda: bot.is_ready(), 5, "on_ready")
    guild = bot.get_guild(server.guild_id)
    assert guild is not None and {c.name for c in guild.text_channels} == {"general", "games", "games-2"}
    assert (await guild.fetch_member(server.user("mod").id)).guild_permissions.manage_guild
    assert not (await guild.fetch_member(server.user("alice").id)).guild_permissions.manage_guild
    assert server.violations == []


async def test_slash_command_replies_with_png(server: DevServer, bot: TinyBot) -> None:
    res = await server.as_user("alice").slash("png", size=12)
    await res.wait(5)
    assert res.response_type == 4 and res.content == "board"
    assert res.attachments == [png_bytes(12)]
    assert not res.ephemeral
    assert server.messages("games", visible_to="bob") == [res.message]
    assert server.violations == []
