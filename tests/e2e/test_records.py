"""E2E: game records through the real bot process and the DevServer (issue 16).

A finished game of each kind (a Constructo match ending in a resignation, a 2-player CONEX game with draws ending in
a forfeit) -> the result card's Replay, Download record and (Constructo) Analysis buttons, and ``/replay`` -> the
GIF decodes with Pillow with one frame per action plus the start, the record JSON re-played by ``engine.record``
gives the stored final state; CONEX shows the SHA-256 commitment of its deal before anyone's hand is shown and
reveals the seed at the end with a command that verifies it (and refuses a tampered seed); ``/history`` lists the
games and pages (Older / Newer) and opens a record; a second guild sees none of it. The replay sizes are written
to ``records-e2e.json`` in the test's temp dir (BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from devserver.models import Message
from engine.conex import Game, fair
from engine.constructo import Match
from engine.record import load_record

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board, resign

ENGINES = (Game, Match)
"""What the bot's plug-ins name as their engines (``kind.engine``): the records are re-played with them."""

pytestmark = pytest.mark.asyncio(loop_scope="module")

REPO = Path(__file__).resolve().parents[2]
FIGURES: dict[str, Any] = {}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("records"))
    async with bot_env(tmp, start=False) as e:
        e.server.add_guild("Other Guild")  # before the bot connects: it hears of both guilds
        e.proc.extra_env = {"DEV_GUILD_ID": ""}  # global commands: usable in both guilds
        await e.proc.start()
        yield e
        (tmp / "records-e2e.json").write_text(json.dumps(FIGURES, indent=1))
        print("records e2e figures:", json.dumps(FIGURES), "load average:", os.getloadavg())


async def run(*args: str) -> tuple[int, str]:
    """``python <args>`` in the repository (off the event loop the DevServer runs on): exit code and output."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *args, cwd=REPO, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


def files_of(messages: list[Message]) -> dict[str, bytes]:
    return {a.filename: a.data for m in messages for a in m.attachments}


def gif_frames(data: bytes) -> int:
    """Pillow decodes every frame of the GIF; returns how many there are."""
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "GIF"
        for i in range(img.n_frames):
            img.seek(i)
            img.load()
        return int(img.n_frames)


def check_record(env: BotEnv, game_id: int, files: dict[str, bytes], case: str, seconds: float) -> None:
    """The replay has one frame per action plus the start; the record re-plays to the stored final state."""
    row = env.game(game_id)
    record = json.loads(files[f"game-{game_id}.json"])
    state = load_record(record, ENGINES)
    assert state.to_dict() == row.engine, "the downloaded record re-plays to the stored game"
    gif = files[f"replay-{game_id}.gif"]
    assert gif_frames(gif) == len(record["history"]) + 1
    FIGURES[case] = {
        "actions": len(record["history"]),
        "frames": len(record["history"]) + 1,
        "gif_bytes": len(gif),
        "json_bytes": len(files[f"game-{game_id}.json"]),
        "answer_s": round(seconds, 2),
    }


async def test_constructo_result_card_replay_download_and_analysis(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = server.as_user("alice"), server.as_user("bob"), server.as_user("carol")
    users = {alice.id: alice, bob.id: bob}
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    game = env.latest_game("constructo", server.channel("games").id)
    await answered(await bob.click(res.message, "Accept"), followups=1)
    for _ in range(8):
        row = env.game(game.id)
        match = row.match
        move = next(m for m in match.current_round.legal_moves() if m.is_place)
        user = users[row.players[match.current_player]]
        done = await answered(await user.slash("constructo place", tile=move.tile, size=move.size.word))
        assert not done.ephemeral, done.text
    res = await resign(bob)
    row = env.game(game.id)
    assert row.status == "finished"
    card = await recorded_board(env, game.id)  # the result card, recorded just after its followup
    assert [c.get("label") for c in card.buttons()] == ["Rematch", "Replay", "Download record", "Analysis"]

    started = time.perf_counter()
    replay = await answered(await carol.click(card, "Replay"), timeout=60)
    seconds = time.perf_counter() - started
    assert replay.ephemeral and "rombo:" in replay.text and f"Game #{game.id}" in replay.text
    check_record(env, game.id, files_of(replay.messages), "constructo, 8 chips + resignation", seconds)

    download = await answered(await alice.click(card, "Download record"))
    assert download.ephemeral
    assert load_record(json.loads(files_of(download.messages)[f"game-{game.id}.json"]), ENGINES).to_dict() == row.engine

    started = time.perf_counter()
    analysis = await answered(await carol.click(card, "Analysis"), timeout=60)
    FIGURES["constructo analysis answer_s"] = round(time.perf_counter() - started, 2)
    text = analysis.text
    assert analysis.ephemeral and "Round 1" in text and "At the start:" in text
    assert "Turning point:" in text or "No move lost a tower." in text
    assert sum(1 for line in text.splitlines() if line.startswith("` ")) == 8  # a mark per move
    pictures = files_of(analysis.messages)  # the value graph; the board after the turning point when there is one
    assert pictures[f"analysis-{game.id}-values.png"].startswith(b"\x89PNG")
    assert (f"analysis-{game.id}-round1-turning.png" in pictures) == ("Turning point:" in text)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_conex_commitment_before_any_hand_reveal_and_replay(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    channel = server.channel("general")
    alice, bob = server.as_user("alice", channel), server.as_user("bob", channel)
    res = await answered(await alice.slash("conex new", table="small", goal=100))
    await answered(await bob.click(res.message, "Join"))
    start = await answered(await alice.click(res.message, "Start"), followups=1)
    game = env.latest_game("conex", channel.id)
    seed = int(game.engine["setup"]["seed"])
    assert seed.bit_length() > 64, "a 128-bit seed from secrets"
    digest = fair.commitment(seed)
    table = start.followups[-1]
    assert digest in table.content and str(seed) not in table.content and "SHA-256" not in table.content
    assert digest in server.message(res.message.id).content  # the lobby message says it too

    hand = await answered(await bob.click(table, "My hand"))
    assert hand.ephemeral and hand.message is not None
    committed = [m for m in server.messages(channel.id) if digest in m.content]
    assert committed and min(m.id for m in committed) < hand.message.id, "the commitment comes before any hand"
    assert all(str(seed) not in m.content for m in server.messages(channel.id))

    for user in (alice, bob, alice, bob):  # a few actions, so the replay has frames to show
        await answered(await user.slash("conex draw"))
    leave = await answered(await bob.slash("conex leave"))
    await answered(await bob.click(leave.message, "Yes, leave the game"))
    row = env.game(game.id)
    assert row.status == "finished"
    card = await recorded_board(env, game.id)  # the result table, recorded just after it is posted
    command = f"python -m engine.conex verify {seed} {digest} --players 2"
    assert f"`{seed}`" not in card.content and "python -m" not in card.content, card.content  # in words on the card
    labels = ["Rematch", "Replay", "Download record", "How do I know the deal was fair?"]
    assert [c.get("label") for c in card.buttons()] == labels
    proof = await answered(await alice.click(card, "How do I know the deal was fair?"))
    assert proof.ephemeral and f"`{seed}`" in proof.text and command in proof.text and digest in proof.text
    code, out = await run(*command.split()[1:])  # the documented command, as a player would run it
    assert code == 0 and out.strip().endswith("OK"), out
    code, out = await run("-m", "engine.conex", "verify", str(seed ^ 1), digest, "--players", "2")  # tampered
    assert code == 1 and "MISMATCH" in out

    started = time.perf_counter()
    replay = await answered(await alice.slash("replay", game=game.id), timeout=60)
    seconds = time.perf_counter() - started
    assert not replay.ephemeral and f"Game #{game.id}" in replay.text and str(seed) not in replay.text
    check_record(env, game.id, files_of(replay.messages), "conex 2 seats, 4 draws + forfeit", seconds)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_history_lists_pages_and_opens_records_and_autocompletes(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice = server.as_user("alice", server.channel("games-2"))
    for _ in range(4):  # quick games against the AI, resigned at once: alice has 2 + 4 = 6 finished games
        await answered(await alice.slash("constructo challenge", opponent="bot"))
        await resign(alice)
    ids = [env.latest_game("constructo", server.channel("games-2").id).id]
    res = await answered(await alice.slash("history"))
    assert res.ephemeral
    lines = res.message.content.splitlines()
    assert "page 1" in lines[0] and len(lines) == 6 and f"`#{ids[0]}`" in lines[1] and "not rated (AI)" in lines[1]
    assert "<t:" in lines[1] and ":R>" in lines[1]
    older = await answered(await alice.click(res.message, "Older ▶"))
    page2 = server.message(res.message.id)
    assert older.response_type == 7 and "page 2" in page2.content and len(page2.content.splitlines()) == 2
    constructo = env.latest_game("constructo", server.channel("games").id)
    conex = env.latest_game("conex", server.channel("general").id)
    assert f"`#{constructo.id}`" in page2.content  # the oldest game alice played
    await answered(await alice.click(page2, "◀ Newer"))
    page1 = server.message(res.message.id)
    assert "page 1" in page1.content and f"`#{conex.id}`" in page1.content and "rating" in page1.content
    opened = await answered(await alice.select(page1, str(conex.id)), timeout=30)
    assert opened.ephemeral and f"Game #{conex.id}" in opened.text
    labels = ["Replay", "Download record", "How do I know the deal was fair?"]
    assert [c.get("label") for c in opened.message.buttons()] == labels
    choices = await alice.autocomplete("replay", "game", "")
    assert [c["value"] for c in choices][:1] == [ids[0]] and len(choices) == 6
    assert env.violations_since(mark) == [], env.log_tail()


async def test_another_guild_sees_no_record(env: BotEnv) -> None:
    server = env.server
    other = server.channel("general", guild="Other Guild")
    alice = server.as_user("alice", other)
    game = env.latest_game("constructo", server.channel("games").id)
    refused = await answered(await alice.slash("replay", game=game.id))
    assert_refusal(refused, f"no finished game #{game.id} in this server")
    res = await answered(await alice.slash("history"))
    assert "No finished games here yet." in res.text
    assert await alice.autocomplete("replay", "game", "") == []
    env.assert_alive()
