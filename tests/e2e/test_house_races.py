"""E2E: the ratings-reset prompt of ``/settings reset_ratings`` answered twice at once (a double click, Confirm then
Cancel, the second click already on its way when the first removed the buttons): the first answer decides, the
second is refused privately and never rewrites what the prompt says (``bot/ui/server_settings.py``)."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from devserver.client import InteractionResult
from devserver.models import Message

from .helpers import BotEnv, answered, bot_env, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("house-races"))) as e:
        yield e


async def click_on_its_way(user: Any, message: Message, custom_id: str) -> InteractionResult:
    """A click on ``message`` as it was when the user saw it (its buttons may be gone by now)."""
    data = {"custom_id": custom_id, "component_type": 2}
    channel = user.server.channel(message.channel_id)
    it = await user.server.create_interaction(user.user, channel, 3, data, message=message)
    return InteractionResult(user.server, it)


async def rated_game(env: BotEnv, a: str, b: str) -> None:
    first, second = env.server.as_user(a), env.server.as_user(b)
    res = await answered(await first.slash("constructo challenge", opponent=b))
    await answered(await second.click(res.message, "Accept"), followups=1)
    await answered(await first.slash("constructo place", tile=5, size="large"))
    await answered(await second.slash("constructo place", tile=4, size="medium"))
    await resign(first)


async def prompt(env: BotEnv) -> tuple[Message, str, str]:
    res = await answered(await env.server.as_user("mod").slash("settings", reset_ratings="constructo"))
    assert res.ephemeral and res.message is not None, res.text
    seen = copy.deepcopy(res.message)
    ids = {c.get("label"): c["custom_id"] for c in seen.buttons()}
    return seen, ids["Reset the ratings"], ids["Cancel"]


async def test_confirm_then_cancel_on_its_way_keeps_the_truth(env: BotEnv) -> None:
    await rated_game(env, "alice", "bob")
    assert len(env.ratings("constructo")) == 2
    mod = env.server.as_user("mod")
    seen, ok, no = await prompt(env)
    await answered(await click_on_its_way(mod, seen, ok))
    assert env.ratings("constructo") == {}
    said = env.server.message(seen.id).content
    assert "2 players" in said, said
    late = await answered(await click_on_its_way(mod, seen, no))
    assert late.ephemeral and "already answered" in late.text, late.text
    assert env.server.message(seen.id).content == said, "the second click rewrote the prompt"


async def test_double_confirm_says_the_true_count_once(env: BotEnv) -> None:
    await rated_game(env, "carol", "dave")
    mod = env.server.as_user("mod")
    seen, ok, _ = await prompt(env)
    await answered(await click_on_its_way(mod, seen, ok))
    said = env.server.message(seen.id).content
    assert "2 players" in said and env.ratings("constructo") == {}, said
    again = await answered(await click_on_its_way(mod, seen, ok))
    assert again.ephemeral and "already answered" in again.text, again.text
    assert env.server.message(seen.id).content == said
