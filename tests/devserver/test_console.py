"""The console (`python -m devserver`) turns typed lines into user actions, against the tiny bot."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from devserver import CommandUsageError, DevServer
from devserver.console import Console, parse_options

from .conftest import TinyBot, png_bytes


def saved_files(folder: Path, pattern: str) -> list[Path]:
    return sorted(folder.glob(pattern))


def test_parse_options_splits_path_and_named_values() -> None:
    assert parse_options(["game", "place", "tile:5", "size:large"]) == ("game place", {"tile": "5", "size": "large"})
    assert parse_options(["game", "challenge", "note:a:b"]) == ("game challenge", {"note": "a:b"})
    with pytest.raises(CommandUsageError):
        parse_options(["game", "tile:5", "place"])
    with pytest.raises(CommandUsageError):
        parse_options([":5"])


async def test_console_plays_as_several_users(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="alice")
    assert console.prompt == "alice> "
    out = await console.run_line('/game challenge opponent:bob rounds:2 note:"good luck"', timeout=5)
    assert "alice challenges bob rounds=2" in out and "note=good luck" in out and "[Accept] [Decline]" in out
    assert (await console.run_line("switch bob")) == "now acting as bob"
    out = await console.run_line("click Accept", timeout=5)
    assert "accepted by bob" in out
    out = await console.run_line("carol> /png size:10", timeout=5)
    saved = saved_files(tmp_path, "*-b.png")
    assert len(saved) == 1 and saved[0].read_bytes() == png_bytes(10)
    assert str(saved[0]) in out
    assert console.user.name == "bob"  # a `name>` prefix acts for one line only
    assert "tile 5  ->  5" in await console.run_line("complete /game place tile 5 size:large", timeout=5)
    out = await console.run_line("/game place tile:4 size:small", timeout=5)
    assert "(only you)" in out and "placed 1 on 4" in out
    assert "placed 1 on 4" not in await console.run_line("alice> show 20")
    assert "?? unknown command /nope" in await console.run_line("/nope")
    assert "?? missing required option 'rounds'" in await console.run_line("/game challenge opponent:carol")
    assert server.violations == []


async def test_console_select_by_label(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="dave")
    await console.run_line("/game challenge opponent:alice rounds:1", timeout=5)
    assert "layout rombo" in await console.run_line("select Rombo", timeout=5)
    assert "?? no visible message has a select" in await console.run_line("select Nothing")


async def test_console_announces_threads_and_finds_buttons_in_other_channels(
    server: DevServer, bot: TinyBot, tmp_path: Path
) -> None:
    console = Console(server, tmp_path, user="alice")
    out = await console.run_line("/post", timeout=5)
    thread = next(c for c in server.channels.values() if c.type == 11)
    assert f"(new thread #game 1: `channel {thread.id}`" in out and "in the thread" in out
    await console.run_line("/game challenge opponent:bob rounds:1", timeout=5)
    assert (await console.run_line(f"channel {thread.id}")) == "now in #game 1"
    assert console.prompt == "alice #game 1> "
    assert "accepted by bob" in await console.run_line("bob> click Accept", timeout=5)  # the button is in #games


async def test_console_select_reaches_every_menu_of_a_message(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="carol")
    out = await console.run_line("/menus", timeout=5)
    assert "<select @1: a, b>" in out and "<select @2: x, y>" in out and "[1 · +3] [Add bot]" in out
    assert "second y" in await console.run_line("select Yak", timeout=5)  # found in the 2nd menu
    assert "second x" in await console.run_line("select Xylo phone", timeout=5)  # a label with a space
    assert "second x y" in await console.run_line("select @2 x y", timeout=5)  # by position, two values
    assert "first b" in await console.run_line("select @tiny:first Beta", timeout=5)  # by custom_id
    assert "first a" in await console.run_line("select #1 @1 a", timeout=5)  # message #1 of `show`
    assert "?? no visible message has a select offering 'x'" in await console.run_line("select @1 x")
    assert server.violations == []


async def test_console_clicks_labels_with_spaces_and_digits(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="carol")
    await console.run_line("/menus", timeout=5)
    assert "hint 1" in await console.run_line("click 1 · +3", timeout=5)  # not "message #1, button '· +3'"
    assert "bot added" in await console.run_line("click Add bot", timeout=5)
    assert "bot added" in await console.run_line('click "Add bot"', timeout=5)
    assert "bot added" in await console.run_line("click #1 Add bot", timeout=5)
    assert "?? no visible message has a button 'Remove bot'" in await console.run_line("click Remove bot")
    assert "?? `click` needs more" in await console.run_line("click")


async def test_console_server_controls(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="alice")
    text = await console.run_line("help")
    assert all(f"`{word}" in text for word in ("perms", "kick-bot", "invite-bot", "delete #3"))
    assert "attach_files" in await console.run_line("perms")
    out = await console.run_line("perms -attach_files -embed_links")
    assert out.startswith("bot in #games: ") and "attach_files" not in out and "send_messages," in out
    assert "attach=False" in await console.run_line("/perms", timeout=5)
    assert "attach_files" in await console.run_line("perms reset")
    assert "attach_files" in await console.run_line("perms #general")
    assert "?? unknown permission 'fly'" in await console.run_line("perms +fly")
    await console.run_line("/game challenge opponent:bob rounds:1", timeout=5)
    assert "mod deleted message #2" in await console.run_line("delete #2")
    assert "challenges bob" not in await console.run_line("show")
    assert "removed from 'Dev Guild'" in await console.run_line("kick-bot")
    await server.wait_until(lambda: f"guild_remove:{server.guild_id}" in bot.events, 5, "GUILD_DELETE")
    assert "?? the bot is not in 'Dev Guild' any more" in await console.run_line("/png")
    assert "Dev Guild (bot removed)" in await console.run_line("channels")
    assert "invited to 'Dev Guild'" in await console.run_line("invite-bot")
    await server.wait_until(lambda: f"guild_join:{server.guild_id}" in bot.events, 5, "GUILD_CREATE")
    assert "board" in await console.run_line("/png", timeout=5)


async def test_console_shows_what_the_bot_posts_after_its_answer(
    server: DevServer, bot: TinyBot, tmp_path: Path
) -> None:
    """The answer comes first and the board a moment later: both print with the line that caused them."""
    console = Console(server, tmp_path, user="alice")
    out = await console.run_line("/saved", timeout=5)  # answers, then posts 0.4 s later
    assert "saved" in out and "board after the answer" in out


async def test_console_channel_sticks_for_a_one_line_user(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="bob")
    assert (await console.run_line("mod> channel general")) == "now in #general"
    assert console.prompt == "bob> "  # bob stays where he was
    assert "#general" in await console.run_line("mod> perms")  # mod is still in #general on the next line
    assert (await console.run_line("switch mod")) == "now acting as mod"
    assert console.prompt == "mod #general> "
    assert (await console.run_line("switch bob")) == "now acting as bob"
    assert console.prompt == "bob> "


async def test_console_sets_a_users_and_the_servers_language(server: DevServer, bot: TinyBot, tmp_path: Path) -> None:
    console = Console(server, tmp_path, user="alice")
    assert "locale es-ES" in await console.run_line("help")
    assert "now speaks es-ES" in await console.run_line("locale es-ES")
    assert server.user("alice").locale == "es-ES" and server.user("bob").locale != "es-ES"
    assert "language is now es-ES" in await console.run_line("locale server es-ES")
    assert server.guild(None).locale == "es-ES"
    assert "?? write one of" in await console.run_line("locale klingon")
    assert server.user("alice").locale == "es-ES", "a refused locale changes nothing"


async def test_console_prints_a_dm_to_another_user_when_they_act(
    server: DevServer, bot: TinyBot, tmp_path: Path
) -> None:
    """A DM the bot sends bob while alice acts (a turn alert) is not alice's to read, and is not lost either: it
    prints when the console acts as bob, once."""
    console = Console(server, tmp_path, user="alice")
    dm = await bot.create_dm(discord.Object(server.user("bob").id))
    await dm.send("your move in #games")
    await server.wait_until(lambda: server.dm_messages("bob"), 5, "the DM")
    assert "your move" not in await console.run_line("/png size:4", timeout=5)
    switched = await console.run_line("switch bob")
    assert switched.startswith("now acting as bob") and "your move in #games" in switched, switched
    assert "your move" not in await console.run_line("/png size:4", timeout=5), "printed once"
    assert "your move" not in await console.run_line("switch alice")
