"""User installs in the DevServer (``devserver/private.py``): a DM or group DM between users where the bot is no
member, with Discord's documented rules."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from devserver import DevServer
from devserver.client import CommandUsageError
from devserver.payloads import interaction_payload
from devserver.private import FOLLOWUP_LIMIT, command_allowed

from .conftest import TinyBot


async def test_interactions_there_carry_context_and_the_user_install(server: DevServer, bot: TinyBot) -> None:
    gdm = server.add_private_channel("gdm", ["alice", "bob", "carol"])
    assert gdm.type == 3 and gdm.private and gdm.guild_id is None
    alice = server.user("alice")
    it = await server.create_interaction(alice, gdm, 3, {"custom_id": "tiny:none", "component_type": 2})
    payload = interaction_payload(server, it, gdm, None)
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert "guild_id" not in payload and "member" not in payload and payload["user"]["id"] == str(alice.id)
    assert {u["id"] for u in payload["channel"]["recipients"]} == {
        str(server.user(n).id) for n in ("alice", "bob", "carol")
    }
    assert server.add_private_channel("dm", ["alice", "bob"]).type == 1


async def test_channel_endpoints_answer_missing_access(server: DevServer, bot: TinyBot) -> None:
    dm = server.add_private_channel("dm", ["alice", "bob"])
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.send_message(dm.id, params=discord.http.handle_message_parameters(content="hi"))
    assert info.value.status == 403 and info.value.code == 50001
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.get_channel(dm.id)
    assert info.value.code == 50001
    assert server.messages(dm) == []


async def test_sixth_followup_of_a_user_install_interaction_is_refused(server: DevServer, bot: TinyBot) -> None:
    dm = server.add_private_channel("dm", ["alice", "bob"])
    it = await server.create_interaction(server.user("alice"), dm, 3, {"custom_id": "tiny:none", "component_type": 2})
    async with aiohttp.ClientSession() as http:
        url = f"{server.api_base}/interactions/{it.id}/{it.token}/callback"
        async with http.post(url, json={"type": 4, "data": {"content": "board"}}) as resp:
            assert resp.status in (200, 204), await resp.text()
    hook = discord.Webhook.partial(server.application_id, it.token, client=bot)
    for n in range(FOLLOWUP_LIMIT):
        await hook.send(f"followup {n}", wait=True)
    with pytest.raises(discord.HTTPException) as info:
        await hook.send("one too many", wait=True)
    assert info.value.status == 400 and info.value.code == 40094
    assert [v.kind for v in server.violations] == ["followup_limit"]
    assert [m.content for m in server.messages(dm)][-1] == f"followup {FOLLOWUP_LIMIT - 1}"


async def test_only_user_installed_commands_allowed_there_are_offered(server: DevServer, bot: TinyBot) -> None:
    assert command_allowed({"integration_types": [0, 1], "contexts": [0, 1, 2]})
    assert not command_allowed({"integration_types": [0], "contexts": [0, 1, 2]})
    assert not command_allowed({"integration_types": [0, 1], "contexts": [0, 1]})
    assert not command_allowed({"contexts": None})
    dm = server.add_private_channel("dm", ["alice", "bob"])
    with pytest.raises(CommandUsageError, match="unknown command"):
        await server.as_user("alice").in_channel(dm).slash("png")  # a guild command of the tiny bot
    with pytest.raises(CommandUsageError, match="not in"):
        await server.as_user("carol").in_channel(dm).slash("png")


async def test_a_guild_that_did_not_add_the_bot_speaks_through_the_user_install(
    server: DevServer, bot: TinyBot
) -> None:
    guild = server.add_foreign_guild("elsewhere")
    games = server.channel("games", guild=guild)
    alice = server.user("alice")
    it = await server.create_interaction(alice, games, 3, {"custom_id": "tiny:none", "component_type": 2})
    payload = interaction_payload(server, it, games, None)
    assert payload["context"] == 0 and payload["guild_id"] == str(guild.id)
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}, "no guild install authorized it"
    with pytest.raises(discord.Forbidden) as info:
        await bot.http.send_message(games.id, params=discord.http.handle_message_parameters(content="hi"))
    assert info.value.code == 50001
    with pytest.raises(CommandUsageError, match="unknown command"):
        await server.as_user("alice", games).slash("png")  # the tiny bot's commands are not user-installable
