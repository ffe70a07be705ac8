"""E2E (issue 25, item 4): ``/learn constructo`` in English and ``/learn conex`` in Spanish, played through to the end
against the real bot process and the DevServer.

The tutorial is a real game against the easy AI in a thread of its own (the command's answer is private; nothing is
posted in the channel, not even the result card); the learner plays with the game's own commands in that thread;
the boards teach each rule in a sentence of the learner's language, each once, on the boards where the learner is
to act; the bot is restarted mid-tutorial (CONEX) and carries on; the closing message offers a real game, and its
buttons open one (the AI at a level) or queue the learner (quick match).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.i18n import t
from devserver.models import Message

from .helpers import BotEnv, answered, assert_png, bot_env, queued

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNEL = "general"
MAX_TURNS = 80
CX_STEPS = ("layout", "place", "stack", "swallow", "tower", "round_end", "match")
CN_STEPS = ("hand", "corners", "no_touch", "score", "die", "stars", "draw", "goal")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    extra = {"THREAD_PER_GAME": "1"}  # the operator's default (the e2e bot's is off, as in the local console)
    async with bot_env(Path(tmp_path_factory.mktemp("learn")), extra_env=extra) as e:
        yield e


def taught(env: BotEnv, game_id: int) -> dict[str, int]:
    """The tutorial's stored progress: step -> the game version whose board first taught it."""
    with env.db() as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (f"learn:{game_id}",)).fetchone()
    return dict(json.loads(row[0])["taught"]) if row else {}


async def board_for_learner(env: BotEnv, game_id: int, learner: int) -> tuple[Any, Message | None]:
    """Wait until the game waits for the learner (the AI answered) or is over, and its board of that version is
    out; returns the stored row and that board (``None`` once the game is over)."""
    server = env.server

    def ready() -> bool:
        row = env.game(game_id)
        shown = row.messages.get("board.version")
        if shown != row.version:
            return False
        return row.status != "active" or 0 in _awaiting(row)

    await server.wait_until(ready, 60, "the learner's board (after the AI's answer)")
    row = env.game(game_id)
    return row, server.message(row.messages["board"]) if row.status == "active" else None


def _awaiting(row: Any) -> tuple[int, ...]:
    return tuple(row.match.awaiting() if row.kind == "constructo" else row.conex.awaiting())


def said(env: BotEnv, channel_id: int) -> list[str]:
    """The contents of every message the bot posted in ``channel_id``, deleted boards included."""
    return [m.content for m in env.server.messages(channel_id, include_deleted=True) if m.author.bot]


def assert_taught_once(env: BotEnv, game_id: int, channel_id: int, prefix: str, locale: str, **words: Any) -> None:
    """Each step taught appears in exactly one board of the thread, in the learner's language."""
    steps = taught(env, game_id)
    boards = said(env, channel_id)
    for step in steps:
        sentence = t(f"{prefix}.learn.{step}", locale, **words)
        assert sum(sentence in b for b in boards) == 1, f"step {step} said {sum(sentence in b for b in boards)}x"


async def closing(env: BotEnv, game_id: int) -> Message:
    await env.server.wait_until(lambda: "learn_end" in env.game(game_id).messages, 60, "the closing message")
    return env.server.message(env.game(game_id).messages["learn_end"])


async def test_learn_constructo_in_english_to_the_end_then_play_the_ai(env: BotEnv) -> None:
    server = env.server
    alice = server.as_user("alice", CHANNEL)
    before = len(server.messages(CHANNEL, visible_to="all"))
    res = await answered(await alice.slash("learn constructo"))
    assert res.ephemeral and "tutorial" in res.text, res.text
    row = env.latest_game("constructo")
    assert row.state["options"].get("tutorial") is True and [s["ai"] for s in row.state["seats"]] == [None, "easy"]
    thread = server.channel(row.channel_id)
    assert thread.id != server.channel(CHANNEL).id and f"<#{thread.id}>" in res.text, "a thread of its own"
    me = alice.in_channel(thread)

    for _turn in range(MAX_TURNS):
        row, board = await board_for_learner(env, row.id, alice.id)
        if board is None:
            break
        if _turn == 0:
            assert_png(board.images[0])
            assert t("cx.learn.layout", "en-US") in board.content and t("cx.learn.place", "en-US") in board.content
        rnd = row.match.current_round
        moves = [m for m in rnd.legal_moves()]
        steps = [m for m in moves if not m.is_place]
        move = steps[0] if steps else moves[0]
        if move.is_place:
            await answered(await me.slash("constructo place", tile=move.tile, size=move.size.word))
        else:
            await answered(await me.slash("constructo move", **{"from": move.src, "to": move.dst}))
    row = env.game(row.id)
    assert row.status == "finished" and len(row.match.rounds) == 2, "both rounds of the match were played"
    assert_taught_once(env, row.id, thread.id, "cx", "en-US")
    steps = taught(env, row.id)
    assert {"layout", "place", "round_end", "match"} <= set(steps), steps
    assert "result" not in row.messages, "a tutorial's result card stays in its thread"
    assert len(server.messages(CHANNEL, visible_to="all")) - before <= 1, "nothing posted in the channel"

    end = await closing(env, row.id)
    assert t("learn.offer", "en-US") in end.content and end.channel_id == thread.id
    labels = {c.get("label") for r in end.components for c in r.get("components", [])}
    assert {"Play the AI (easy)", "Play the AI (hard)", "Open a challenge", "Quick match"} <= labels, labels
    res = await answered(await me.click(end, "Play the AI (hard)"))
    assert res.message is not None and res.message.images, "the new game's board answers the click"
    real = env.latest_game("constructo")
    assert real.id != row.id and real.status == "active" and real.channel_id == thread.id
    assert "tutorial" not in real.state["options"] and [s["ai"] for s in real.state["seats"]] == [None, "hard"]
    await answered(await me.slash("constructo resign"))


async def test_learn_conex_in_spanish_survives_a_restart_and_offers_the_quick_match(env: BotEnv) -> None:
    server = env.server
    server.user("bob").locale = "es-ES"
    bob = server.as_user("bob", CHANNEL)
    res = await answered(await bob.slash("learn conex"))
    assert res.ephemeral and "tutorial de CONEX" in res.text, res.text
    row = env.latest_game("conex")
    assert row.state["locale"] == "es-ES" and row.state["options"]["goal"] == 20
    thread = server.channel(row.channel_id)
    me = bob.in_channel(thread)

    restarted = False
    for turn in range(MAX_TURNS):
        row, board = await board_for_learner(env, row.id, bob.id)
        if board is None:
            break
        if turn == 0:
            assert t("cn.learn.hand", "es-ES") in board.content, board.content
            assert "Mi mano" in {c.get("label") for r in board.components for c in r.get("components", [])}
        if turn == 3 and not restarted:  # mid-tutorial: the progress and the game are in the database
            before = taught(env, row.id)
            await env.proc.restart()
            restarted = True
            row, board = await board_for_learner(env, row.id, bob.id)
            assert taught(env, row.id) == before
            if board is None:
                break
        game = row.conex
        await answered(await me.slash("conex draw" if game.draw_pile else "conex pass"))
    row = env.game(row.id)
    assert row.status == "finished" and restarted
    assert_taught_once(env, row.id, thread.id, "cn", "es-ES", goal=20)
    steps = taught(env, row.id)
    assert {"hand", "corners", "draw", "goal"} <= set(steps), steps

    end = await closing(env, row.id)
    assert t("learn.offer", "es-ES") in end.content
    if set(steps) != set(CN_STEPS):  # the rules the game did not bring up are recapped, in words
        assert t("learn.recap", "es-ES") in end.content
    await answered(await me.click(end, "Partida rápida"))
    assert queued(env).get(bob.id, ("", 0))[0] == "conex", "the quick match button queues the learner"
    await answered(await bob.slash("play leave"))
