"""E2E: stepping through a finished game's replay, through the real bot process and the DevServer.

A Constructo match (6 placements, then a resignation) -> Replay -> **Step through** beside the GIF: a private
message with the board at move 0; ▶ / ◀ / ⏭ and the jump select edit that same message in place, each showing
exactly the replay's own still of that move (compared byte for byte with ``render.replay.replay_frame`` of the
downloaded record), with ◀ disabled at the start and ▶ at the end. Only the asker sees (and can click) it; the
buttons keep working after the bot restarts (the game id and move are in the custom ids, the game is reloaded from
storage). A forged move number past the end shows the last move, and the Spanish client reads Spanish.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import CommandUsageError
from devserver.models import Message, snowflake
from render import to_png
from render.constructo_replay import REPLAY
from render.replay import replay_frame

from .helpers import BotEnv, answered, bot_env, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("stepper"))) as e:
        yield e


def still(record: dict, move: int) -> bytes:
    return to_png(replay_frame(record, REPLAY, move, width=600))


def labels(message) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    return {c.get("label") or c.get("custom_id"): c for c in message.buttons()}


async def test_step_through_a_replay_privately_and_after_a_restart(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = server.as_user("alice"), server.as_user("bob"), server.as_user("carol")
    users = {alice.id: alice, bob.id: bob}
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    game = env.latest_game("constructo", server.channel("games").id)
    await answered(await bob.click(res.message, "Accept"), followups=1)
    for _ in range(6):
        row = env.game(game.id)
        move = next(m for m in row.match.current_round.legal_moves() if m.is_place)
        await answered(
            await users[row.players[row.match.current_player]].slash(
                "constructo place", tile=move.tile, size=move.size.word
            )
        )
    await resign(bob)
    card = await recorded_board(env, game.id)  # the result card, recorded just after its followup

    replay = await answered(await carol.click(card, "Replay"), timeout=60)
    record = json.loads(next(a.data for a in replay.message.attachments if a.filename.endswith(".json")))
    total = len(record["history"])
    assert total == 7  # 6 placements + the resignation
    assert "Step through" in labels(replay.message)

    step = await answered(await carol.click(replay.message, "Step through"), timeout=60)
    assert step.ephemeral and f"Game #{game.id}" in step.text and f"move 0 of {total}" in step.text
    stepper = step.message
    assert stepper.images == [still(record, 0)]
    assert labels(stepper)["◀"].get("disabled") and labels(stepper)["⏮"].get("disabled")
    with pytest.raises(CommandUsageError):
        await carol.click(stepper, "◀")  # nothing before the start
    with pytest.raises(CommandUsageError):
        await bob.click(stepper, "▶")  # private: another player cannot see (nor click) carol's stepper

    for k in (1, 2):
        nxt = await answered(await carol.click(server.message(stepper.id), "▶"), timeout=60)
        assert nxt.response_type in (6, 7) and nxt.message.id == stepper.id  # edited in place, no new message
        now = server.message(stepper.id)
        assert f"move {k} of {total}" in now.content and now.images == [still(record, k)]
        assert record["history"][k - 1][1] in now.content  # the caption names the action (e.g. "S5")

    jump = await answered(await carol.select(server.message(stepper.id), str(total), custom_id=f"rc:sj:{game.id}"))
    now = server.message(jump.message.id)
    assert f"move {total} of {total}" in now.content and now.images == [still(record, total)]
    assert labels(now)["▶"].get("disabled") and labels(now)["⏭"].get("disabled")
    menu = next(c for row in now.components for c in row["components"] if c.get("type") == 3)
    options = {o["value"]: o for o in menu["options"]}
    assert set(options) == {str(k) for k in range(total + 1)} and "resigns" in options[str(total)]["description"]

    await env.proc.restart()  # persistent: the custom ids carry game and move, the game comes from storage
    back = await answered(await carol.click(server.message(stepper.id), "◀"), timeout=60)
    now = server.message(back.message.id)
    assert f"move {total - 1} of {total}" in now.content and now.images == [still(record, total - 1)]
    assert env.violations_since(mark) == [], env.log_tail()


def forged(env: BotEnv, like: Message, custom_id: str) -> Message:
    """A message of the bot's in ``like``'s channel carrying one button with ``custom_id`` (what a modified client
    would display: the stepper must not trust the move or the game in it)."""
    comp = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    msg = dataclasses.replace(
        like, id=snowflake(), components=[{"type": 1, "components": [comp]}], attachments=[], edits=0
    )
    return env.server.add_message(msg)


async def test_stepper_refuses_a_running_game_clamps_a_forged_move_and_speaks_spanish(env: BotEnv) -> None:
    server = env.server
    alice = server.as_user("alice", server.channel("general"))
    res = await answered(await alice.slash("constructo challenge", opponent="bot"))
    running = env.latest_game("constructo", server.channel("general").id)
    refused = await answered(await alice.click(forged(env, res.message, f"rc:sv:{running.id}:3:s"), "x"))
    assert refused.ephemeral and "still being played" in refused.text and not refused.message.images
    await resign(alice)
    server.user("carol").locale = "es-ES"
    try:
        carol = server.as_user("carol", server.channel("general"))
        shown = await answered(
            await carol.click(forged(env, res.message, f"rc:sv:{running.id}:999:s"), "x"), timeout=60
        )
    finally:
        server.user("carol").locale = "en-US"
    total = len(env.game(running.id).match.history)
    assert shown.ephemeral and "solo lo ves tú" in shown.text and shown.message.images
    assert f"jugada {total} de {total}" in shown.text.splitlines()[0], shown.text  # move 999 shows the last one
