"""The WHOLE command tree (every cog loaded, CONEX included once it exists) against Discord's
documented limits (see shared design discord-limits.md), and command sync only on change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import SHARED_EXTENSIONS, TableBot, extensions
from bot.config import Config
from bot.storage import Storage
from tests.bot.conftest import make_bot, walk_commands
from tests.bot.fakediscord import APP_ID, FakeDiscord

NAME_CHARS = set("-_'")
TEXT_KEYS = ("name", "description")


def _name_ok(name: str) -> bool:
    return 1 <= len(name) <= 32 and name == name.lower() and all(c.isalnum() or c in NAME_CHARS for c in name)


def _size(node: dict[str, Any]) -> int:
    """Characters Discord counts for a command: names, descriptions (+ localizations), choices."""
    total = 0
    for key in TEXT_KEYS:
        total += len(node.get(key) or "")
        total += sum(len(v) for v in (node.get(f"{key}_localizations") or {}).values())
    for choice in node.get("choices") or []:
        total += len(choice["name"]) + len(str(choice["value"]))
        total += sum(len(v) for v in (choice.get("name_localizations") or {}).values())
    for opt in node.get("options") or []:
        total += _size(opt)
    return total


def _check(node: dict[str, Any], path: str, problems: list[str], *, is_option: bool) -> None:
    names = [node["name"], *(node.get("name_localizations") or {}).values()]
    for n in names:
        if not _name_ok(n):
            problems.append(f"{path}: bad name {n!r}")
    if node.get("type", 1) == 1 or is_option:
        for d in [node.get("description", ""), *(node.get("description_localizations") or {}).values()]:
            if not 1 <= len(d) <= 100:
                problems.append(f"{path}: description of {len(d)} chars")
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(f"{path}: {len(options)} options")
    seen = set()
    for opt in options:
        if opt["name"] in seen:
            problems.append(f"{path}: duplicate option {opt['name']}")
        seen.add(opt["name"])
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append(f"{path} {opt['name']}: {len(choices)} choices")
        if choices and opt.get("autocomplete"):
            problems.append(f"{path} {opt['name']}: choices and autocomplete together")
        for ch in choices:
            if not 1 <= len(ch["name"]) <= 100 or (isinstance(ch["value"], str) and len(ch["value"]) > 100):
                problems.append(f"{path} {opt['name']}: bad choice {ch!r}")
        _check(opt, f"{path} {opt['name']}", problems, is_option=True)
    required_seen_optional = False
    for opt in options:
        if opt.get("type") in (1, 2):
            continue
        if not opt.get("required", False):
            required_seen_optional = True
        elif required_seen_optional:
            problems.append(f"{path}: required option {opt['name']} after an optional one")


async def test_every_game_cog_loaded(bot: TableBot) -> None:
    """Each cog module is loaded (a broken one is logged and skipped at runtime: this test is where it shows)."""
    assert bot.failed_extensions == []
    names = {c.name for c in bot.tree.get_commands()}
    assert {"constructo", "conex"} <= set(bot.games.kinds) and {"constructo", "conex"} <= names
    assert (
        extensions(bot.games)[-len(SHARED_EXTENSIONS) :]
        == list(SHARED_EXTENSIONS)
        == [
            "bot.cogs.shared",
            "bot.cogs.records",
            "bot.cogs.settings",
            "bot.cogs.unstuck",
            "bot.cogs.about",
            "bot.cogs.me",
            "bot.cogs.play",
            "bot.cogs.learn",
            "bot.cogs.tournament",
        ]
    )
    assert {"history", "replay", "settings", "games", "abandon", "mygames", "mysettings"} <= names
    for kind in bot.games.kinds.values():
        assert f"{kind.package}.cog" in extensions(bot.games)


async def test_whole_tree_respects_discord_limits(bot: TableBot) -> None:
    payload = await bot.command_payload(None)
    names = {p["name"] for p in payload}
    assert {"constructo", "leaderboard", "stats", "help", "abort"} <= names
    assert len([p for p in payload if p.get("type", 1) == 1]) <= 100
    problems: list[str] = []
    for cmd in payload:
        _check(cmd, "/" + cmd["name"], problems, is_option=False)
        size = _size(cmd)
        if size > 8000:
            problems.append(f"/{cmd['name']}: {size} characters > 8000")
    assert not problems, problems


async def test_every_leaf_command_has_a_described_callback(bot: TableBot) -> None:
    leaves = walk_commands(bot.tree)
    qualified = {c.qualified_name for c in leaves}
    assert {
        "constructo challenge",
        "constructo place",
        "constructo move",
        "constructo board",
        "constructo resign",
        "constructo layouts",
        "constructo rules",
        "leaderboard",
        "stats",
        "help",
        "abort",
    } <= qualified
    for c in leaves:
        assert c.description and c.description != "…", c.qualified_name
        for p in c.parameters:
            assert p.description and p.description != "…", (c.qualified_name, p.name)


async def test_spanish_localizations_are_sent_with_the_sync(bot: TableBot) -> None:
    payload = {p["name"]: p for p in await bot.command_payload(None)}
    loc = payload["constructo"].get("description_localizations") or {}
    assert loc.get("es-ES", "").startswith("Juega a Constructo")


async def test_sync_only_when_discord_has_other_commands(fake: FakeDiscord, storage: Storage, tmp_path: Path) -> None:
    first = await make_bot(fake, storage, tmp_path)
    puts = [c for c in fake.calls if c.method == "PUT"]
    assert [c.path for c in puts] == [f"/applications/{APP_ID}/commands"]
    assert isinstance(puts[0].payload, list) and len(puts[0].payload) >= 5
    await first.close()
    second = await make_bot(fake, storage, tmp_path)  # same tree, same storage: no sync
    assert len([c for c in fake.calls if c.method == "PUT"]) == 1
    assert await second.sync_commands(force=True) is True
    assert len([c for c in fake.calls if c.method == "PUT"]) == 2
    second.tree.remove_command("help")  # the tree changed: sync again
    assert await second.sync_commands() is True
    assert await second.sync_commands() is False
    fake.commands.clear()  # the application's commands deleted elsewhere: the same tree is synced again
    assert await second.sync_commands() is True
    assert len([c for c in fake.calls if c.method == "PUT"]) == 4
    gets = [c for c in fake.calls if c.method == "GET" and c.path.endswith("/commands")]
    assert gets and all(c.params == {"with_localizations": "true"} for c in gets)
    await second.close()


async def test_dev_guild_sync_goes_to_that_guild(fake: FakeDiscord, storage: Storage, tmp_path: Path) -> None:
    bot = await make_bot(fake, storage, tmp_path)
    try:
        object.__setattr__(bot, "config", Config(token="t", data_dir=tmp_path, dev_guild_id=4242))
        assert await bot.sync_commands() is True
        put = [c for c in fake.calls if c.method == "PUT"][-1]
        assert put.path == f"/applications/{APP_ID}/guilds/4242/commands"
        assert {p["name"] for p in put.payload} >= {"constructo", "help"}  # type: ignore[union-attr]
        assert await bot.sync_commands() is False  # Discord now reports the same commands for that guild
    finally:
        await bot.close()


def test_limit_checker_catches_broken_payloads() -> None:
    """The payload checker used at every test's teardown does find what Discord would refuse."""
    from tests.bot.fakediscord import limit_problems

    select = {"type": 3, "custom_id": "x", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
    assert limit_problems({"content": "a" * 2001})
    assert limit_problems({"type": 4, "data": {"components": [{"type": 1, "components": [select]}]}})
    button = {"type": 2, "custom_id": "b" * 101, "label": "ok"}
    assert limit_problems({"components": [{"type": 1, "components": [button]}]})
    twice = {"type": 2, "custom_id": "same", "label": "ok"}
    assert limit_problems({"components": [{"type": 1, "components": [twice, twice]}]})
    assert limit_problems({"components": [{"type": 1, "components": [twice]}] * 6})
    assert not limit_problems({"content": "fine", "components": [{"type": 1, "components": [twice]}]})
