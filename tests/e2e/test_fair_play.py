"""E2E: no free re-deal (issue 22, fair play) through the real bot process and the DevServer.

An admin (``mod``: Manage Server) seated in a running CONEX game, having seen their hand, cannot end it alone:
``/abort`` posts ``/abandon``'s offer and the game runs on until the others agree; ``/games``' Abort refuses. Every
aborted CONEX game's message reveals the deal's seed (with the verify command), as a finished game's card does,
and the seed matches the commitment posted at the start.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine.conex import fair

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("fair-abort"))) as e:
        yield e


async def conex_game(env: BotEnv, host: str, guest: str, channel: str) -> int:
    server = env.server
    lobby = (await answered(await server.as_user(host, channel).slash("conex new", table="small"))).message
    await answered(await server.as_user(guest, channel).click(lobby, "Join"))
    await answered(await server.as_user(host, channel).click(lobby, "Start"), followups=1)
    row = env.latest_game("conex", server.channel(channel).id)
    assert row.status == "active"
    return row.id


async def test_seated_admin_needs_consent_and_the_abort_reveals_the_seed(env: BotEnv) -> None:
    server = env.server
    mod, alice = server.as_user("mod", "general"), server.as_user("alice", "general")
    game_id = await conex_game(env, "mod", "alice", "general")
    hand = await answered(await mod.slash("conex hand"))
    assert hand.ephemeral, "the admin has seen their hand"
    version = env.game(game_id).version

    res = await answered(await mod.slash("abort"), followups=1)
    assert env.game(game_id).status == "active", "a seated admin cannot abort alone"
    assert env.game(game_id).version == version
    offer = res.message
    assert offer is not None and not offer.ephemeral and "Agree to abort" in {b.get("label") for b in offer.buttons()}
    assert any(f.ephemeral and "consent" in (f.content or "") for f in res.followups), res.followups

    listing = await answered(await mod.slash("games"))
    refused = await answered(await mod.click(listing.message, f"Abort #{game_id}"))
    refused = await answered(await mod.click(refused.message, "Yes, abort it"))
    assert_refusal(refused, "consent")
    assert env.game(game_id).status == "active"

    agreed = await answered(await alice.click(offer, "Agree to abort"))
    row = env.game(game_id)
    assert row.status == "aborted" and row.result is None
    seed = row.conex.seed
    text = agreed.text or server.message(offer.id).content
    assert f"`{seed}`" in text and fair.commitment(seed) in text and "python -m engine.conex verify" in text, text
    env.assert_alive()


async def test_every_aborted_conex_game_reveals_its_seed(env: BotEnv) -> None:
    server = env.server
    game_id = await conex_game(env, "alice", "bob", "games")
    res = await answered(await server.as_user("mod", "games").slash("abort"))  # not seated: aborts at once
    row = env.game(game_id)
    assert row.status == "aborted"
    assert not res.ephemeral and f"`{row.conex.seed}`" in res.text and fair.commitment(row.conex.seed) in res.text
    env.assert_alive()


async def test_my_hand_pressed_as_the_game_starts_is_answered_with_the_commitment(env: BotEnv) -> None:
    """No window where a true request is refused: the hand opens once the start is committed, and until a table is
    posted it carries the deal's commitment itself (nobody sees a card before the commitment)."""
    server = env.server
    carol, dave = server.as_user("carol", "games-2"), server.as_user("dave", "games-2")
    lobby = (await answered(await carol.slash("conex new", table="small"))).message
    await answered(await dave.click(lobby, "Join"))
    start = await carol.click(lobby, "Start")
    await server.wait_until(lambda: env.latest_game("conex", server.channel("games-2").id).status == "active", 10,
                            "the start to be committed")
    hand = await answered(await dave.slash("conex hand"))  # at once: the table may not be posted yet
    await answered(start, followups=1)
    row = env.latest_game("conex", server.channel("games-2").id)
    assert hand.ephemeral and hand.message.images, f"the hand, not a refusal: {hand.text!r}"
    assert "not posted yet" not in hand.text
    commitment = fair.commitment(row.conex.seed)
    table = start.followups[-1]
    assert commitment in table.content
    if commitment not in hand.text:  # the table came first: it was posted before the hand's answer
        assert table.id < hand.message.id, "a hand without the commitment came before the table"
    await answered(await server.as_user("mod", "games-2").slash("abort"))
    env.assert_alive()
