"""E2E (QA): numbers outside a new command's declared range (a modified client's payload: Discord's own client keeps
to the range, and ``bot/ui/payloads.py`` leaves ranges to the commands) are refused privately and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env
from .test_field_forged import raw_command

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("brkforged"))) as e:
        yield e


def count(env: BotEnv, table: str) -> int:
    with env.db() as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def opt(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


@pytest.mark.parametrize("rounds", [0, 11, 99])
async def test_a_swiss_tournament_of_rounds_out_of_range_is_refused(env: BotEnv, rounds: int) -> None:
    user = env.server.as_user("alice")
    options = [opt("game", 3, "constructo"), opt("rounds", 4, rounds)]
    res = await answered(await raw_command(user, "tournament", options, sub="create"))
    assert_refusal(res, "1 to 10 rounds", f"not {rounds}", "Nothing was changed")
    assert count(env, "tournaments") == 0


@pytest.mark.parametrize("hour", [24, -1])
async def test_a_daily_puzzle_hour_out_of_range_is_refused_in_words(env: BotEnv, hour: int) -> None:
    mod = env.server.as_user("mod")
    await answered(await mod.slash("puzzle daily_channel", channel="general", hour=12))
    options = [opt("hour", 4, hour)]
    res = await answered(await raw_command(mod, "puzzle", options, sub="daily_channel"))
    assert_refusal(res, "0 to 23", f"not {hour}", "Nothing was changed")
    with env.db() as conn:
        assert conn.execute("SELECT hour FROM puzzle_daily").fetchone()[0] == 12


async def test_a_level_for_a_challenge_of_a_person_is_refused_not_ignored(env: BotEnv) -> None:
    """The AI level only sets the bot's strength: asked of a challenge of a person, it is refused (it used to be
    silently ignored) and no challenge is stored; the same challenge without it, or of the bot, goes through."""
    alice = env.server.as_user("alice")
    games = count(env, "games")
    res = await answered(await alice.slash("constructo challenge", opponent="bob", level="hard"))
    assert_refusal(res, "level is my strength as the AI", "Bob", "challenge me")
    assert count(env, "games") == games
