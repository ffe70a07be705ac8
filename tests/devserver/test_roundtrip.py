"""An unmodified discord.py client against the DevServer: login, sync, gateway, interaction round trips."""

from __future__ import annotations

import pytest

from devserver import CommandUsageError, DevServer

from .conftest import TinyBot, png_bytes


async def test_login_sync_and_gateway_connect(server: DevServer, bot: TinyBot) -> None:
    assert server.identify_count == 1
    assert server.bot_connected
    assert set(server.all_commands()) == {
        "png",
        "game",
        "slow",
        "block",
        "purge",
        "ask",
        "late",
        "double",
        "post",
        "saved",
        "perms",
        "retry",
        "menus",
    }
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


async def test_subcommand_with_typed_options_and_resolved_user(server: DevServer, bot: TinyBot) -> None:
    res = await server.as_user("alice").slash(
        "game challenge", opponent="bob", rounds="2", ratio=0.5, rated="false", note="hi"
    )
    await res.wait(5)
    assert res.content == "alice challenges bob rounds=2 ratio=0.5 rated=False note=hi"
    opts = res.interaction.data["options"][0]
    assert opts["type"] == 1 and opts["name"] == "challenge"
    assert {o["name"]: o["value"] for o in opts["options"]}["rounds"] == 2
    assert str(server.user("bob").id) in res.interaction.data["resolved"]["users"]
    assert [b["label"] for b in res.message.buttons() if b["type"] == 2] == ["Accept", "Decline", "Later"]
    assert server.violations == []


async def test_button_click_updates_message_and_ephemeral_reply(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    declined = await (await server.as_user("carol").click(res.message, "Decline")).wait(5)
    assert declined.response_type == 4 and declined.ephemeral and declined.content == "declined"
    assert declined.message in server.messages("games", visible_to="carol")
    assert declined.message not in server.messages("games", visible_to="bob")
    assert declined.message not in server.messages("games", visible_to=None)  # the bot cannot read it back
    accepted = await (await server.as_user("bob").click(res.message, "tiny:accept")).wait(5)
    assert accepted.response_type == 7
    assert server.message(res.message.id).content == "accepted by bob"
    assert server.message(res.message.id).components == []
    assert server.violations == []


async def test_string_select(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    picked = await (await server.as_user("alice").select(res.message, "Line")).wait(5)
    assert picked.content == "layout line"


async def test_autocomplete_returns_choices_and_choice_by_name(server: DevServer, bot: TinyBot) -> None:
    choices = await server.as_user("alice").autocomplete("game place", "tile", "3", size="large")
    assert choices == [{"name": "tile 3", "value": "3"}]
    res = await (await server.as_user("alice").slash("game place", tile="3", size="large")).wait(5)
    assert res.content == "placed 3 on 3" and res.ephemeral


async def test_deferred_then_edited_with_attachment_and_followup(server: DevServer, bot: TinyBot) -> None:
    res = await server.as_user("dave").slash("slow")
    await res.wait(5, followups=1)
    assert res.response_type == 5
    assert res.content == "done" and not res.message.loading
    assert res.attachments == [png_bytes()]
    assert [m.content for m in res.followups] == ["and a followup"]
    assert server.violations == []


async def test_channel_messages_threads_and_edit_keeps_listed_attachments(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("post")).wait(5)
    assert res.ephemeral and res.content.startswith("thread ")
    thread = server.channel(int(res.content.split()[1]))
    assert thread.type == 11 and thread.parent_id == server.channel("games").id
    assert [m.content for m in server.messages(thread)] == ["in the thread"]
    table = next(m for m in server.messages("games") if m.content == "table v2")
    assert table.images == [png_bytes(16)]  # the edit listed only the new file: the old one is gone
    assert table.id == thread.id  # a thread started from a message takes its id
    assert server.violations == []


async def test_dm_is_seen_only_by_its_recipient(server: DevServer, bot: TinyBot) -> None:
    user = await bot.fetch_user(server.user("bob").id)
    msg = await user.send("your hand")
    dm = server.channel(msg.channel.id)
    assert dm.type == 1 and dm.recipient is server.user("bob")
    assert [m.content for m in server.messages(dm, visible_to="bob")] == ["your hand"]
    assert server.messages(dm, visible_to="alice") == []
    assert (await msg.channel.fetch_message(msg.id)).content == "your hand"  # the bot reads its own DM


async def test_deferred_update_then_channel_edit(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("game challenge", opponent="bob", rounds=1)).wait(5)
    later = await (await server.as_user("bob").click(res.message, "Later")).wait(5)
    assert later.response_type == 6 and later.complete()
    assert server.message(res.message.id).content == "edited later"


async def test_modal_round_trip(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("ask")).wait(5)
    assert res.response_type == 9 and res.interaction.modal["title"] == "Name your move"
    with pytest.raises(CommandUsageError):
        await server.as_user("alice").submit_modal(res, move="x" * 11)
    sub = await (await server.as_user("alice").submit_modal(res, move="L5")).wait(5)
    assert sub.content == "move L5"
    assert server.violations == []


async def test_later_messages_and_wait_for_message(server: DevServer, bot: TinyBot) -> None:
    res = await (await server.as_user("alice").slash("post")).wait(5, messages=2)
    assert [m.content for m in res.later_messages] == ["table v2", "in the thread"]
    thread_msg = await server.wait_for_message(lambda m: m.content == "in the thread", after=res.interaction.id)
    assert server.channel(thread_msg.channel_id).type == 11
    with pytest.raises(TimeoutError):
        await server.wait_for_message(lambda m: m.content == "never", timeout=0.2)


async def test_default_member_permissions_hide_a_command(server: DevServer, bot: TinyBot) -> None:
    with pytest.raises(CommandUsageError, match="does not see /purge"):
        await server.as_user("alice").slash("purge")
    res = await (await server.as_user("mod").slash("purge")).wait(5)
    assert res.content == "purged" and res.ephemeral


async def test_slash_command_inside_a_thread(server: DevServer, bot: TinyBot) -> None:
    await (await server.as_user("alice").slash("post")).wait(5, messages=2)
    thread = next(c for c in server.channels.values() if c.type == 11)
    res = await (await server.as_user("bob").in_channel(thread).slash("png")).wait(5)
    assert res.message is not None and res.message.channel_id == thread.id
    assert res.attachments == [png_bytes()]
    assert server.violations == []
