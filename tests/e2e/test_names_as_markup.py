"""E2E: a nickname written as Discord markup (``<@carol's id>``, ``<@&role> ``, ``<#channel>``) is shown as the text it
is, never drawn as another member, a role or a channel (``bot/core/names.py``): through challenges, boards, result
cards, CONEX lobbies, tournament announcements and standings, no message the bot sends (public or private) holds the
markup of someone the game does not involve. Pings are tested apart (``test_field_mentions``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import User, fixed_id

from .helpers import BotEnv, answered, bot_env, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("markup")), start=False) as e:
        server = e.server
        names = [f"<@{server.user('carol').id}>", f"<@&{server.guild().mod_role_id}>", f"<#{server.channel().id}>"]
        for n, name in enumerate(names, start=1):
            server.users[f"x{n}"] = User(id=fixed_id(880 + n), name=name)
        await e.proc.start()
        await e.ready()
        yield e


def markup_of_others(env: BotEnv) -> list[str]:
    """The messages whose content holds the markup of carol, the moderators' role or the games channel (nobody
    here names them on purpose)."""
    server = env.server
    marks = [f"<@{server.user('carol').id}>", f"<@&{server.guild().mod_role_id}>", f"<#{server.channel().id}>"]
    return [m.content for m in server.all_messages() if any(x in m.content for x in marks)]


async def test_names_written_as_markup_are_shown_as_text(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    x1, x2, x3 = (server.as_user(f"x{n}") for n in (1, 2, 3))
    res = await answered(await x1.slash("constructo challenge", opponent=str(server.user("x2").id)))
    await answered(await x2.click(res.message, "Accept"), followups=1)
    await answered(await x1.slash("constructo place", tile=5, size="large"))
    await resign(x2)

    lobby = (await answered(await x3.slash("conex new", table="small"))).message
    await answered(await x1.click(lobby, "Join"))
    await answered(await x2.click(lobby, "Join"))
    await answered(await x2.click(lobby, "Leave"))
    await answered(await x3.click(lobby, "Leave"))

    await answered(await x1.slash("tournament create", game="constructo", format="swiss", rounds=1))
    for user in (x1, x2, x3):
        await answered(await user.slash("tournament join"))
    standings = await answered(await x3.slash("tournament standings"))
    assert "\u2039@" in standings.text, standings.text  # the names are there, as text
    await answered(await x1.slash("tournament cancel"))

    assert markup_of_others(env) == []
    assert env.violations_since(mark) == [], env.log_tail()
