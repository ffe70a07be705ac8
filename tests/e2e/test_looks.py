"""A player's look, end to end through the real bot: ``/mysettings theme:light palette:colour-blind`` makes that
player's private pictures (their CONEX hand) light, leaves another player's dark, and the public board keeps the
default (dark) look."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from render.common import luminance

from .helpers import BotEnv, answered, bot_env, recorded_board

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("looks"))) as e:
        yield e


def lightness(png: bytes) -> float:
    """Relative luminance (0..1) of the picture's most common colour: its background."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return luminance(max(img.getcolors(img.width * img.height) or [])[1])


async def test_mysettings_theme_light_makes_my_hand_light_and_nobody_else_s(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob = (server.as_user(n, server.channel("games")) for n in ("alice", "bob"))
    res = await answered(await alice.slash("mysettings"))
    assert "**dark** theme, **standard** palette" in res.text, res.text
    lobby = await answered(await alice.slash("conex new"))
    await answered(await bob.click(lobby.message, "Join"))
    started = await answered(await alice.click(lobby.message, "Start"), followups=1)
    table = started.followups[-1]

    before = await answered(await alice.slash("conex hand"), timeout=60)
    await server.wait_until(lambda: bool(before.images), 10, "the hand's picture")
    assert lightness(before.images[0]) < 0.1, "a player who chose nothing gets the dark default"

    res = await answered(await alice.slash("mysettings", theme="light", palette="colour-blind"))
    assert res.ephemeral and "**light**" in res.text and "**colour-blind**" in res.text, res.text
    assert "**light**" in (await answered(await alice.slash("mysettings"))).text, "kept"

    mine = await answered(await alice.slash("conex hand"), timeout=60)
    await server.wait_until(lambda: bool(mine.images), 10, "the hand's picture")
    assert mine.ephemeral and lightness(mine.images[0]) > 0.5, "alice's hand follows her theme"
    assert mine.images[0] != before.images[0]

    theirs = await answered(await bob.slash("conex hand"), timeout=60)
    await server.wait_until(lambda: bool(theirs.images), 10, "the hand's picture")
    assert lightness(theirs.images[0]) < 0.1, "bob chose nothing: his hand stays dark"

    board = await answered(await bob.slash("conex board"), timeout=60)
    await server.wait_until(lambda: bool(board.images) or bool(table.images), 10, "a public table picture")
    public = board.images[0] if board.images else table.images[0]
    assert lightness(public) < 0.1, "a public table keeps the default look"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_watching_a_game_draws_its_board_in_the_watchers_look(env: BotEnv) -> None:
    """**Watch a game…** is a private answer: carol, who chose the light theme, sees a running Constructo game's board
    light; dave, who chose nothing, sees it dark; the public board stays dark."""
    server = env.server
    here = server.channel("games-2")
    alice, bob = server.as_user("alice", here), server.as_user("bob", here)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", here.id)
    await answered(await server.as_user("carol").slash("mysettings", theme="light"))
    seen: dict[str, bytes] = {}
    for name in ("carol", "dave"):
        user = server.as_user(name)
        listing = await answered(await user.slash("games"))
        shown = await answered(await user.select(listing.message, str(game.id)))
        assert shown.ephemeral and shown.message is not None and shown.message.images, shown.text
        seen[name] = shown.message.images[0]
    assert lightness(seen["carol"]) > 0.5, "carol's look: light"
    assert lightness(seen["dave"]) < 0.1, "dave chose nothing: dark"
    board = await recorded_board(env, game.id)
    assert board.images and lightness(board.images[0]) < 0.1, "the public board keeps the default look"
