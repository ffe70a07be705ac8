"""What Discord enforces, enforced by the DevServer against a real discord.py client."""

from __future__ import annotations

import io

import discord
import pytest

from devserver import DevServer

from .conftest import StartBot, TinyBot, png_bytes


async def test_late_first_response_gets_10062(server: DevServer, bot: TinyBot) -> None:
    res = await server.as_user("alice").slash("late")
    server.clock.advance(3.0)  # the handler answers 0.3 s later: past the 3-s deadline on the server's clock
    await res.wait(6)
    assert res.failed and res.response_type is None
    await server.wait_until(lambda: "late:10062" in bot.events, 3, "the bot to see 10062")
    assert [v.kind for v in server.violations] == ["late_response"]
    assert server.violations[0].code == 10062


async def test_second_initial_response_gets_40060(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("double")).wait(5)
    await server.wait_until(lambda: "double:40060" in bot.events, 3, "the bot to see 40060")
    assert res.content == "first"
    assert [v.kind for v in res.violations] == ["double_response"]


async def test_aged_token_is_refused_after_15_minutes(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("png")).wait(5)
    server.clock.advance(16 * 60)
    webhook = discord.Webhook.partial(server.application_id, res.interaction.token, client=bot)
    with pytest.raises(discord.HTTPException) as info:
        await webhook.edit_message(res.message.id, content="too late")
    assert info.value.status == 401 and info.value.code == 50027
    assert [v.kind for v in server.violations] == ["expired_token"]
    assert server.message(res.message.id).content == "board"


async def test_injected_429_is_retried_by_discord_py(server: DevServer, bot: TinyBot) -> None:
    inj = server.inject("POST /interactions/*/callback", 429, count=1, retry_after=0.2)
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert inj.hits == 1
    assert res.response_type == 4 and res.attachments == [png_bytes()]  # the file was re-sent intact
    assert [(e.status, e.injected) for e in server.errors] == [(429, True)]
    assert server.violations == []


async def test_injected_5xx_is_retried_on_rest(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    inj = server.inject("POST /channels/*/messages", 502, count=1)
    msg = await channel.send("hello", file=discord.File(io.BytesIO(png_bytes()), "x.png"))
    assert inj.hits == 1
    assert [m.content for m in server.messages("general")] == ["hello"]
    assert server.message(msg.id).images == [png_bytes()]


async def test_reconnect_resumes_and_replays_missed_events(server: DevServer, bot: TinyBot) -> None:
    await server.gateway.reconnect()  # op 7: the client must RESUME
    await server.wait_until(lambda: server.resume_count == 1 and server.bot_connected, 10, "RESUME")
    await server.wait_until(lambda: "resumed" in bot.events, 5, "on_resumed")
    res = await (await server.as_user("bob").slash("png")).wait(5)
    assert res.content == "board"
    assert server.identify_count == 1


async def test_dropped_socket_then_events_arrive_after_resume(server: DevServer, bot: TinyBot) -> None:
    await server.gateway.drop(4000)
    res = await server.as_user("carol").slash("png")  # dispatched while the socket is down: buffered
    await server.wait_until(lambda: server.resume_count >= 1, 10, "RESUME")
    await res.wait(8)
    assert res.response_type == 4 and res.content == "board"  # close code 4000: discord.py resumes at once
    assert server.identify_count == 1 and server.violations == []


async def test_restarted_process_identifies_again(server: DevServer, start_bot: StartBot) -> None:
    first = await start_bot()
    await first.close()
    await server.wait_until(lambda: not server.bot_connected, 5, "the bot to go away")
    await start_bot()
    assert server.identify_count == 2
    res = await (await server.as_user("alice").slash("png")).wait(5)
    assert res.content == "board"


async def test_bad_token_is_rejected(server: DevServer, start_bot: StartBot) -> None:
    bot = TinyBot(server.guild_id)
    with pytest.raises(discord.LoginFailure):
        await bot.login("wrong-token")
    await bot.close()
    assert server.errors[-1].status == 401


async def test_broken_command_tree_gets_400(server: DevServer, start_bot: StartBot) -> None:
    bot = await start_bot(broken=True, wait=False)
    await server.wait_until(lambda: bot.sync_error is not None, 10, "the sync to fail")
    assert isinstance(bot.sync_error, discord.HTTPException)
    assert bot.sync_error.status == 400 and bot.sync_error.code == 50035
    assert server.all_commands() == {}
    assert [v.kind for v in server.violations] == ["invalid_form"]
    assert "8000" in server.violations[0].message


async def test_oversize_upload_is_refused(server: DevServer, bot: TinyBot) -> None:
    channel = bot.get_channel(server.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    big = b"\x89PNG" + b"\0" * (10 * 1024 * 1024)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(file=discord.File(io.BytesIO(big), "big.png"))
    assert info.value.status == 413 and info.value.code == 40005
    assert server.messages("general") == []
    assert [v.kind for v in server.violations] == ["file_too_large"]


@pytest.mark.parametrize("conformance", ["enforce", "record"])
async def test_too_many_buttons_in_a_row_is_refused(server: DevServer, bot: TinyBot, conformance: str) -> None:
    """Discord's spec (components[].components maxItems 5) refuses it first; with the spec check only
    recording, the devserver's own limit (limits.py) refuses it too."""
    server.conformance = conformance
    channel_id = server.channel("general").id
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}"} for i in range(6)]}
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(route, json={"content": "x", "components": [row]})
    assert info.value.status == 400 and info.value.code == 50035
    assert server.messages("general") == []
    errors = server.errors[-1].body["errors"]["components"]["0"]["components"]["_errors"]
    if conformance == "enforce":
        assert [v.kind for v in server.violations] == ["spec"]
        assert errors[0] == {"code": "BASE_TYPE_MAX_LENGTH", "message": "6 items, at most 5 allowed"}
    else:
        assert [v.kind for v in server.violations] == ["spec", "invalid_form"]
        assert errors[0]["code"] == "COMPONENT_LAYOUT_WIDTH_EXCEEDED"


@pytest.mark.parametrize("conformance", ["enforce", "record"])
async def test_more_than_25_autocomplete_choices_is_refused(server: DevServer, bot: TinyBot, conformance: str) -> None:
    server.conformance = conformance
    assert await server.as_user("alice").autocomplete("game place", "tile", "all") == []  # what the user sees
    kinds = ["spec"] if conformance == "enforce" else ["spec", "invalid_form"]
    assert [v.kind for v in server.violations] == kinds
    assert server.violations[0].details.problems[0].at == ("data", "choices")
    assert "30 items, at most 25 allowed" in server.violations[0].message
    if conformance == "record":
        assert "30 choices" in server.violations[1].message
