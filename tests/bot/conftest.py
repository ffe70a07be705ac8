"""Fixtures: a real TableBot on real storage (temp SQLite), engine and render; Discord faked at
discord.py's HTTP seams (see ``fakediscord.py``); interactions built from gateway payloads."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.webhook.async_ import async_context

from bot.app import TableBot
from bot.config import Config
from bot.core import registry
from bot.core.envelope import Envelope, is_current
from bot.storage import Storage
from bot.storage.records import GameRecord
from tests.bot.fakediscord import (
    ALL_PERMISSIONS,
    APP_ID,
    BOT_ID,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    MEMBER_PERMISSIONS,
    TIMESTAMP,
    FakeDiscord,
    FakeWebhookAdapter,
    limit_problems,
    user_payload,
)

IGNORED_TASKS = {"heartbeat", "daemon:timers", "daemon:outbox", "daemon:match-queue", "cpu-warm-up"}
APP_PERMISSIONS = str(
    discord.Permissions(
        send_messages=True,
        view_channel=True,
        attach_files=True,
        create_public_threads=True,
        send_messages_in_threads=True,
        embed_links=True,
    ).value
)

_OPTION_TYPES = {
    discord.AppCommandOptionType.string: 3,
    discord.AppCommandOptionType.integer: 4,
    discord.AppCommandOptionType.boolean: 5,
    discord.AppCommandOptionType.user: 6,
    discord.AppCommandOptionType.number: 10,
}


_INTERACTION_IDS = itertools.count(7_000_000)  # unique across drivers (a restart = a second driver)


class Driver:
    """Builds interaction payloads as the gateway sends them and dispatches them to the bot."""

    def __init__(self, bot: TableBot, fake: FakeDiscord) -> None:
        self.bot = bot
        self.fake = fake
        self.ids = _INTERACTION_IDS

    # -- payload pieces ------------------------------------------------------------------
    def member(self, uid: int, *, admin: bool = False) -> dict[str, Any]:
        return {
            "user": user_payload(uid, self.fake.users[uid], bot=uid in self.fake.bots),
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": ALL_PERMISSIONS if admin else MEMBER_PERMISSIONS,
        }

    def _base(
        self,
        itype: int,
        uid: int,
        channel_id: int,
        *,
        admin: bool = False,
        locale: str = "en-US",
        app_permissions: str = APP_PERMISSIONS,
    ) -> tuple[dict[str, Any], str]:
        iid = next(self.ids)
        token = f"tok-{iid}"
        self.fake.tokens[token] = iid
        self.fake._channels[token] = channel_id
        payload = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": itype,
            "token": token,
            "version": 1,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(GUILD_ID),
                "name": "games",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": self.member(uid, admin=admin),
            "locale": locale,
            "guild_locale": "en-US",
            "app_permissions": app_permissions,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        return payload, token

    def _command_data(self, qualified: str, options: dict[str, Any], focused: str | None) -> tuple[dict, dict]:
        command = self.bot.tree.get_command(qualified.split()[0])
        assert command is not None, qualified
        names = qualified.split()
        leaf: Any = command
        for name in names[1:]:
            leaf = leaf.get_command(name)
            assert leaf is not None, qualified
        params = {p.display_name: p for p in leaf.parameters}
        opts: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            param = params[name]
            otype = _OPTION_TYPES[param.type]
            if otype == 6:
                uid = int(value)
                resolved.setdefault("users", {})[str(uid)] = user_payload(
                    uid, self.fake.users[uid], bot=uid in self.fake.bots
                )
                member = self.member(uid)
                member.pop("user")
                resolved.setdefault("members", {})[str(uid)] = member
                value = str(uid)
            opt: dict[str, Any] = {"type": otype, "name": name, "value": value}
            if name == focused:
                opt["focused"] = True
            opts.append(opt)
        data: dict[str, Any] = {"options": opts}
        for name in reversed(names[1:]):
            data = {"type": 1, "name": name, "options": data["options"]}
            data = {"options": [data]}
        data.update({"id": str(abs(hash(command.name)) % 10**12), "name": command.name, "type": 1})
        if resolved:
            data["resolved"] = resolved
        return data, resolved

    # -- dispatch ------------------------------------------------------------------------
    async def settle(self) -> None:
        """Wait until every task spawned by the dispatch (handlers, AI turns) has finished."""
        current = asyncio.current_task()
        for _ in range(400):
            pending = [
                t
                for t in asyncio.all_tasks()
                if t is not current
                and t.get_name() not in IGNORED_TASKS
                and not t.get_name().startswith("daemon:")  # the bot's loops (bot.lifecycle's rule as well)
                and not t.done()
                and "pytest" not in t.get_name()
                and "timeout_task" not in t.get_coro().__qualname__
            ]  # ephemeral views' 15-min timers
            if not pending:
                return
            await asyncio.wait(pending, timeout=0.05)
        raise AssertionError(f"tasks did not finish: {pending}")

    async def command(
        self,
        qualified: str,
        uid: int,
        channel_id: int = CHANNEL_ID,
        *,
        admin: bool = False,
        locale: str = "en-US",
        app_permissions: str = APP_PERMISSIONS,
        **options: Any,
    ) -> str:
        """Run ``/qualified options...`` as user ``uid``; returns the interaction token."""
        payload, token = self._base(2, uid, channel_id, admin=admin, locale=locale, app_permissions=app_permissions)
        payload["data"], _ = self._command_data(qualified, options, None)
        self.bot._connection.parse_interaction_create(payload)
        await self.settle()
        self.assert_one_response(token)
        return token

    def assert_one_response(self, token: str) -> None:
        """Exactly one initial response (callback) was sent for the interaction."""
        n = len(self.fake.callbacks(token))
        assert n == 1, f"interaction {token} got {n} initial responses"

    async def autocomplete(
        self,
        qualified: str,
        uid: int,
        focused: str,
        channel_id: int = CHANNEL_ID,
        *,
        locale: str = "en-US",
        **options: Any,
    ) -> list[dict[str, Any]]:
        """Ask for autocomplete of option ``focused`` (from a client speaking ``locale``); returns the choices."""
        payload, token = self._base(4, uid, channel_id, locale=locale)
        payload["data"], _ = self._command_data(qualified, options, focused)
        self.bot._connection.parse_interaction_create(payload)
        await self.settle()
        assert len(self.fake.callbacks(token)) == 1, "autocomplete must answer exactly once"
        return self.fake.autocomplete[self.fake.tokens[token]]

    async def resign(self, uid: int, channel_id: int = CHANNEL_ID) -> str:
        """``/constructo resign`` (a private confirmation, like the Resign button) then its **Yes, resign**;
        returns the confirmation click's token."""
        ask = await self.command("constructo resign", uid, channel_id)
        prompt = self.fake.messages[self.fake.originals[ask]]
        custom_id = next(
            c["custom_id"]
            for row in prompt.get("components", [])
            for c in row.get("components", [])
            if c.get("custom_id", "").startswith("cx:rsy:")
        )
        return await self.click(self.fake.originals[ask], custom_id, uid, channel_id=channel_id)

    async def click(
        self,
        message_id: int,
        custom_id: str,
        uid: int,
        *,
        values: list[str] | None = None,
        channel_id: int | None = None,
        message: dict[str, Any] | None = None,
    ) -> str:
        """Click a button / choose in a select of a message the bot sent; returns the token.

        ``message`` is the message payload as the user's client still shows it (default: as now
        stored), e.g. a snapshot taken before the bot removed its components."""
        msg = message if message is not None else self.fake.messages[message_id]
        payload, token = self._base(3, uid, channel_id or int(msg["channel_id"]))
        component_type = 3 if values is not None else 2
        payload["data"] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            payload["data"]["values"] = values
        payload["message"] = msg
        self.fake.component_message[token] = message_id
        self.bot._connection.parse_interaction_create(payload)
        await self.settle()
        self.assert_one_response(token)
        return token


async def until(predicate: Any, what: str, timeout: float = 30.0) -> None:  # noqa: ASYNC109
    """Poll ``await predicate()`` (storage, background workers: no event to wait on) until it is true; returns at
    once when it is. Raises ``AssertionError`` naming ``what`` after ``timeout`` s (a bound for a stuck run, never a
    speed check: a loaded machine may take seconds)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def all_custom_ids(message: dict[str, Any]) -> list[str]:
    """Custom ids of every component of a stored message."""
    out = []
    for row in message.get("components", []):
        for comp in row.get("components", []):
            if "custom_id" in comp:
                out.append(comp["custom_id"])
    return out


def component(message: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The component of ``message`` whose custom id starts with ``prefix``."""
    for row in message.get("components", []):
        for comp in row.get("components", []):
            if comp.get("custom_id", "").startswith(prefix):
                return comp
    raise AssertionError(f"no component {prefix!r} in {all_custom_ids(message)}")


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """The recorder; at teardown, every payload the test made the bot send must respect Discord's
    documented message and component limits."""
    fake = FakeDiscord()
    token = async_context.set(FakeWebhookAdapter(fake))
    try:
        yield fake
    finally:
        # Never leak the fake webhook adapter into later tests (the devserver tests use the real one).
        async_context.reset(token)
    problems = [(c.method, c.path, p) for c in fake.calls for p in limit_problems(c.payload)]
    assert not problems, problems


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    st = await Storage.open(tmp_path / "test.sqlite3")
    try:
        yield st
    finally:
        await st.close()


async def make_bot(fake: FakeDiscord, storage: Storage, tmp_path: Path) -> TableBot:
    # games stay in their channel, as the handler tests read them there (a thread per game: tests/e2e/test_footprint.py)
    config = Config(token="test-token-abc.def", data_dir=tmp_path, thread_per_game=False)
    bot = TableBot(config, storage=storage)
    bot.http.request = fake.http_request  # type: ignore[method-assign]
    bot._connection.user = discord.ClientUser(state=bot._connection, data=user_payload(BOT_ID, "TableBot", bot=True))
    bot._connection.application_id = APP_ID
    await bot._async_setup_hook()
    await bot.setup_hook()
    return bot


@pytest.fixture
async def bot(fake: FakeDiscord, storage: Storage, tmp_path: Path) -> AsyncIterator[TableBot]:
    bot = await make_bot(fake, storage, tmp_path)
    try:
        yield bot
    finally:
        await bot.close()


@pytest.fixture
def driver(bot: TableBot, fake: FakeDiscord) -> Driver:
    return Driver(bot, fake)


def walk_commands(tree: app_commands.CommandTree) -> list[app_commands.Command[Any, ..., Any]]:
    """Every leaf command of the tree."""
    out = []
    for cmd in tree.get_commands():
        if isinstance(cmd, app_commands.Group):
            out.extend(c for c in cmd.walk_commands() if isinstance(c, app_commands.Command))
        elif isinstance(cmd, app_commands.Command):
            out.append(cmd)
    return out


async def start(
    driver: Driver, fake: FakeDiscord, storage: Storage, *, by: int = 1, opponent: int = 2, **options: Any
) -> int:
    """``by`` challenges ``opponent`` to Constructo (``options``: the command's, e.g. ``clock``), the opponent
    accepts: returns the game id (the challenger to move; the game is ``active``)."""
    token = await driver.command("constructo challenge", by, opponent=opponent, **options)
    challenge = fake.originals[token]
    game_id = int(all_custom_ids(fake.messages[challenge])[0].split(":")[2])
    await driver.click(challenge, f"cx:acc:{game_id}", opponent)
    record = await storage.get_game(game_id)
    assert record is not None and record.status == "active"
    return game_id


def initial(fake: FakeDiscord, token: str) -> dict[str, Any]:
    """The initial response's payload of the interaction with ``token``: ``{"type": ..., "data": {...}}``."""
    (call,) = fake.callbacks(token)
    assert isinstance(call.payload, dict)
    return call.payload


def board_call(fake: FakeDiscord, token: str) -> Any:
    """The one call of the interaction with ``token`` that carries files (its board): the first response itself
    (a callback of type 4, drawn within ``board_answer.DIRECT_ANSWER_S``) or, after a "thinking" deferral, its edit."""
    (call,) = [c for c in fake.calls_for(token) if c.files]
    return call


def payload_data(call: Any) -> dict[str, Any]:
    """A call's message fields: a callback's ``data``, else the payload itself (an edit or a followup)."""
    payload = call.payload
    assert isinstance(payload, dict)
    return payload["data"] if "type" in payload and "data" in payload else payload


def refusal(fake: FakeDiscord, token: str) -> str:
    """The text of an ephemeral refusal sent as the initial response: the only answer of the interaction."""
    payload = initial(fake, token)
    assert payload["type"] == 4, payload
    assert payload["data"]["flags"] & EPHEMERAL, payload
    assert not fake.calls_for(token)[1:], "a refusal is the only answer"
    return str(payload["data"]["content"])


def envelope_of(record: GameRecord) -> Envelope:
    """The stored envelope of ``record`` (migrated by its kind when saved before version 2)."""
    if is_current(record.state):
        return Envelope.from_dict(record.state)
    return registry.kind(record.kind).rules.migrate(record)


def state_of(record: GameRecord) -> Any:
    """The engine state stored in ``record`` (``Match`` / ``Game``...), built the way the game layer builds it."""
    env = envelope_of(record)
    assert env.engine is not None, "the game has not started"
    return registry.kind(record.kind).engine.from_dict(env.engine)


match_of = game_of = state_of


@pytest.fixture
def expired_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every interaction token counts as expired for the bot's delivery (as after 15 idle minutes or a restart):
    AI and recovered boards and strips go through the channel endpoints, the path these tests fault."""
    from bot import first_response

    monkeypatch.setattr(first_response, "TOKEN_LIFE_S", 0.0)
