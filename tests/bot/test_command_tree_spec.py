"""The bot's WHOLE command tree, exactly as a sync sends it (every cog, translated), validated offline against
Discord's OpenAPI spec for the bulk overwrite body (``devserver/spec/openapi.json``, ``devserver.conformance``).

Discord refuses a bulk overwrite as a whole: one option out of range (``/replay game:`` once declared
``max_value`` 2^53, above the INTEGER range ±(2^53 - 1)) and no command registers at all."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.app import TableBot
from devserver.conformance import SpecCheck, default_conformance
from tests.bot.fakediscord import APP_ID

INT53 = 2**53 - 1
GLOBAL = f"/applications/{APP_ID}/commands"
GUILD = f"/applications/{APP_ID}/guilds/4242/commands"


def check_tree(path: str, payload: list[dict[str, Any]]) -> SpecCheck:
    return default_conformance().check("PUT", path, body=payload)


def options(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option below ``node`` (subcommands, groups and their parameters)."""
    out = []
    for opt in node.get("options") or []:
        out.append(opt)
        out.extend(options(opt))
    return out


@pytest.mark.parametrize("path", [GLOBAL, GUILD])
async def test_translated_tree_conforms_to_discords_spec(bot: TableBot, path: str) -> None:
    payload = await bot.command_payload(None)
    assert {"constructo", "conex", "replay", "history", "settings"} <= {p["name"] for p in payload}
    result = check_tree(path, payload)
    assert result.operation_id in ("bulk_set_application_commands", "bulk_set_guild_application_commands")
    assert result.ok, result.summary()


async def test_untranslated_tree_of_every_command_conforms(bot: TableBot) -> None:
    """``tree._get_all_commands()`` (slash commands and context menus, global and guild) as ``to_dict``."""
    payload = [c.to_dict(bot.tree) for c in bot.tree._get_all_commands()]
    assert len(payload) >= 5
    result = check_tree(GLOBAL, payload)
    assert result.ok, result.summary()


async def test_every_numeric_bound_is_within_discords_integer_range(bot: TableBot) -> None:
    """Rule of the INTEGER/NUMBER option (Int53Type): min_value/max_value within ±(2^53 - 1); the integer
    options that declare bounds are the ones the cogs mean to (a Range was not lost on the way)."""
    bounded = {}
    for cmd in await bot.command_payload(None):
        for opt in options(cmd):
            if opt.get("type") in (4, 10):
                for key in ("min_value", "max_value"):
                    if key in opt:
                        assert -INT53 <= opt[key] <= INT53, (cmd["name"], opt["name"], key, opt[key])
                if "max_value" in opt:
                    bounded[(cmd["name"], opt["name"])] = (opt.get("min_value"), opt["max_value"])
    assert bounded[("replay", "game")] == (1, INT53)
    assert len(bounded) >= 5


async def test_the_check_refuses_an_option_past_the_integer_range(bot: TableBot) -> None:
    """The validator does catch the kind of bug it is here for: max_value 2^53 on /replay game."""
    payload = copy.deepcopy(await bot.command_payload(None))
    index = next(i for i, c in enumerate(payload) if c["name"] == "replay")
    game = next(o for o in payload[index]["options"] if o["name"] == "game")
    game["max_value"] = 2**53
    result = check_tree(GLOBAL, payload)
    assert not result.ok and result.status == 400 and result.code == 50035
    (problem,) = result.problems
    assert problem.at == (index, "options", game_index(payload[index], "game"), "max_value")
    assert problem.code == "NUMBER_TYPE_MAX" and "9007199254740991" in problem.message
    assert result.form_errors()[str(index)]["options"]


def game_index(cmd: dict[str, Any], name: str) -> int:
    return next(i for i, o in enumerate(cmd["options"]) if o["name"] == name)
