"""E2E: ``/settings`` says "Saved." only when a setting changed (``bot/ui/settings_same.py``), through the real bot.

An option already so (a game turned off twice, unblocking a member who is not blocked, removing a channel that is
not listed, the same clock again...) is said so in words, per option, in the reader's language; an admin may not
block themselves nor the bot. One bot process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("truth"))) as e:
        yield e


async def settings(env: BotEnv, locale: str = "en-US", **options: object) -> str:
    mod = env.server.user("mod")
    mod.locale = locale
    try:
        res = await answered(await env.server.as_user("mod").slash("settings", **options))
    finally:
        mod.locale = "en-US"
    assert res.ephemeral and res.messages and all(m.ephemeral for m in res.messages), res.text
    return res.text


def stored(env: BotEnv) -> dict[str, tuple[str, float]]:
    """The stored guild settings with the time each was written (a no-op rewriting one shows)."""
    with env.db() as conn:
        rows = conn.execute("SELECT key, value_json, updated_at FROM guild_settings").fetchall()
    return {str(r[0]): (str(r[1]), float(r[2])) for r in rows}


async def test_no_op_options_are_said_so_and_not_saved(env: BotEnv) -> None:
    general = env.server.channel("general")
    carol = env.server.user("carol")
    text = await settings(env, game_off="conex", clock="none")
    assert text.startswith("Saved.") and "Turned off: CONEX." in text, text
    before = stored(env)
    text = await settings(env, game_off="conex")
    assert "Saved." not in text and "CONEX is already off: nothing changed." in text, text
    assert "Nothing was changed." in text, text
    text = await settings(env, unblock="carol")
    assert "Saved." not in text and f"<@{carol.id}> is not blocked: nothing changed." in text, text
    text = await settings(env, remove_channel="general")
    assert "Saved." not in text and f"<#{general.id}> is not on the list" in text, text
    text = await settings(env, any_channel=True, rated=True, game_on="constructo", clock="none")
    for needle in ("any channel: nothing", "already rated", "Constructo is already on", "`clock` is already `none`"):
        assert needle in text, text
    assert "Saved." not in text, text
    assert stored(env) == before, "a no-op stored something"
    # one real change among no-ops: "Saved." and the no-op still said
    text = await settings(env, game_on="conex", unblock="carol")
    assert text.startswith("Saved.") and "is not blocked: nothing changed." in text and "Turned off: —." in text, text
    assert "Nothing was changed." not in text, text
    text = await settings(env, "es-ES", game_on="conex")
    assert "CONEX ya está activado: no ha cambiado nada." in text and "Guardado" not in text, text


async def test_an_admin_cannot_block_themselves_nor_the_bot(env: BotEnv) -> None:
    before = stored(env)
    mod = env.server.as_user("mod")
    assert_refusal(await answered(await mod.slash("settings", block="mod")), "cannot block yourself")
    assert_refusal(await answered(await mod.slash("settings", block="bot")), "bot itself cannot be blocked")
    assert stored(env) == before
    text = await settings(env, block="carol")
    assert text.startswith("Saved."), text
    text = await settings(env, block="carol")
    assert "is already blocked: nothing changed." in text and "Saved." not in text, text
