"""Fixtures: a DevServer on a free loopback port and a tiny in-process discord.py bot pointed at it."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands
from PIL import Image

from devserver import DevServer

TOKEN = "test-token"


def png_bytes(size: int = 8) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (size, size), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


class AcceptView(discord.ui.View):
    """A button row (Accept / Decline) and a string select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Accept", custom_id="tiny:accept", style=discord.ButtonStyle.success)
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"accepted by {interaction.user.name}", view=None)

    @discord.ui.button(label="Decline", custom_id="tiny:decline")
    async def decline(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("declined", ephemeral=True)

    @discord.ui.button(label="Later", custom_id="tiny:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.2)
        assert interaction.message is not None
        await interaction.message.edit(content="edited later")

    @discord.ui.select(
        custom_id="tiny:layout",
        options=[discord.SelectOption(label="Rombo", value="rombo"), discord.SelectOption(label="Line", value="line")],
    )
    async def layout(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"layout {select.values[0]}")


class AskModal(discord.ui.Modal, title="Name your move"):
    move: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Move", custom_id="move", max_length=10)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"move {self.move.value}")


class MenusView(discord.ui.View):
    """Two select menus and buttons whose labels need care in the console ("1 · +3", "Add bot")."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="1 · +3", custom_id="tiny:hint1")
    async def hint(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("hint 1")

    @discord.ui.button(label="Add bot", custom_id="tiny:addbot")
    async def add_bot(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("bot added")

    @discord.ui.select(
        custom_id="tiny:first",
        options=[discord.SelectOption(label="Alpha", value="a"), discord.SelectOption(label="Beta", value="b")],
    )
    async def first(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"first {select.values[0]}")

    @discord.ui.select(
        custom_id="tiny:second",
        max_values=2,
        options=[discord.SelectOption(label="Xylo phone", value="x"), discord.SelectOption(label="Yak", value="y")],
    )
    async def second(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"second {' '.join(select.values)}")


def add_fault_commands(bot: TinyBot) -> None:
    """Commands that show what the bot sees of permissions and failed responses."""
    tree, guild = bot.tree, bot.guild

    @tree.command(name="perms", description="Reports the bot's permissions here", guild=guild)
    async def perms(interaction: discord.Interaction) -> None:
        channel = interaction.channel
        assert isinstance(channel, (discord.TextChannel, discord.Thread)) and interaction.guild is not None
        cached = channel.permissions_for(interaction.guild.me)
        await interaction.response.send_message(
            f"app={interaction.app_permissions.value} attach={interaction.app_permissions.attach_files} "
            f"cached_attach={cached.attach_files} cached_send={cached.send_messages}",
            ephemeral=True,
        )

    @tree.command(name="retry", description="Answers; on 10062 tries again, then posts in the channel", guild=guild)
    async def retry(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("first try")
        except discord.NotFound as exc:
            bot.events.append(f"retry:{exc.code}")
            try:
                await interaction.response.send_message("second try")
            except discord.NotFound as again:
                bot.events.append(f"again:{again.code}")
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("the move was played (said in the channel)")

    @tree.command(name="menus", description="Two selects and tricky button labels", guild=guild)
    async def menus(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("menus", view=MenusView())


class TinyBot(discord.Client):
    """One command per behaviour the server must support (PNG reply, subcommands with typed options,
    buttons and select, autocomplete, a deferred slow handler, a late handler, a double response)."""

    def __init__(self, guild_id: int, *, broken: bool = False, members: bool = False) -> None:
        intents = discord.Intents.default()
        intents.members = members
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(guild_id)
        self.sync_error: Exception | None = None
        self.events: list[str] = []
        tree, guild = self.tree, self.guild

        @tree.command(name="png", description="Reply with a PNG", guild=guild)
        async def png(interaction: discord.Interaction, size: int = 8) -> None:
            await interaction.response.send_message("board", file=discord.File(io.BytesIO(png_bytes(size)), "b.png"))

        game = app_commands.Group(name="game", description="Game commands", guild_ids=[guild_id])

        @game.command(name="challenge", description="Challenge someone")
        async def challenge(
            interaction: discord.Interaction,
            opponent: discord.Member,
            rounds: int,
            ratio: float = 1.0,
            rated: bool = True,
            note: str = "",
        ) -> None:
            await interaction.response.send_message(
                f"{interaction.user.name} challenges {opponent.name} rounds={rounds} ratio={ratio} "
                f"rated={rated} note={note}",
                view=AcceptView(),
            )

        async def tiles(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            if current == "all":  # the bug under test: more than 25 choices
                return [app_commands.Choice(name=f"tile {n}", value=str(n)) for n in range(30)]
            return [app_commands.Choice(name=f"tile {n}", value=str(n)) for n in range(1, 10) if current in str(n)]

        @game.command(name="place", description="Place a chip")
        @app_commands.autocomplete(tile=tiles)
        @app_commands.choices(
            size=[app_commands.Choice(name="small", value=1), app_commands.Choice(name="large", value=3)]
        )
        async def place(interaction: discord.Interaction, tile: str, size: int) -> None:
            await interaction.response.send_message(f"placed {size} on {tile}", ephemeral=True)

        tree.add_command(game)

        @tree.command(name="slow", description="Defers, then edits", guild=guild)
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.3)
            await interaction.edit_original_response(
                content="done", attachments=[discord.File(io.BytesIO(png_bytes()), "late.png")]
            )
            await interaction.followup.send("and a followup")

        @tree.command(name="block", description="Blocks the event loop for 1 s", guild=guild)
        async def block(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            time.sleep(1.0)  # noqa: ASYNC251 - the bug under test: CPU work on the event loop
            await interaction.edit_original_response(content="unblocked")

        @tree.command(name="purge", description="Moderators only", guild=guild)
        @app_commands.default_permissions(manage_guild=True)
        async def purge(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("purged", ephemeral=True)

        @tree.command(name="ask", description="Opens a modal", guild=guild)
        async def ask(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(AskModal())

        @tree.command(name="late", description="Answers after 0.3 s (the test ages the clock past 3 s)", guild=guild)
        async def late(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.3)
            try:
                await interaction.response.send_message("too late")
            except discord.NotFound as exc:
                self.events.append(f"late:{exc.code}")

        @tree.command(name="double", description="Answers twice", guild=guild)
        async def double(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            try:
                await discord.InteractionResponse(interaction).send_message("second")
            except discord.HTTPException as exc:
                self.events.append(f"double:{exc.code}")

        @tree.command(name="saved", description="Answers, then posts a board 0.4 s later", guild=guild)
        async def saved(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("saved", ephemeral=True)
            await asyncio.sleep(0.4)
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("board after the answer")

        @tree.command(name="post", description="Posts in the channel and opens a thread", guild=guild)
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            msg = await interaction.channel.send("table", file=discord.File(io.BytesIO(png_bytes()), "t.png"))
            thread = await msg.create_thread(name="game 1")
            await thread.send("in the thread")
            await msg.edit(content="table v2", attachments=[discord.File(io.BytesIO(png_bytes(16)), "t2.png")])
            await interaction.followup.send(f"thread {thread.id}", ephemeral=True)

        if broken:  # discord.py accepts this locally; Discord refuses it (over 8000 characters in all)
            big = [app_commands.Choice(name=f"{'n' * 90}{i:02}", value=f"{'v' * 90}{i:02}") for i in range(25)]

            @tree.command(name="huge", description="Too big to sync", guild=guild)
            @app_commands.choices(a=big, b=big, c=big, d=big)
            async def huge(interaction: discord.Interaction, a: str, b: str, c: str, d: str) -> None:
                await interaction.response.send_message("never synced")  # pragma: no cover

        add_fault_commands(self)

    async def setup_hook(self) -> None:
        try:
            await self.tree.sync(guild=self.guild)
        except discord.HTTPException as exc:
            self.sync_error = exc

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-s pause before a re-IDENTIFY (discord.py's default): keeps the tests fast."""

    async def on_resumed(self) -> None:
        self.events.append("resumed")

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.events.append(f"guild_remove:{guild.id}")

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.events.append(f"guild_join:{guild.id}")

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.events.append(f"message_delete:{payload.message_id}")

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self.events.append(f"role_update:{after.id}")


@pytest.fixture
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DevServer]:
    srv = await DevServer(token=TOKEN).start()
    monkeypatch.setattr(discord.http.Route, "BASE", srv.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(srv.gateway_url))
    yield srv
    await srv.stop()


StartBot = Callable[..., Awaitable[TinyBot]]


@pytest.fixture
async def start_bot(server: DevServer) -> AsyncIterator[StartBot]:
    bots: list[tuple[TinyBot, asyncio.Task[None]]] = []

    async def start(*, broken: bool = False, token: str = TOKEN, wait: bool = True, members: bool = False) -> TinyBot:
        bot = TinyBot(server.guild_id, broken=broken, members=members)
        task = asyncio.create_task(bot.start(token))
        bots.append((bot, task))
        if wait:
            await server.wait_for_bot(10)
        return bot

    yield start
    for bot, task in bots:
        await bot.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
async def bot(start_bot: StartBot) -> TinyBot:
    return await start_bot()
