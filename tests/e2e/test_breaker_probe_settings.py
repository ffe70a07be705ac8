"""E2E (QA, exploratory probes): /settings given contradictory options in one command (all values Discord's own
client sends: turn a game on and off, allow and remove a channel, block and unblock a member, a valid limit beside
an admin blocking themselves, any_channel beside allow_channel). What the admin reads is what is stored: "Saved."
only when something changed, never "nothing was changed" when something was."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .breaker_kit import no_traceback, probe_env, readable
from .helpers import BotEnv, answered

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with probe_env(Path(tmp_path_factory.mktemp("probe-settings"))) as e:
        yield e


def house(env: BotEnv) -> list[tuple[Any, ...]]:
    """Every row of every table a /settings answer may change."""
    with env.db() as conn:
        tables = [
            t
            for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if t.startswith(("guild_", "blocked", "allowed", "channel"))
        ]
        return [(t, sorted(map(tuple, conn.execute(f"SELECT * FROM {t}").fetchall()))) for t in tables]


@pytest.mark.parametrize(
    ("options", "refused"),
    [
        # options that pull one setting both ways are refused as a whole (bot/ui/settings_same.py:
        # refuse_contradictions), in place of the later option silently winning under an untrue "nothing changed"
        ({"game_on": "constructo", "game_off": "constructo"}, r"`game_on` and `game_off` both name Constructo"),
        ({"allow_channel": "p2", "remove_channel": "p2"}, r"`allow_channel` and `remove_channel` both name"),
        ({"block": "bob", "unblock": "bob"}, r"`block` and `unblock` both name"),
        ({"games_per_member": 7, "block": "mod"}, r"You cannot block yourself"),
        ({"any_channel": True, "allow_channel": "p4"}, r"cannot go with `allow_channel`"),
        ({"any_channel": True, "remove_channel": "p4"}, r"cannot go with `remove_channel`"),
        # not a contradiction: both options apply, and the answer tells what was saved
        ({"game_off": "conex", "game_on": "constructo"}, None),
        ({"allow_channel": "p3", "remove_channel": "p2"}, None),
    ],
)
async def test_contradictory_settings_in_one_command_say_what_was_saved(
    env: BotEnv, options: dict[str, Any], refused: str | None
) -> None:
    mark = env.mark()
    mod = env.server.as_user("mod", "p6")
    before = house(env)
    res = await answered(await mod.slash("settings", **options))
    text = readable(res.text)
    after = house(env)
    if refused:
        assert re.search(refused, text), text
        assert "Nothing was changed" in text and "Saved" not in text, text
        assert after == before, "a refused command changed the settings"
    elif before != after:
        assert "Saved" in text, f"stored a change but said {text!r}"
        assert not re.search(r"nothing was changed", text, re.IGNORECASE), f"changed, yet said otherwise: {text!r}"
    else:
        assert "Saved" not in text, f"said Saved, stored nothing: {text!r}"
    no_traceback(env)
    assert env.violations_since(mark) == [], env.log_tail()
