"""E2E: fair play (issue 22): no free re-deal, My hand at the start, signed records, through the real bot
process and the DevServer.

An admin (``mod``: Manage Server) seated in a running CONEX game, having seen their hand, cannot end it alone:
``/abort`` posts ``/abandon``'s offer and the game runs on until the others agree; ``/games``' Abort refuses. Every
aborted CONEX game's message reveals the deal's seed (with the verify command), as a finished game's card does,
and the seed matches the commitment posted at the start.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from engine.conex import fair

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board

REPO = Path(__file__).resolve().parents[2]

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
    await server.wait_until(
        lambda: env.latest_game("conex", server.channel("games-2").id).status == "active",
        10,
        "the start to be committed",
    )
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


async def python(*args: str, data_dir: Path) -> tuple[int, str]:
    """``python <args>`` in the repository with the bot's DATA_DIR (off the loop): exit code and output."""
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    env.pop("DISCORD_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=REPO, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


async def test_downloaded_record_is_signed_and_the_documented_command_checks_it(env: BotEnv, tmp_path: Path) -> None:
    server = env.server
    alice, bob = server.as_user("alice", "general"), server.as_user("bob", "general")
    game_id = await conex_game(env, "alice", "bob", "general")
    mover = env.game(game_id).conex.current_player
    await answered(await (alice, bob)[mover].slash("conex draw"))
    leave = await answered(await bob.slash("conex leave"))
    await answered(await bob.click(leave.message, "Yes, leave the game"))
    row = env.game(game_id)
    assert row.status == "finished"
    card = await recorded_board(env, game_id)  # the result table, recorded just after it is posted
    download = await answered(await alice.click(card, "Download record"))
    files = {a.filename: a.data for m in download.messages for a in m.attachments}
    record = json.loads(files[f"game-{game_id}.json"])
    code, key = await python("-m", "bot", "record-key", data_dir=env.data_dir)  # what the operator publishes
    key = key.strip()
    assert code == 0 and key.startswith("ed25519:") and record["signature"]["key"] == key
    assert record["commitment"]["hash"] == fair.commitment(row.conex.seed)
    assert key in download.text and "verify-record" in download.text
    path = tmp_path / f"game-{game_id}.json"
    path.write_bytes(files[f"game-{game_id}.json"])
    code, out = await python("-m", "bot", "verify-record", str(path), "--public-key", key, data_dir=tmp_path)
    assert code == 0 and out.strip().endswith("OK") and fair.commitment(row.conex.seed) in out, out
    seat, text = record["history"][0]
    record["history"][0] = [1 - seat, text]  # one action edited
    path.write_text(json.dumps(record))
    code, out = await python("-m", "bot", "verify-record", str(path), "--public-key", key, data_dir=tmp_path)
    assert code == 1 and "REFUSED (signature" in out, out
    env.assert_alive()
